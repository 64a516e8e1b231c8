#pragma once
// The lowered program as the executor runs it. An execution is an interleaving of ALL events in
// which every Order a<b has a before b, and every constrained wait rule has one of its candidates
// before its wait event. Both constraints are monotone: firing an event never disables another,
// so every enabled event stays enabled until it fires. The reductions of search.cpp rest on this.
//
// Which wait rules constrain (exactly encode/encoding.cpp wait_term and encode/deadlock.cpp):
//  - safety properties: a rule constrains unless zero_satisfies, or A-INITIAL-ZERO is disabled
//    (nothing is known of the initial value, so the wait may complete at any time);
//  - deadlock freedom: a rule constrains unless A-INITIAL-ZERO is enabled and zero_satisfies
//    (an unknown initial value cannot be relied on to let the wait through).
// All orders present in the lowering are active (guards whose assumption is off were dropped).
// `dropped` removes the constraints of some assumptions, to find which ones a proof needs.
#include <cstdint>
#include <vector>

#include "exec/bitset.h"
#include "model/events.h"

namespace syncproof::exec {

enum class WaitMode : uint8_t { Safety, Deadlock };

struct Graph {
  const model::LoweredProgram* program = nullptr;
  uint32_t n = 0;                          // events
  std::vector<uint32_t> preds;             // per event: active orders into it
  std::vector<uint32_t> succ_start, succ;  // CSR: per event, the events ordered after it
  std::vector<uint32_t> pred_start, pred;  // CSR: per event, the events ordered before it
  std::vector<uint32_t> rules;             // per event: constraining wait rules on it
  std::vector<uint32_t> feed_start, feed;  // CSR: per candidate event, the rules it satisfies
  std::vector<model::EventId> rule_wait;   // per constraining rule: its wait event
  std::vector<uint32_t> rule_source;       // per constraining rule: index into program->waits
};

// Bit i of `dropped`: the constraints of AssumptionId i are left out.
Graph build_graph(const model::LoweredProgram& p, WaitMode mode, uint32_t dropped = 0);

// The assumptions whose constraints the safety graph contains (bit per AssumptionId); with
// `within`, only constraints on events of that set (an order's later event, a wait).
uint32_t assumptions_present(const model::LoweredProgram& p, const Bitset* within = nullptr);

// The events that can matter to when any of `targets` may fire: the targets and their ancestors
// through orders and through the candidates of waits. Firing any other event never enables one
// of these, so a search about the targets' relative order may leave the others out.
Bitset ancestors(const Graph& g, const std::vector<model::EventId>& targets);

// Events that follow `e` in every execution through orders alone (e excluded), one flag each.
std::vector<char> descendants(const Graph& g, model::EventId e);

// One execution in progress: which events fired (in order) and which are enabled. fire/undo are
// O(degree); undo restores the state exactly (the search backtracks with it).
class Runner {
 public:
  explicit Runner(const Graph& g);
  void reset();
  bool fired(model::EventId e) const { return fired_.test(e); }
  bool enabled(model::EventId e) const { return enabled_.test(e); }
  const Bitset& fired_set() const { return fired_; }
  const Bitset& enabled_set() const { return enabled_; }
  const std::vector<model::EventId>& trail() const { return trail_; }
  bool complete() const { return trail_.size() == g_.n; }
  // Events that became enabled since the last call (the caller's worklist).
  std::vector<model::EventId>& newly_enabled() { return newly_; }

  void fire(model::EventId e);
  void undo_to(size_t trail_size);
  // Fires every enabled event except those in `blocked`, and (when `only` is given) only those
  // in `only`, until none is left. Either may be null.
  void saturate(const Bitset* blocked, const Bitset* only = nullptr);
  uint64_t transitions = 0;  // events fired, backtracking included

 private:
  const Graph& g_;
  Bitset fired_, enabled_;
  std::vector<uint32_t> missing_;  // per event: active orders whose `before` has not fired
  std::vector<uint32_t> unsat_;    // per event: constraining rules without a fired candidate
  std::vector<uint32_t> hits_;     // per rule: fired candidates
  std::vector<model::EventId> trail_, newly_;
};

}  // namespace syncproof::exec
