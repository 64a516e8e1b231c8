#pragma once
// The lowered program as the executor runs it. An execution is an interleaving of ALL events in
// which every Order a<b has a before b, and every wait passes a poll of its word when it fires.
//
// Two kinds of wait rules (model/wait_value.h):
//  - monotone rules: once any candidate fired the wait can fire and stays able to. Which rules
//    constrain is exactly encode/encoding.cpp wait_term and encode/deadlock.cpp: for safety, a
//    rule constrains unless the initial poll may pass (the initial value satisfies it, or
//    A-INITIAL-ZERO is off) and its candidates are the writes after which a poll may pass; for
//    deadlock freedom, unless the initial poll must pass, with the writes after which a poll must
//    pass. Firing never disables anything through them.
//  - value rules, for waits a later write can hide: the wait can fire while the value its word
//    holds (the latest write of each part that fired) may pass. Firing a writer may disable the
//    wait: these writers and waits are the program's non-monotone events (`nm`).
// Every other event's firing disables nothing, so the reductions of search.cpp fire those at once
// and branch only on the non-monotone ones.
//
// All orders present in the lowering are active (guards whose assumption is off were dropped).
// `dropped` removes the constraints of some assumptions, to find which ones a proof needs.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "exec/bitset.h"
#include "model/events.h"
#include "model/wait_value.h"
#include "util/csr.h"

namespace syncproof::exec {

enum class WaitMode : uint8_t { Safety, Deadlock };

// A value rule: waits[source] decided by its polled word.
struct ValueRule {
  model::EventId wait;
  uint32_t source;
};

struct Graph {
  const model::LoweredProgram* program = nullptr;
  uint32_t n = 0;  // events
  WaitMode mode = WaitMode::Safety;
  model::ValueConfig values;               // the value assumptions this graph keeps
  std::vector<uint32_t> preds;             // per event: active orders into it
  std::vector<uint32_t> succ_start, succ;  // CSR: per event, the events ordered after it
  std::vector<uint32_t> pred_start, pred;  // CSR: per event, the events ordered before it
  // Monotone rules.
  std::vector<uint32_t> rules;             // per event: constraining monotone rules on it
  std::vector<uint32_t> feed_start, feed;  // CSR: per candidate event, the rules it satisfies
  std::vector<model::EventId> rule_wait;   // per constraining rule: its wait event
  std::vector<uint32_t> rule_source;       // per constraining rule: index into program->waits
  std::vector<uint32_t> cand_start, cand;  // CSR: per constraining rule, its candidate events
  // Value rules.
  std::vector<ValueRule> vrules;
  std::vector<uint32_t> vrule_of;  // per event: the value rule it is the wait of,
                                   // or UINT32_MAX
  std::vector<uint32_t> vfeed_start, vfeed_rule, vfeed_writer;  // CSR: per event, the value
                                                                // rules it writes (and as which
                                                                // writer of the rule's word)
  std::vector<uint32_t> vw_start, vw;  // CSR: per value rule, its writers' events
  Bitset nm;                           // the waits and writers of value rules
  bool monotone() const { return vrules.empty(); }
};

// What each wait of a program becomes in its graphs (build_graph's rule, one wait at a time):
// a value rule when its word is not monotone under the graph's value assumptions, nor along the
// chain of its writers through the graph's orders (or, for deadlock freedom, when the candidate
// rules do not decide it); else free when its first poll may (safety) or must (deadlock) pass;
// else a monotone rule on the writers after which a poll may (must) pass (build_graph keeps only
// the first of them when the graph's orders land the writers in event order). What that takes is
// kept for every graph of the program asked of it: each wait's analysis under each value
// configuration, and whether orders chain each writer list under each set of dropped assumptions
// (the waits on one fence share its writers, and a frame's graphs differ in a few assumptions).
class WaitRules {
 public:
  WaitRules(const model::LoweredProgram& p, WaitMode mode);
  enum class Kind : uint8_t { Free, Monotone, Value };
  struct Rule {
    Kind kind = Kind::Free;
    const std::vector<uint32_t>* cands = nullptr;  // Monotone: writer indices
  };
  Rule rule(uint32_t wait, uint32_t dropped);
  // Waits that get a value rule under `dropped`.
  uint32_t value_rules(uint32_t dropped);
  // Whether the orders kept under `dropped` land the wait's writers in event order in every
  // execution: then "after one of its candidates" is "after the first of them".
  bool chained(uint32_t wait, uint32_t dropped);
  model::ValueConfig values(uint32_t dropped) const;

 private:
  static uint32_t value_bits(model::ValueConfig v) {
    return (v.initial_zero ? 1u : 0u) | (v.timestamp_nonzero ? 2u : 0u);
  }
  // A wait's analysis under one value configuration, without its lists of writers but the one
  // this mode uses (may for safety, must for deadlock freedom: `cands`), and whether it is
  // model::determinate. `cands` is shared with the wait's other value configurations where it is
  // the same list: a frame's fence waits each list most signals of their fence (23 MB at 50,000
  // commands), and the value assumptions seldom change which.
  struct Analysis {
    model::WaitValues values;
    bool determinate = false;
    std::shared_ptr<const std::vector<uint32_t>> cands;
  };
  const Analysis& analysis(uint32_t wait, model::ValueConfig v);
  const std::vector<uint32_t>& by_event(uint32_t wait);
  bool chain_monotone(uint32_t wait, model::ValueConfig v);
  bool reach(model::EventId a, model::EventId b, uint32_t dropped);

  const model::LoweredProgram& p_;
  WaitMode mode_;
  util::Csr<uint32_t> out_;  // by event: the orders it starts
  // By event: its place in a topological order of the orders (UINT32_MAX: on or after a cycle),
  // made when reach() is first asked. A path to b goes up in it, so reach() looks no further
  // than b's place: a frame's fence signals are far apart, and a walk that looked past them was
  // 4% of the executor at 50,000 commands.
  std::vector<uint32_t> topo_;
  std::map<uint64_t, Analysis> analyses_;    // by wait * 4 + value bits
  std::map<uint64_t, bool> chain_monotone_;  // by wait * 4 + value bits
  // By writer list (the program holds them): its writers in event order (model::writers_by_event);
  // by (writer list, dropped): whether orders chain them in that order.
  std::map<const void*, std::vector<uint32_t>> by_event_;
  std::map<std::pair<const void*, uint32_t>, bool> chained_;
  std::map<uint32_t, uint32_t> value_rules_;  // by dropped
  std::vector<char> seen_;                    // reach()'s scratch, all 0 between calls
  // By dropped, by wait: rule()'s answers once given (the proof cones ask the same waits' rules
  // under the same few sets for every obligation: three map lookups each were 7% of the
  // executor at 50,000 commands).
  struct Known {
    Rule rule;
    bool known = false;
  };
  std::map<uint32_t, std::vector<Known>> rules_;
  Rule decide(uint32_t wait, uint32_t dropped);  // rule() without the memo
};

// Bit i of `dropped`: the constraints of AssumptionId i are left out. `rules` (may be null): the
// program's wait rules for this mode, kept from graph to graph.
Graph build_graph(const model::LoweredProgram& p, WaitMode mode, uint32_t dropped = 0,
                  WaitRules* rules = nullptr);

// A part of a program's safety graph as a graph of its own (exec/cone.h builds it from a proof
// cone): `events` in increasing id order become events 0, 1, ...; `orders` are (local before,
// local after) pairs; each kept wait rule is given with the whole graph's rule it restricts.
struct SubGraph {
  std::vector<model::EventId> events;                 // by local event: the program's event
  std::vector<std::pair<uint32_t, uint32_t>> orders;  // local
  struct Rule {
    uint32_t wait;            // index into program->waits
    bool value = false;       // a value rule (every writer is inside), else monotone
    uint32_t begin = 0, end;  // its list in `cands`
  };
  std::vector<Rule> rules;
  // By rule: monotone, its local candidates; value, its local writer events.
  std::vector<uint32_t> cands;
};
// Into `g`, whose lists' capacity it reuses: a proof cone's graph is made for every question
// (malloc and the kernel's page clearing were 15% of the executor at 50,000 commands).
void build_subgraph(const model::LoweredProgram& p, const model::ValueConfig& values,
                    const SubGraph& s, Graph& g);

// The assumptions whose constraints the safety graph contains (bit per AssumptionId); with
// `within`, only constraints on events of that set (an order's later event, a wait).
uint32_t assumptions_present(const model::LoweredProgram& p, const Bitset* within = nullptr);
// What a wait's rule rests on of the value assumptions (A-INITIAL-ZERO, A-TIMESTAMP-NONZERO), as
// assumptions_present counts it for each wait.
uint32_t value_assumptions(const model::LoweredProgram& p, const model::WaitRule& w);

// The events that can matter to when any of `targets` may fire: the targets and their ancestors
// through orders, through the candidates of monotone rules and through every writer of a value
// rule. Firing any other event never enables or disables one of these, so a search about the
// targets' relative order may leave the others out.
Bitset ancestors(const Graph& g, const std::vector<model::EventId>& targets);

// Events that follow `e` in every execution through orders alone (e excluded), one flag each.
std::vector<char> descendants(const Graph& g, model::EventId e);

// The program's orders without those of the dropped assumptions, as successor lists: what
// descendants() reads of a graph, without its wait rules (a frame's graph without every
// assumption has a value rule per wait, each with every writer of its word: quadratic).
struct OrderGraph {
  std::vector<uint32_t> succ_start, succ;
};
OrderGraph order_graph(const model::LoweredProgram& p, uint32_t dropped);
std::vector<char> descendants(const OrderGraph& g, model::EventId e);

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
  // Events that became enabled since the last call (the caller's worklist). One may have been
  // disabled again since (a value rule): test enabled() before firing it.
  std::vector<model::EventId>& newly_enabled() { return newly_; }

  void fire(model::EventId e);
  void undo_to(size_t trail_size);
  // Fires every enabled event except those in `blocked`, and (when `only` is given) only those
  // in `only`, until none is left. Either may be null. Non-monotone events are fired too unless
  // `skip_nm`.
  void saturate(const Bitset* blocked, const Bitset* only = nullptr, bool skip_nm = false);

  // The state of the value rules (part states, for hashing a search state), and whether a
  // stuck state could last: every enabled event is a value-rule wait whose poll may fail.
  void value_key(std::vector<uint64_t>& out) const;
  bool may_stay_stuck() const;
  uint64_t transitions = 0;  // events fired, backtracking included

 private:
  void set_pass(uint32_t rule, bool pass);
  bool poll_passes(uint32_t rule) const;
  bool poll_may_fail(uint32_t rule) const;
  void update_enabled(model::EventId e);

  const Graph& g_;
  Bitset fired_, enabled_;
  std::vector<uint32_t> missing_;  // per event: active orders whose `before` has not fired
  std::vector<uint32_t> unsat_;    // per event: constraining rules without a fired candidate
  std::vector<uint32_t> hits_;     // per rule: fired candidates
  std::vector<uint32_t> vblock_;   // per event: value rules whose poll cannot pass now
  std::vector<std::array<int, 2>> vstate_;  // per value rule: each part's state
  std::vector<uint8_t> vpass_;              // per value rule: its poll may pass now
  struct VUndo {
    uint32_t rule;
    std::array<int, 2> state;
  };
  std::vector<VUndo> vtrail_;
  std::vector<size_t> vmark_;  // per trail position: vtrail_ size before that event fired
  std::vector<model::EventId> trail_, newly_;
};

}  // namespace syncproof::exec
