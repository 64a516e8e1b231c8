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

// `n` lists from `count` entries, entry i going to list key(i) as item(i), into `start` (n + 1
// offsets) and `items`: list i is items[start[i]] up to items[start[i + 1]], in entry order. The
// vectors' capacity is reused (the executor makes a graph for every question it asks).
template <class T, class Key, class Item>
void csr_of(size_t n, size_t count, Key key, Item item, std::vector<uint32_t>* start,
            std::vector<T>* items) {
  std::vector<uint32_t>& s = *start;
  s.assign(n + 1, 0);
  for (size_t i = 0; i < count; ++i) ++s[key(i) + 1];
  for (size_t i = 0; i < n; ++i) s[i + 1] += s[i];
  items->resize(count);
  // s[k] is list k's next free place; once filled it is list k + 1's first, so shift back.
  for (size_t i = 0; i < count; ++i) (*items)[s[key(i)]++] = item(i);
  for (size_t i = n; i > 0; --i) s[i] = s[i - 1];
  s[0] = 0;
}

// `n` lists from (list, item) pairs.
template <class T>
void csr(size_t n, const std::vector<std::pair<uint32_t, T>>& pairs, std::vector<uint32_t>* start,
         std::vector<T>* items) {
  csr_of(
      n, pairs.size(), [&](size_t i) { return pairs[i].first; },
      [&](size_t i) { return pairs[i].second; }, start, items);
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
