#pragma once
// A sufficient, solver-free proof of obligations: paths in the "must happen before" graph of the
// lowered program. Every edge is a strict order (model/events.h), and a wait is after X when X is
// before every signal that can satisfy it, so a path a ~> b means t(a) < t(b) in every execution.
// An obligation whose monitor condition follows from such paths is proved without asking the
// solver; everything else goes to the SMT engine. Sound, not complete: it never refutes.
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::properties {

class MustOrder {
 public:
  explicit MustOrder(const model::LoweredProgram& p);

  // Proved: the assumptions whose guarded orders the paths used. nullopt: no proof found.
  std::optional<std::set<model::AssumptionId>> prove(const Obligation& o);

 private:
  struct Reach {
    std::vector<uint8_t> seen;          // by event
    std::vector<uint32_t> parent_edge;  // order index used to reach it (UINT32_MAX: wait)
  };
  const Reach& from(model::EventId src);
  bool reaches(model::EventId a, model::EventId b) { return from(a).seen[b]; }
  void guards_on_path(model::EventId a, model::EventId b, std::set<model::AssumptionId>* out);
  bool covers_all(uint32_t op, uint64_t lo, uint64_t hi) const;
  // A chain of covering operations through `steps`, each after the previous point, starting
  // after `start`; returns the last point (start itself when there are no steps).
  std::optional<model::EventId> chain(model::EventId start, const std::vector<Step>& steps,
                                      size_t j, uint64_t lo, uint64_t hi, model::EventId target,
                                      std::vector<model::EventId>* points);

  const model::LoweredProgram& p_;
  std::vector<std::vector<uint32_t>> out_;       // event -> order indices leaving it
  std::vector<std::vector<uint32_t>> waits_of_;  // candidate event -> wait rules it feeds
  std::vector<uint8_t> exempt_;                  // wait rule -> needs no candidate
  std::unordered_map<model::EventId, Reach> memo_;
};

// P-DEADLOCK-FREE without the solver: the least fixpoint of "can complete" (an event completes
// once everything ordered before it has, and a wait once one of its candidates has, or at once
// when it needs none). Every event completes iff no reachable state is stuck — from any
// down-closed set of completed events, the first event of the fixpoint order missing from it is
// enabled — so this decides exactly the question encode/deadlock.cpp asks the solver.
// Which waits need a candidate differs between the two questions when A-INITIAL-ZERO is off:
// for deadlock freedom (deadlock_rules) an unknown initial value cannot be relied on, so every
// wait needs one unless A-INITIAL-ZERO holds and 0 satisfies it (encode/deadlock.cpp); for
// vacuity (whether any execution exists) such a wait may complete at any time
// (encode/encoding.cpp wait_term).
//
// Exact only when every wait is monotone (WaitRule::monotone): a wait that a later write can hide
// is treated as completing after any of its candidates (safety) or must-candidates (deadlock),
// so then "false" still means what it says and "true" must be confirmed by an engine.
bool all_can_complete(const model::LoweredProgram& p, bool deadlock_rules);
// Whether every wait of the program is monotone (the fixpoint above is then exact).
// deadlock_rules: monotone for the deadlock rules (WaitRule::deadlock_monotone).
bool all_waits_monotone(const model::LoweredProgram& p, bool deadlock_rules = false);

}  // namespace syncproof::properties
