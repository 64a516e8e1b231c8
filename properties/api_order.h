#pragma once
// API order between commands: queue order, plus the order a wait takes from the signals or
// value writes that can satisfy it (a wait is after X when every possible satisfier is X or
// after X). Computed as a least fixpoint, so a cycle of waits orders nothing.
#include <cstdint>
#include <vector>

#include "model/events.h"

namespace syncproof::properties {

class ApiOrder {
 public:
  explicit ApiOrder(const model::LoweredProgram& p);
  // Is command (qa, a) API-ordered before command (qb, b)?
  bool before(uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) const;

 private:
  uint32_t index(uint32_t q, uint32_t c) const { return base_[q] + c; }
  bool test(uint32_t node, uint32_t pred) const {
    return (pred_[node][pred / 64] >> (pred % 64)) & 1u;
  }
  std::vector<uint32_t> base_;
  std::vector<std::vector<uint64_t>> pred_;  // pred_[n]: bitset of commands before n
};

}  // namespace syncproof::properties
