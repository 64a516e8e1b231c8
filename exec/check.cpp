#include "exec/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <deque>
#include <map>
#include <memory>

#include "exec/cone.h"
#include "properties/deadlock_rules.h"
#include "properties/monitor.h"
#include "properties/trace.h"

namespace syncproof::exec {

using namespace model;
using properties::Obligation;

using properties::ms_since;

namespace {

properties::Times times_of(size_t n, const std::vector<EventId>& order) {
  properties::Times t(n, 0);
  for (size_t i = 0; i < order.size(); ++i) t[order[i]] = static_cast<long long>(i + 1);
  return t;
}

// The safety graphs of one program, by set of dropped assumptions (built on first use), and the
// wait rules they share. Besides the graph without dropped assumptions, at most `keep` are kept
// (the oldest goes first): with proof cones the whole program's graphs serve only the few
// questions a cone cannot answer, and a frame's are tens of MB each. One is kept then (December
// 2026, 50,000-command frame: four kept cost 40 MB of peak and saved no time; nor on the
// 10,000-command one-bug frames, whose cone misses ask the whole program most).
class Graphs {
 public:
  Graphs(const LoweredProgram& p, size_t keep) : p_(p), rules_(p, WaitMode::Safety), keep_(keep) {}
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
  properties::MustOrder::Quiet quiet(const Obligation& o) {
    if (o.kind != Obligation::Kind::Fresh || (o.fresh.mates.empty() && o.fresh.fills.empty()))
      return {};
    // A memo of 32 MB, not the default 4 (properties/must_order.h): the minimization asks the
    // same mates again under each dropped set. The 10,000-command no-label-wait frame, whose
    // cone misses send many obligations to the whole program: 1.0 s with 32 or 64 MB, 2.6 s with
    // 16 (December 2026); the 50,000-command frame's peak is 309 MB with 32, 337 with 64.
    if (!must_) must_.emplace(p_, true, true, size_t{32} << 20);
    return must_->quiet(o);
  }

 private:
  const LoweredProgram& p_;
  WaitRules rules_;
  size_t keep_;
  std::map<uint32_t, std::unique_ptr<Graph>> cache_;
  std::deque<uint32_t> order_;  // the kept graphs but the first, oldest first
  std::optional<OrderGraph> unguarded_;
  std::optional<properties::MustOrder> must_;
};

// `cone`: ancestors of the obligation's watched events (graph.h), outside which the reduced
// searches fire nothing. `map`: the events of `g` when it is a part of the program (exec/cone.h).
// `quiet`: line mates and fills left out (properties::MustOrder::quiet under `dropped`).
// `units`: line_units(p, o), which no dropped set changes (made once per obligation or cone).
ObligationResult search_one(const LoweredProgram& p, const Graph& g, uint32_t dropped,
                            const Obligation& o, const ExecOptions& opt, const Budget& b,
                            const Bitset& cone, SearchStats& st, const EventMap& map,
                            const properties::MustOrder::Quiet& quiet,
                            const std::vector<uint64_t>& units) {
  ObligationResult res;
  auto take = [&](SearchResult&& r, uint64_t line) {
    res.status = r.status;
    res.order = std::move(r.order);
    res.reason = std::move(r.reason);
    res.line = line;
  };
  // On a path the write takes only without an assumption still assumed: nothing to search.
  if (o.vacuous(p, dropped)) return res;
  switch (o.kind) {
    case Obligation::Kind::Race:
      res.status = Status::Violated;
      res.order = any_execution(g);
      st.transitions += res.order.size();
      return res;
    case Obligation::Kind::Ordered: {
      properties::Ordering local;
      for (EventId e : o.ordering.before) local.before.push_back(map(e));
      for (EventId e : o.ordering.after) local.after.push_back(map(e));
      take(search_ordered(g, local, opt.reduce, b, st, &cone), 0);
      return res;
    }
    default:
      for (uint64_t unit : units) {
        take(search_chain(g, chain_watch(p, o, unit, dropped, map, &quiet), opt.reduce, b, st,
                          &cone),
             unit);
        if (res.status != Status::Safe) return res;
      }
      return res;
  }
}

// Assumptions the obligation's chains themselves rest on (not orders of the graph): the one
// under which it is vacuous (Obligation::only_without); a step that joins its down step, and a
// write-back+invalidate on a GL2 step that line mates could hold shut (A-GL2-WB-BEFORE-INV).
uint32_t chain_assumptions(const LoweredProgram& p, const Obligation& o) {
  if (o.vacuous(p)) return assumption_bit(*o.only_without);
  if (o.kind != Obligation::Kind::Fresh) return 0;
  const uint32_t wbi = 1u << static_cast<int>(AssumptionId::Gl2WbBeforeInv);
  uint32_t bits = 0;
  for (const properties::Step& s : o.fresh.steps)
    if (properties::joins_active(p, s)) bits |= wbi;
  if (!o.fresh.mates.empty() && properties::wb_inv_drops_dirty(p)) bits |= wbi;
  if (properties::fill_rule(p, o.fresh)) bits |= assumption_bit(AssumptionId::RbFillOnAccess);
  return bits;
}

// The whole program's search for one obligation, under any dropped set. The search fires nothing
// outside the ancestors of the watched events; operations that must follow the deciding read are
// not watched (the verdict is in before they can happen). "Must follow" is taken without any
// assumption's orders, so the cone also covers the re-runs of the minimization, which leave some
// out. Non-monotone events are always watched: a search that leaves one unfired could miss the
// only order in which a wait completes (graph.h).
class Whole {
 public:
  Whole(const LoweredProgram& p, Graphs& graphs, const Obligation& o)
      : p_(p), graphs_(graphs), o_(o) {}
  ObligationResult search(uint32_t dropped, const ExecOptions& opt, const Budget& b,
                          SearchStats& st) {
    if (!cone_) {
      quiet_ = graphs_.quiet(o_);
      // Every mate and fill is watched: with assumptions left out, fewer of them are quiet.
      std::vector<char> after_read;
      if (EventId d = decided_by(p_, o_); d != kNoEvent)
        after_read = descendants(graphs_.unguarded(), d);
      std::vector<EventId> watched =
          watched_events(p_, o_, after_read.empty() ? nullptr : &after_read);
      const Graph& g = graphs_.get(0);
      g.nm.for_each([&](size_t e) { watched.push_back(static_cast<EventId>(e)); });
      cone_ = ancestors(g, watched);
      units_ = line_units(p_, o_);
    }
    const properties::MustOrder::Quiet q = dropped ? quiet_.without(dropped) : quiet_;
    return search_one(p_, graphs_.get(dropped), dropped, o_, opt, b, *cone_, st, {}, q, units_);
  }
  // Only constraints inside the cone can matter to the proof (dropping constraints only shrinks
  // the cone, so it stays a superset of every re-run's), and the paths that left mates out.
  uint32_t present() const {
    return assumptions_present(p_, &*cone_) | chain_assumptions(p_, o_) | quiet_.guards;
  }

 private:
  const LoweredProgram& p_;
  Graphs& graphs_;
  const Obligation& o_;
  std::optional<Bitset> cone_;
  properties::MustOrder::Quiet quiet_;  // without any assumption left out
  std::vector<uint64_t> units_;         // line_units
};

// The assumptions a cone proof rests on: its graph's (ConeGraph::present), the chains' own, and
// the guards of the paths that left line mates out.
uint32_t cone_proof_present(const LoweredProgram& p, uint32_t graph_present, const Obligation& o,
                            const properties::MustOrder::Quiet& quiet) {
  return graph_present | chain_assumptions(p, o) | quiet.guards;
}

// The obligation restricted to a proof cone (q.inside) searched in the cone's graph under
// `dropped` (exec/cone.h), with the line mates and fills of `quiet` left out.
ObligationResult search_cone(const LoweredProgram& p, Graphs& graphs, ConeGraphs& cones,
                             const ConeQuestions::Question& q, uint32_t dropped,
                             const properties::MustOrder::Quiet& quiet, const ExecOptions& opt,
                             const Budget& b, SearchStats& st, uint32_t* present) {
  const Obligation& o = q.inside;
  const ConeGraph& cg = cones.make(q.c, graphs.rules(), dropped);
  const EventMap map{&cones.local(), cg.g.n};
  std::vector<char> after_read;
  if (EventId d = decided_by(p, o); d != kNoEvent) after_read = descendants(cg.g, map(d));
  std::vector<EventId> watched =
      watched_events(p, o, after_read.empty() ? nullptr : &after_read, map, &quiet);
  cg.g.nm.for_each([&](size_t e) { watched.push_back(static_cast<EventId>(e)); });
  const Bitset anc = ancestors(cg.g, watched);
  if (present) *present = cone_proof_present(p, cg.present, o, quiet);
  return search_one(p, cg.g, dropped, o, opt, b, anc, st, map, quiet, q.units);
}

// What an obligation's minimization needs of its first search: the assumptions present in the
// proof (its cone's graph, or the whole program's), and, for a proof in a cone, the keys that
// search's cone grew to (ConeQuestions::keys), so that the re-runs ask the same cones as when
// they follow the first search at once. `minimized`: they did (first_search's `needed`).
struct FirstProof {
  bool in_cone = false, minimized = false;
  uint32_t present = 0;
  std::vector<char> keys;
};

uint32_t minimize(const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones, const Obligation& o,
                  const FirstProof& proof, const ExecOptions& opt, const Budget& b, SearchStats& st,
                  uint32_t& needed, ConeQuestions* questions = nullptr, bool group_failed = false);

// Without it some wait would no longer be monotone (its writers' chain breaks): deciding that
// takes the search over orders of writers and waits, exponential in their number. The
// minimization keeps the assumption instead (never under-reports; the SMT engine's core may
// name fewer).
bool kept_for_values(Graphs& graphs, uint32_t dropped) {
  return graphs.rules().value_rules(dropped) > graphs.rules().value_rules(0);
}

// What the greedy minimization leaves out of `present` from assumption `a` on, after `dropped`,
// if each of its searches holds (minimize()).
uint32_t group_from(Graphs& graphs, uint32_t present, uint32_t dropped, int a) {
  uint32_t all = dropped | 1u << a;
  for (int later = a + 1; later < kAssumptionCount; ++later)
    if (const uint32_t x = 1u << later; (present & x) && !kept_for_values(graphs, all | x))
      all |= x;
  return all;
}

// The first assumption of `present` the greedy minimization tries, or -1.
int first_tried(Graphs& graphs, uint32_t present) {
  for (int a = 0; a < kAssumptionCount; ++a)
    if ((present & 1u << a) && !kept_for_values(graphs, 1u << a)) return a;
  return -1;
}

// One search's budget: opt's states, and its timeout from now.
Budget budget_of(const ExecOptions& opt) {
  return {opt.max_states,
          std::chrono::steady_clock::now() + std::chrono::milliseconds(opt.timeout_ms)};
}

// The obligation's first search, no assumption left out: in its cones first (a proof there
// stands; a violation or an unknown is asked of the whole program), then the whole program.
// `proof`: set when the obligation holds and is no race. `needed` (non-null): a proof from a
// cone is minimized at once, with its first search's cones (see minimize()). `deadline`: an
// earlier end than its own timeout gives it.
ObligationResult first_search(
    const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones, const Obligation& o,
    const ExecOptions& opt, SearchStats& st, FirstProof* proof, uint32_t* needed = nullptr,
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max()) {
  Budget b = budget_of(opt);
  b.deadline = std::min(b.deadline, deadline);
  if (cones && o.kind != Obligation::Kind::Race) {  // no cone proves a race
    ConeQuestions questions(*cones, o,
                            [&](const Obligation& inside) { return graphs.quiet(inside); });
    properties::MustOrder::Quiet quiet;
    const ConeQuestions::Question& q = questions.get(0, &quiet);
    // Minimized at once: the minimization's first question, without every assumption it would
    // try, is asked first (the cone's graph is a relaxation of the whole program's, and in a
    // monotone program leaving constraints out only adds executions: a proof without them is one
    // with them). Where it holds, that is the proof and its list (minimize() would ask it right
    // after the first search, with the same cone, and stop there); where not, the first search
    // follows and the minimization does not ask it again.
    bool group_failed = false;
    if (needed) {
      const uint32_t present =
          cone_proof_present(p, cones->present(q.c, graphs.rules(), 0), q.inside, quiet);
      if (const int a = first_tried(graphs, present); a >= 0 && (present & ~*needed) != 0) {
        const uint32_t all = group_from(graphs, present, 0, a);
        if (std::popcount(all) > 1) {
          properties::MustOrder::Quiet without;
          const ConeQuestions::Question& qa = questions.get(all, &without);
          if (search_cone(p, graphs, *cones, qa, all, without, opt, b, st, nullptr).status ==
              Status::Safe) {
            ++st.cone_proofs;
            *proof = FirstProof{true, true, present, questions.keys()};
            ObligationResult res;
            res.assumptions = present & ~all;
            return res;
          }
          group_failed = true;
        }
      }
    }
    uint32_t present = 0;
    ObligationResult res = search_cone(p, graphs, *cones, q, 0, quiet, opt, b, st, &present);
    if (res.status == Status::Safe) {
      ++st.cone_proofs;
      *proof = FirstProof{true, false, present, questions.keys()};
      if (needed) {
        res.assumptions =
            minimize(p, graphs, cones, o, *proof, opt, b, st, *needed, &questions, group_failed);
        proof->minimized = true;
      }
      return res;
    }
    ++st.cone_misses;
  }
  Whole whole(p, graphs, o);
  ObligationResult res = whole.search(0, opt, b, st);
  if (res.status == Status::Safe && o.kind != Obligation::Kind::Race)
    *proof = FirstProof{false, false, whole.present(), {}};
  return res;
}

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
uint32_t minimize(const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones, const Obligation& o,
                  const FirstProof& proof, const ExecOptions& opt, const Budget& b, SearchStats& st,
                  uint32_t& needed, ConeQuestions* questions, bool group_failed) {
  // Every assumption present is one an earlier obligation's whole program needs: the property
  // lists each of them whatever this obligation's list holds, and a search here could only add
  // to `needed` one not in it yet. So the property's list, and `needed`, are those of the greedy.
  if ((proof.present & ~needed) == 0) return proof.present;
  std::optional<ConeQuestions> own;
  if (proof.in_cone && !questions)
    questions = &own.emplace(
        *cones, o, [&](const Obligation& inside) { return graphs.quiet(inside); }, proof.keys);
  Whole whole(p, graphs, o);
  auto cone_holds = [&](uint32_t d) {
    properties::MustOrder::Quiet quiet;
    const ConeQuestions::Question& q = questions->get(d, &quiet);
    return search_cone(p, graphs, *cones, q, d, quiet, opt, b, st, nullptr).status == Status::Safe;
  };
  const bool grouped = questions && graphs.get(0).monotone();
  // At the start (unless first_search asked it already), and after a step whose cone did not hold.
  bool ask_group = grouped && !group_failed;
  uint32_t dropped = 0;
  for (int a = 0; a < kAssumptionCount; ++a) {
    const uint32_t bit = 1u << a;
    if (!(proof.present & bit)) continue;
    if (kept_for_values(graphs, dropped | bit)) continue;
    if (ask_group) {
      // What the greedy leaves out from here on if each of its searches holds.
      const uint32_t all = group_from(graphs, proof.present, dropped, a);
      if (std::popcount(all & ~dropped) > 1 && cone_holds(all)) {
        dropped = all;
        break;
      }
    }
    if (questions) {
      if (cone_holds(dropped | bit)) {
        dropped |= bit;
        ask_group = false;
        continue;
      }
      ask_group = grouped;
      if (needed & bit) continue;
    }
    if (whole.search(dropped | bit, opt, b, st).status == Status::Safe)
      dropped |= bit;
    else if (questions)
      needed |= bit;
  }
  return proof.present & ~dropped;
}

// One obligation, its list minimized when opt asks for it.
ObligationResult decide(const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
                        const Obligation& o, const ExecOptions& opt, SearchStats& st,
                        uint32_t& needed) {
  FirstProof proof;
  ObligationResult res = first_search(p, graphs, cones, o, opt, st, &proof);
  if (res.status == Status::Safe && o.kind != Obligation::Kind::Race)
    res.assumptions = opt.minimize_assumptions
                          ? minimize(p, graphs, cones, o, proof, opt, budget_of(opt), st, needed)
                          : proof.present;
  return res;
}

// Each obligation's first search, in order; only once every one holds are their lists
// minimized, in the same order (so the lists are those of minimizing each right after its
// search). A violated or unknown property lists no assumptions, and the searches without some
// of them, which cost far more than the first where waits are not monotone (the state space of
// the writers' orders grows with every order left out), would be thrown away. In a monotone
// program a proof from a cone is minimized at once all the same: there those searches cost about
// what the first does, and later they would make its cone again. The lists are the same either
// way: only cone proofs read and add to `needed`, and they are minimized in order.
//
// An obligation left unknown does not decide the property: a later one may still be violated,
// and a violation of any obligation is one of the property (a race, the commonest, needs no
// search). The obligations after the first unknown share one timeout, so that a property whose
// searches all run out costs two timeouts, not one per obligation.
properties::Verdict decide_property(const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
                                    const std::vector<Obligation>& obs, const ExecOptions& opt,
                                    SearchStats& st) {
  uint32_t used = 0, needed = 0;
  std::optional<properties::Violated> first;
  std::optional<properties::Unknown> unknown;  // the first obligation left unknown
  auto rest = std::chrono::steady_clock::time_point::max();
  int failing = 0;
  std::vector<std::pair<size_t, FirstProof>> proofs;  // to minimize
  int undecided = 0;
  // After the first counterexample, the obligations from `i` on (properties::count_left).
  auto leave_rest = [&](size_t i) {
    properties::count_left(std::span(obs).subspan(i), failing, undecided);
  };
  for (size_t i = 0; i < obs.size(); ++i) {
    if (first && opt.first_violation) {
      undecided += static_cast<int>(obs.size() - i);
      break;
    }
    // After the first counterexample a violation is only counted (check_lowered's vacuity check
    // found a complete execution).
    if (first && obs[i].always_violated()) {
      ++failing;
      continue;
    }
    FirstProof proof;
    // Not once an obligation failed or was left unknown: the property lists nothing then.
    const bool now = opt.minimize_assumptions && !first && !unknown && graphs.get(0).monotone();
    ObligationResult r =
        first_search(p, graphs, cones, obs[i], opt, st, &proof, now ? &needed : nullptr, rest);
    if (r.status == Status::Unknown) {
      if (first) {  // a counterexample already found stands
        leave_rest(i);
        break;
      }
      ++undecided;  // undecided, should a later obligation fail
      if (!unknown) {
        unknown = properties::Unknown{fmt::format("{} on '{}'", r.reason, obs[i].name)};
        rest = std::chrono::steady_clock::now() + std::chrono::milliseconds(opt.timeout_ms);
      }
      continue;
    }
    if (r.status == Status::Safe) {
      // Once an obligation fails, the later ones are only counted (failing or not).
      if (proof.minimized)
        used |= r.assumptions;
      else if (!first && !unknown && obs[i].kind != Obligation::Kind::Race)
        proofs.emplace_back(i, std::move(proof));
      continue;
    }
    ++failing;
    if (first) continue;
    proofs.clear();
    auto v = violation_verdict(p, obs[i], static_cast<int>(i), r.order, r.line);
    if (!std::holds_alternative<properties::Violated>(v)) return v;
    first = std::get<properties::Violated>(std::move(v));
  }
  if (first) {
    first->failing = failing;
    first->undecided = undecided;
    return *first;
  }
  if (unknown) return *unknown;
  for (const auto& [i, proof] : proofs)
    used |= opt.minimize_assumptions
                ? minimize(p, graphs, cones, obs[i], proof, opt, budget_of(opt), st, needed)
                : proof.present;
  return properties::Proved{properties::assumption_names(used), static_cast<int>(obs.size())};
}

// The same report as encode/deadlock.cpp: per queue, the first command that did not complete.
properties::Verdict deadlock_verdict(const LoweredProgram& p, const std::vector<EventId>& fired) {
  const Case& c = *p.source;
  properties::Violated v;
  v.witness.times = times_of(p.events.size(), fired);
  std::vector<std::pair<uint32_t, uint32_t>> stuck;
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
      const auto& evs = p.command(q, i).events;
      if (std::all_of(evs.begin(), evs.end(), [&](EventId e) { return v.witness.times[e] > 0; }))
        continue;
      stuck.push_back({q, i});
      break;
    }
  std::vector<char> done(p.events.size(), 0);
  for (EventId e : fired) done[e] = 1;
  v.trace = properties::deadlock_trace(p, stuck, done);
  return v;
}

}  // namespace

ObligationResult decide_obligation(const LoweredProgram& p, const Obligation& o,
                                   const ExecOptions& opt, SearchStats& st) {
  Graphs graphs(p, SIZE_MAX);
  uint32_t needed = 0;
  return decide(p, graphs, nullptr, o, opt, st, needed);
}

properties::Verdict violation_verdict(const LoweredProgram& p, const Obligation& o, int index,
                                      const std::vector<EventId>& order, uint64_t line) {
  properties::Times t = times_of(p.events.size(), order);
  auto m = properties::monitor(p, o, t, line);
  if (!m.violated || order.size() != p.events.size())
    return properties::Error{fmt::format(
        "internal: the executor's counterexample for '{}' does not replay on the concrete "
        "monitor (an executor bug)",
        o.name)};
  properties::Violated v;
  v.trace = properties::violation_trace(p, o, t, m);
  v.witness = {index, std::move(t), line};
  return v;
}

namespace {

properties::CaseResult check_lowered(const Case& c, const LoweredProgram& p, const ExecOptions& opt,
                                     std::chrono::steady_clock::time_point t0) {
  properties::CaseResult out;
  out.config = p.config;
  out.events = p.events.size();
  out.constraints = p.orders.size() + p.waits.size();
  const bool use_cones = opt.cones && p.events.size() > opt.cone_above;
  Graphs graphs(p, use_cones ? 1 : SIZE_MAX);
  std::optional<ConeGraphs> cones;
  if (use_cones) cones.emplace(p);
  SearchStats st;
  // Vacuity, as the SMT engine's base check: no complete execution proves everything.
  const bool vacuous = any_execution(graphs.get(0), budget_of(opt)).size() != p.events.size();
  const bool monotone = graphs.get(0).monotone();
  // Deadlock freedom, decided once when a property or the hang rule needs it.
  std::optional<properties::Verdict> deadlock;
  auto deadlock_verdict_of = [&]() -> const properties::Verdict& {
    if (!deadlock) {
      auto r = search_deadlock(build_graph(p, WaitMode::Deadlock), opt.reduce, budget_of(opt), st);
      if (r.status == Status::Unknown)
        deadlock = properties::Unknown{fmt::format("{} on 'deadlock-free'", r.reason)};
      else if (r.status == Status::Violated)
        deadlock = deadlock_verdict(p, r.order);
      else
        deadlock = properties::Proved{
            properties::deadlock_assumptions(c, p,
                                             [&](const LoweredProgram& q) -> std::optional<bool> {
                                               SearchStats scratch;
                                               auto x = search_deadlock(
                                                   build_graph(q, WaitMode::Deadlock), opt.reduce,
                                                   budget_of(opt), scratch);
                                               if (x.status == Status::Unknown) return std::nullopt;
                                               return x.status == Status::Safe;
                                             }),
            1};
    }
    return *deadlock;
  };
  // Decided first when a property asks for it: its minimization lowers the case again under
  // fewer assumptions, and that copy of the program is best made before the safety properties'
  // graphs, cones and searches exist (it set the executor's peak at 50,000 commands). Its time
  // stays its property's.
  double deadlock_ms = 0;
  if (c.asks(PropertyKind::DeadlockFree)) {
    const auto td = std::chrono::steady_clock::now();
    deadlock_verdict_of();
    deadlock_ms = ms_since(td);
  }
  for (size_t i = 0; i < c.properties.size(); ++i) {
    const Property& prop = c.properties[i];
    auto tp = std::chrono::steady_clock::now();
    properties::Verdict v;
    if (prop.kind == PropertyKind::DeadlockFree) {
      v = deadlock_verdict_of();
      out.results.push_back({i, v, deadlock_ms, properties::as_expected(prop, v)});
      continue;
    } else if (vacuous) {
      v = properties::Error{
          "vacuous: the model allows no complete execution of this case (a wait can never be "
          "satisfied; check deadlock-free)"};
    } else {
      auto obs = properties::obligations_for(p, prop);
      // A proof that the hang rule turns into unknown lists nothing: no minimization for it.
      ExecOptions property_opt = opt;
      if (!monotone && !std::holds_alternative<properties::Proved>(deadlock_verdict_of()))
        property_opt.minimize_assumptions = false;
      if (!obs.error.empty())
        v = properties::Error{obs.error};
      else
        v = decide_property(p, graphs, cones ? &*cones : nullptr, obs.list, property_opt, st);
      properties::add_assumptions(v, obs.relies);
      if (!monotone) v = properties::unless_it_hangs(v, deadlock_verdict_of());
    }
    out.results.push_back({i, v, ms_since(tp), properties::as_expected(prop, v)});
  }
  out.states = st.transitions;
  out.cone_proofs = st.cone_proofs, out.cone_misses = st.cone_misses;
  out.ms = ms_since(t0);
  return out;
}

}  // namespace

properties::CaseResult check_case(const Case& c, const ExecOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();  // the lowering is part of the case's time
  return check_lowered(c, lower(c, config_for(c, opt.profile, opt.assume, opt.target)), opt, t0);
}

properties::CaseResult check_case(const Case& c, const LoweredProgram& p, const ExecOptions& opt) {
  return check_lowered(c, p, opt, std::chrono::steady_clock::now());
}

}  // namespace syncproof::exec
