#pragma once
// A sufficient, solver-free proof of obligations: paths in the "must happen before" graph of the
// lowered program. Every edge is a strict order (model/events.h), and a wait is after X when X is
// before every signal that can satisfy it, so a path a ~> b means t(a) < t(b) in every execution.
// An obligation whose monitor condition follows from such paths is proved without asking the
// solver; everything else goes to the SMT engine. Sound, not complete: it never refutes.
//
// Each search is the same 0-1 breadth-first search of the whole program from its source as
// before (the paths it finds, and so the assumption lists, depend on its order over the whole
// program: a wait is reached only once every candidate is, and a fence's candidates are every
// later signal), so it still costs up to O(program) per source. It is asked only when a
// completion order of the program (an execution) leaves the question open, stops as soon as it
// has found what it was asked about (it goes on when asked more), runs on flat arrays, and the
// memo of searches is bounded. tests/tools/must_order_reference.h keeps the search as it was; the
// tests compare the two obligation by obligation.
#include <deque>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::properties {

class MustOrder {
 public:
  explicit MustOrder(const model::LoweredProgram& p);

  // Proved: the assumptions whose guarded orders the paths used. nullopt: no proof found.
  std::optional<std::set<model::AssumptionId>> prove(const Obligation& o);

  // How often a question was answered by the completion order alone, and how many searches ran.
  uint64_t by_position() const { return by_position_; }
  uint64_t searches() const { return searches_; }

 private:
  // One search from a source, as far as it has gone.
  struct Reach {
    Reach(model::EventId src, size_t events, size_t waits);
    std::vector<uint32_t> parent;  // by event: the order used to reach it (kViaWait: its wait)
    std::vector<uint32_t> count;   // by wait rule: candidates done
    std::deque<model::EventId> queue;
    model::EventId src;
    bool src_done = false;
  };
  static constexpr uint32_t kNever = UINT32_MAX;  // position of an event that never completes
  // No search from a can reach b: b completes, and no later than a (see the constructor).
  bool out_of_reach(model::EventId a, model::EventId b) {
    const bool out = pos_[b] != kNever && pos_[b] <= pos_[a];
    by_position_ += out;
    return out;
  }
  Reach& from(model::EventId src);
  // Searches on until `until` is found or nothing is left to search.
  void advance(Reach& r, model::EventId until);
  bool reaches(model::EventId a, model::EventId b);
  void guards_on_path(model::EventId a, model::EventId b, std::set<model::AssumptionId>* out);
  bool covers_all(uint32_t op, uint64_t lo, uint64_t hi) const;
  // A chain of covering operations through `steps`, each after the previous point, starting
  // after `start`; returns the last point (start itself when there are no steps).
  std::optional<model::EventId> chain(model::EventId start, const std::vector<Step>& steps,
                                      size_t j, uint64_t lo, uint64_t hi, model::EventId target,
                                      std::vector<model::EventId>* points);

  const model::LoweredProgram& p_;
  std::vector<uint32_t> pos_;                // event -> completion position (kNever: none)
  std::vector<uint32_t> out_start_, out_;    // event -> order indices leaving it (| kGuarded)
  std::vector<model::EventId> out_after_;    // by out_ entry: the order's later event
  std::vector<uint32_t> need_, wait_of_;     // by wait rule: its candidates, its wait
  std::vector<uint32_t> feed_start_, feed_;  // candidate -> non-exempt wait rules it feeds
  std::vector<uint32_t> rule_start_, rule_;  // event -> wait rules whose wait it is
  std::vector<uint32_t> visited_;            // by event: the walk (epoch_) that visited it last
  uint32_t epoch_ = 0;
  std::unordered_map<model::EventId, Reach> memo_;
  size_t memo_bytes_ = 0;
  uint64_t by_position_ = 0, searches_ = 0;
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
