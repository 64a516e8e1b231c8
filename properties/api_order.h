#pragma once
// API order between commands: queue order, plus the order a wait takes from the signals or
// value writes that can satisfy it (a wait is after X when every possible satisfier is X or
// after X). Computed as a least fixpoint, so a cycle of waits orders nothing.
//
// Every command's set of API predecessors is, on each queue, a prefix of that queue (queue order
// is part of API order, and unions and intersections of prefixes are prefixes), so it is stored
// as a vector clock: per command and queue, how many of that queue's commands come before it.
// Intersecting the predecessor sets of a wait's candidates needs only the earliest candidate on
// each queue (a later one on the same queue has every predecessor of the earlier one and the
// earlier one itself). Memory is commands x queues; the fixpoint is one pass in dependency order
// (a worklist finishes any cycle of waits).
#include <cstdint>
#include <vector>

#include "model/events.h"

namespace syncproof::properties {

class ApiOrder {
 public:
  // value_assumptions false: without the waits whose order rests on a value assumption (an
  // unknown initial word taken to be 0, A-INITIAL-ZERO; candidates A-TIMESTAMP-NONZERO narrows),
  // so that a caller can tell whether what it derived from the order needed them.
  explicit ApiOrder(const model::LoweredProgram& p, bool value_assumptions = true);
  // The value assumptions (bit per AssumptionId) of the waits the order took an order from.
  uint32_t relies() const { return relies_; }
  // Is command (qa, a) API-ordered before command (qb, b)? Never for a command and itself.
  bool before(uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) const {
    return (qa != qb || a != b) && clock(qb, b)[qa] > a;
  }
  // How many commands of queue q are API-ordered before command (qb, b): they are the first ones.
  uint32_t before_count(uint32_t q, uint32_t qb, uint32_t b) const { return clock(qb, b)[q]; }
  uint32_t queues() const { return nq_; }
  uint32_t commands(uint32_t q) const { return len_[q]; }
  // The first command of queue q that command (qa, a) may be API-ordered before: every later one
  // of q has at least as many predecessors, so those it is before are the ones from here on.
  uint32_t first_after(uint32_t qa, uint32_t a, uint32_t q) const;

 private:
  const uint32_t* clock(uint32_t q, uint32_t c) const { return &vc_[(base_[q] + c) * nq_]; }
  uint32_t nq_ = 0;
  uint32_t relies_ = 0;
  std::vector<uint32_t> base_, len_;
  std::vector<uint32_t> vc_;  // [command][queue]
};

}  // namespace syncproof::properties
