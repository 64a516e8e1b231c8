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

template <class T>
class Csr {
 public:
  Csr() = default;
  // `n` lists from (list, item) pairs; a list holds its items in the pairs' order.
  Csr(size_t n, const std::vector<std::pair<uint32_t, T>>& pairs) : start_(n + 1, 0) {
    for (const auto& pr : pairs) ++start_[pr.first + 1];
    for (size_t i = 0; i < n; ++i) start_[i + 1] += start_[i];
    items_.resize(pairs.size());
    std::vector<uint32_t> at(start_.begin(), start_.end() - 1);
    for (const auto& pr : pairs) items_[at[pr.first]++] = pr.second;
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
