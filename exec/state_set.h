#pragma once
// The visited states of one search: fixed-width keys (a few 64-bit words) stored contiguously in
// an arena, indexed by an open-addressing table of 32-bit slots. Exact (no hash compaction): a
// state is never skipped because another state hashed alike.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace syncproof::exec {

class StateSet {
 public:
  explicit StateSet(size_t words_per_key);
  // Inserts the key (words_per_key words); true when it was not there yet.
  bool insert(const uint64_t* key);
  size_t size() const { return count_; }
  size_t bytes() const { return keys_.size() * 8 + slots_.size() * 4; }

 private:
  uint64_t hash(const uint64_t* key) const;
  bool equal(uint32_t index, const uint64_t* key) const;
  void grow();

  size_t w_;
  size_t count_ = 0;
  std::vector<uint64_t> keys_;   // count_ keys of w_ words
  std::vector<uint32_t> slots_;  // 0: empty; else key index + 1
};

}  // namespace syncproof::exec
