#pragma once
// A fixed-size bitset over events (or over an obligation's relevant events), one bit per item,
// packed in 64-bit words so a state's key is a few words to hash and compare.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncproof::exec {

class Bitset {
 public:
  Bitset() = default;
  explicit Bitset(size_t n) : n_(n), w_((n + 63) / 64, 0) {}
  size_t size() const { return n_; }
  bool test(size_t i) const { return (w_[i >> 6] >> (i & 63)) & 1u; }
  void set(size_t i) { w_[i >> 6] |= uint64_t{1} << (i & 63); }
  void reset(size_t i) { w_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
  void clear() { std::fill(w_.begin(), w_.end(), 0); }
  size_t count() const {
    size_t c = 0;
    for (uint64_t x : w_) c += static_cast<size_t>(std::popcount(x));
    return c;
  }
  bool all() const { return count() == n_; }
  const std::vector<uint64_t>& words() const { return w_; }
  // Calls f(i) for every set bit, in increasing order.
  template <class F>
  void for_each(F&& f) const {
    for (size_t k = 0; k < w_.size(); ++k)
      for (uint64_t x = w_[k]; x; x &= x - 1) f(k * 64 + static_cast<size_t>(std::countr_zero(x)));
  }

 private:
  size_t n_ = 0;
  std::vector<uint64_t> w_;
};

}  // namespace syncproof::exec
