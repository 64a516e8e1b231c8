#pragma once
// The orders of a proof cone with the events nothing else mentions taken out, so that Z3 is
// given a few hundred bounds instead of thousands of orders (a cone question's time is almost all
// Z3 taking in its constraints: measured on a 1,000-command frame, one conflict per question).
//
// Taking an event x out is exact. For any truth of the assumptions, the orders active on x are
// lower bounds t(a) + w <= t(x) and upper bounds t(x) + v <= t(b), and an integer t(x) meets them
// all exactly when t(a) + w + v <= t(b) for each such pair. So every pair of an order into x and
// one out of it becomes one bound, active under both guards; a pair that meets at one event (a
// cycle) becomes "no execution under these guards". What is left has a solution exactly when the
// orders had one, under every set of assumptions, so a question over it is unsatisfiable under
// exactly the same assumption sets: its verdict and the cores it can give are the cone's.
//
// An event is taken out only when it has no more pairs than orders (plus two), so the count of
// bounds never grows by more than two an event.
#include <cstdint>
#include <vector>

#include "model/events.h"

namespace syncproof::encode {

// t(from) + weight <= t(to), active when every guard bit holds (bit a: assumption a holds; bit
// 32 + a: it does not), as properties::guard_bit counts them.
struct Bound {
  model::EventId from, to;
  int64_t weight;
  uint64_t guards;
};

struct Contracted {
  std::vector<Bound> bounds;    // between kept events only
  std::vector<uint64_t> never;  // guards under which the orders have a cycle: no execution
};

// The orders between two of `events` (the cone's; `in` flags them by event), with every event
// `keep` does not flag taken out where that does not add bounds (above). Guards that contradict
// themselves (an assumption both holding and not) are dropped with their bound.
Contracted contract(const model::LoweredProgram& p, const std::vector<model::EventId>& events,
                    const std::vector<uint8_t>& in, const std::vector<uint8_t>& keep);

}  // namespace syncproof::encode
