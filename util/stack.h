#pragma once
// A stack whose storage outlives its uses: a walk that runs for every question (the proof cones'
// walks push millions of events at a frame) keeps it in its object and clears it each time.
// push() stays small enough to be inlined where std::vector::push_back, in those walks' loops,
// was a call each (6% of the executor at 10,000 commands).
#include <algorithm>
#include <cstddef>
#include <vector>

namespace syncproof::util {

template <class T>
class Stack {
 public:
  void push(const T& x) {
    if (size_ == items_.size()) grow();
    items_[size_++] = x;
  }
  T pop() { return items_[--size_]; }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }
  const T* begin() const { return items_.data(); }
  const T* end() const { return items_.data() + size_; }

 private:
  void grow() { items_.resize(std::max<size_t>(64, 2 * items_.size())); }
  std::vector<T> items_;
  size_t size_ = 0;
};

}  // namespace syncproof::util
