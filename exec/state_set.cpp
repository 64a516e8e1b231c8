#include "exec/state_set.h"

#include <algorithm>

namespace syncproof::exec {

StateSet::StateSet(size_t words_per_key) : w_(std::max<size_t>(1, words_per_key)), slots_(1024) {}

uint64_t StateSet::hash(const uint64_t* key) const {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ w_;
  for (size_t i = 0; i < w_; ++i) {
    uint64_t x = key[i] + 0x9E3779B97F4A7C15ull * (i + 1);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    h = (h ^ x ^ (x >> 31)) * 0xFF51AFD7ED558CCDull;
  }
  return h ^ (h >> 33);
}

bool StateSet::equal(uint32_t index, const uint64_t* key) const {
  return std::equal(key, key + w_, keys_.begin() + static_cast<std::ptrdiff_t>(index * w_));
}

bool StateSet::insert(const uint64_t* key) {
  if ((count_ + 1) * 2 > slots_.size()) grow();
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0) {
      keys_.insert(keys_.end(), key, key + w_);
      slots_[i] = static_cast<uint32_t>(++count_);
      return true;
    }
    if (equal(slots_[i] - 1, key)) return false;
  }
}

void StateSet::grow() {
  std::vector<uint32_t> old(slots_.size() * 2, 0);
  old.swap(slots_);
  const size_t mask = slots_.size() - 1;
  for (uint32_t s : old) {
    if (s == 0) continue;
    size_t i = hash(&keys_[(s - 1) * w_]) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

}  // namespace syncproof::exec
