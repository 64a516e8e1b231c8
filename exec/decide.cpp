#include "exec/decide.h"

#include <algorithm>
#include <bit>
#include <chrono>

namespace syncproof::exec {

using namespace model;
using properties::Obligation;

namespace {

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

}  // namespace

// One search's budget: opt's states, and its timeout from now.
Budget budget_of(const ExecOptions& opt) {
  return {opt.max_states,
          std::chrono::steady_clock::now() + std::chrono::milliseconds(opt.timeout_ms)};
}

ObligationResult first_search(const LoweredProgram& p, Graphs& graphs, ConeGraphs* cones,
                              const Obligation& o, const ExecOptions& opt, SearchStats& st,
                              FirstProof* proof, uint32_t* needed,
                              std::chrono::steady_clock::time_point deadline) {
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

}  // namespace syncproof::exec
