#pragma once
// Lists by index kept in one array (compressed sparse rows): list i is items[start[i]] up to
// items[start[i + 1]]. Where a program has a list per event, one vector each costs a heap block
// and a header per event (about 40 bytes on glibc before any item), and walking them jumps from
// block to block: the proof cones walk such lists for every obligation (properties/proof_cone.h).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace syncproof::util {

// `n` lists from (list, item) pairs into `start` (n + 1 offsets) and `items`: list i is
// items[start[i]] up to items[start[i + 1]], in the pairs' order.
template <class T>
void csr(size_t n, const std::vector<std::pair<uint32_t, T>>& pairs, std::vector<uint32_t>* start,
         std::vector<T>* items) {
  start->assign(n + 1, 0);
  for (const auto& pr : pairs) ++(*start)[pr.first + 1];
  for (size_t i = 0; i < n; ++i) (*start)[i + 1] += (*start)[i];
  items->resize(pairs.size());
  std::vector<uint32_t> at(start->begin(), start->end() - 1);
  for (const auto& pr : pairs) (*items)[at[pr.first]++] = pr.second;
}

// The same kept as one object.
template <class T>
class Csr {
 public:
  Csr() = default;
  Csr(size_t n, const std::vector<std::pair<uint32_t, T>>& pairs) {
    csr(n, pairs, &start_, &items_);
  }
  std::span<const T> operator[](size_t i) const {
    return {items_.data() + start_[i], items_.data() + start_[i + 1]};
  }
  size_t size() const { return start_.empty() ? 0 : start_.size() - 1; }

 private:
  std::vector<uint32_t> start_;
  std::vector<T> items_;
};

}  // namespace syncproof::util
