#pragma once
// One obligation decided by the executor (exec/check.cpp puts a property's together): its first
// search, in its proof cones (exec/cone.h) and then in the whole program, and the minimization
// of the assumptions a proof needs. Internal to the executor.
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "exec/check.h"
#include "exec/cone.h"
#include "exec/graph.h"
#include "exec/search.h"
#include "properties/must_order.h"

namespace syncproof::exec {

// The safety graphs of one program, by set of dropped assumptions (built on first use), and the
// wait rules they share. Besides the graph without dropped assumptions, at most `keep` are kept
// (the oldest goes first): with proof cones the whole program's graphs serve only the few
// questions a cone cannot answer, and a frame's are tens of MB each. One is kept then (December
// 2026, 50,000-command frame: four kept cost 40 MB of peak and saved no time; nor on the
// 10,000-command one-bug frames, whose cone misses ask the whole program most).
class Graphs {
 public:
  Graphs(const model::LoweredProgram& p, size_t keep)
      : p_(p), rules_(p, WaitMode::Safety), keep_(keep) {}
  // Valid until the next call.
  const Graph& get(uint32_t dropped) {
    auto& g = cache_[dropped];
    if (!g) {
      g = std::make_unique<Graph>(build_graph(p_, WaitMode::Safety, dropped, &rules_));
      if (dropped != 0) order_.push_back(dropped);
      if (order_.size() > keep_) {
        cache_.erase(order_.front());
        order_.pop_front();
      }
    }
    return *g;
  }
  WaitRules& rules() { return rules_; }
  // The orders without every assumption present in the program (kept once made).
  const OrderGraph& unguarded() {
    if (!unguarded_) unguarded_ = order_graph(p_, assumptions_present(p_));
    return *unguarded_;
  }
  // The line mates and fills of a Fresh obligation that change nothing
  // (properties::MustOrder::quiet; Quiet::without: with some assumptions left out).
  properties::MustOrder::Quiet quiet(const properties::Obligation& o) {
    if (o.kind != properties::Obligation::Kind::Fresh ||
        (o.fresh.mates.empty() && o.fresh.fills.empty()))
      return {};
    // A memo of 32 MB, not the default 4 (properties/must_order.h): the minimization asks the
    // same mates again under each dropped set. The 10,000-command no-label-wait frame, whose
    // cone misses send many obligations to the whole program: 1.0 s with 32 or 64 MB, 2.6 s with
    // 16 (December 2026); the 50,000-command frame's peak is 309 MB with 32, 337 with 64.
    if (!must_) must_.emplace(p_, true, true, size_t{32} << 20);
    return must_->quiet(o);
  }

 private:
  const model::LoweredProgram& p_;
  WaitRules rules_;
  size_t keep_;
  std::map<uint32_t, std::unique_ptr<Graph>> cache_;
  std::deque<uint32_t> order_;  // the kept graphs but the first, oldest first
  std::optional<OrderGraph> unguarded_;
  std::optional<properties::MustOrder> must_;
};

// What an obligation's minimization needs of its first search: the assumptions present in the
// proof (its cone's graph, or the whole program's), and, for a proof in a cone, the keys that
// search's cone grew to (ConeQuestions::keys), so that the re-runs ask the same cones as when
// they follow the first search at once. `minimized`: they did (first_search's `needed`).
struct FirstProof {
  bool in_cone = false, minimized = false;
  uint32_t present = 0;
  std::vector<char> keys;
};

// One search's budget: opt's states, and its timeout from now.
Budget budget_of(const ExecOptions& opt);

// The obligation's first search, no assumption left out: in its cones first (a proof there
// stands; a violation or an unknown is asked of the whole program), then the whole program.
// `proof`: set when the obligation holds and is no race. `needed` (non-null): a proof from a
// cone is minimized at once, with its first search's cones (see minimize()). `deadline`: an
// earlier end than its own timeout gives it.
ObligationResult first_search(
    const model::LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
    const properties::Obligation& o, const ExecOptions& opt, SearchStats& st, FirstProof* proof,
    uint32_t* needed = nullptr,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

// The assumptions a proof needs of those its first search found present. Greedy: leave out one
// assumption's constraints at a time; a proof that survives without them does not need it.
// Running out of budget keeps the assumption (never under-reports). A proof from cones minimizes
// in the cones first (`questions`: those of its first search, else made again from its keys);
// one the cone cannot do without is asked of the whole program unless an earlier obligation of
// the property already needs it (`needed`, bit per AssumptionId: the property lists it either
// way). So the property's list is the union of lists that each suffice for their obligation, as
// without cones; each of its assumptions is one that some obligation's whole program needs
// (given the others it keeps).
//
// In a monotone program, a cone proof's greedy first asks the cone whether the proof survives
// without every assumption still to be tried at once (those the greedy would leave out if each
// of its searches held), at the start and after each step whose cone did not hold. Most do
// (measured on a 20,000-command frame: 75,000 of 88,500 one-at-a-time searches held, and 11,000
// obligations held five of five; those outcomes, replayed so, take 41,800 searches), so that one
// search stands for the rest of the greedy: the proof holds in the whole program without
// them all (a cone is a relaxation of it), so with fewer left out each later whole-program
// question holds too. When the cones, like the whole program, prove more with fewer assumptions
// left out, each later cone question holds and the list is the greedy's own; where a cone does
// not (it keeps fewer rules once its maker leans on fewer orders), the list can differ from the
// greedy's, and it still suffices: the last search that held left out everything it leaves out. Not
// in a program with value rules: there a search without more assumptions may explore far more
// orders of the writers, and run out of its budget.
uint32_t minimize(const model::LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
                  const properties::Obligation& o, const FirstProof& proof, const ExecOptions& opt,
                  const Budget& b, SearchStats& st, uint32_t& needed,
                  ConeQuestions* questions = nullptr, bool group_failed = false);

// One obligation, its list minimized when opt asks for it.
ObligationResult decide(const model::LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
                        const properties::Obligation& o, const ExecOptions& opt, SearchStats& st,
                        uint32_t& needed);

}  // namespace syncproof::exec
