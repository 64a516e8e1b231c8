#include "synth/fix.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "model/flags.h"
#include "properties/api_order.h"
#include "properties/obligation.h"
#include "synth/bases.h"
#include "synth/flag_ops.h"
#include "synth/redundant.h"

namespace syncproof::synth {

using namespace model;

namespace {

bool proved_by_both(const Verification& v, size_t p) {
  for (const auto* r : {&v.smt, &v.exec})
    if (p >= r->results.size() ||
        !std::holds_alternative<properties::Proved>(r->results[p].verdict))
      return false;
  return true;
}

// The carriers of `fixed` the fix touched or that lie between the commands of the goals'
// obligations: where a flag the fix made unnecessary can be.
std::vector<std::pair<uint32_t, uint32_t>> near_fix(const Case& fixed, const ModelConfig& cfg,
                                                    const Origins& origin, const Case& orig,
                                                    const std::vector<size_t>& goals) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  const LoweredProgram lp = lower(fixed, cfg);
  const properties::ApiOrder order(lp);
  std::vector<Pair> pairs;
  for (size_t g : goals)
    for (const auto& ob : properties::obligations_for(lp, fixed.properties[g]).list)
      for (const Pair& p : obligation_pairs(lp, ob)) pairs.push_back(p);
  for (uint32_t q = 0; q < fixed.queues.size(); ++q)
    for (uint32_t i = 0; i < fixed.queues[q].commands.size(); ++i) {
      const auto car = carrier(fixed.queues[q].commands[i]);
      if (!car) continue;
      const Origin& o = origin[q][i];
      bool touched = o.fresh;
      if (!o.fresh) {
        const auto was = carrier(orig.queues[q].commands[o.index]);
        touched = !was || was->flags != car->flags || was->control.bits != car->control.bits;
      }
      const bool between = std::any_of(pairs.begin(), pairs.end(), [&](const Pair& p) {
        const bool after = (q == p.qa && i >= p.a) || order.before(p.qa, p.a, q, i);
        const bool before = (q == p.qb && i <= p.b) || order.before(q, i, p.qb, p.b);
        return after && before;
      });
      if (touched || between) out.push_back({q, i});
    }
  return out;
}

// Among equally cheap edits, the one a console engineer would write: invalidations on the
// acquire side (a WaitX, a SyncTopOfPipeX), flushes and waits for work on the release side (a
// Signal2X, a BOP write, a SyncBottomOfPipeX). 0 is preferred; costs are not affected.
int placement_rank(const Case& base, const Edit& e) {
  constexpr uint32_t kInvalidations = 0x3u | sync::kKcacheInvalidate | sync::kVcacheInvalidate |
                                      sync::kGl1Invalidate | sync::kGl2Invalidate |
                                      sync::kGl2InvalidateUnshared | sync::kMcacheInvalidate;
  std::optional<SyncApi> api;
  if (e.kind == EditKind::NewSync) {
    api = e.api;
  } else if (e.kind == EditKind::AddFlags && e.queue < base.queues.size() &&
             e.cmd < base.queues[e.queue].commands.size()) {
    if (const auto car = carrier(base.queues[e.queue].commands[e.cmd])) api = car->api;
  }
  if (!api || !e.flags) return 0;
  const bool acquire = *api == SyncApi::SyncTopOfPipeX || *api == SyncApi::WaitX;
  const bool invalidation = (e.flags & ~kInvalidations) == 0;
  return acquire == invalidation ? 0 : 1;
}

bool has_barriers(const Case& c) {
  for (const Queue& q : c.queues)
    for (const Command& cmd : q.commands)
      if (std::holds_alternative<BarrierCmd>(cmd.body)) return true;
  return false;
}

// Checks `fixed` (from `c` through `origin`) with both engines and fills in the result.
void confirm(const Case& c, Case fixed, Origins origin, const std::vector<size_t>& props,
             const FixOptions& opt, FixResult& res) {
  res.verification = opt.verify(fixed);
  res.changes = diff(c, fixed, origin, opt.costs);
  res.cost = total_cost(res.changes);
  res.fixed = std::move(fixed);
  res.origin = std::move(origin);
  bool ok = res.verification.problems.empty();
  for (size_t p : props) ok = ok && proved_by_both(res.verification, p);
  if (!ok) {
    res.status = FixResult::Status::NotVerified;
    res.why = !res.verification.problems.empty()
                  ? res.verification.problems.front()
                  : "the fixed case is not proved by both engines (a bug: please report it)";
    return;
  }
  res.status = FixResult::Status::Fixed;
}

// A case with nothing to fix: its standard barriers that cheaper Xbox calls can replace.
FixResult replace_only(const Case& c, const std::vector<size_t>& props, const FixOptions& opt,
                       FixResult res) {
  if (opt.style == Style::Standard || !has_barriers(c) || props.empty()) return res;
  ReplaceResult rr =
      replace_barriers(c, props, opt, opt.budget > res.calls ? opt.budget - res.calls : 0);
  res.calls += rr.calls;
  if (rr.done.empty()) return res;
  confirm(c, std::move(rr.replaced), std::move(rr.origin), props, opt, res);
  return res;
}

}  // namespace

std::string_view to_string(FixResult::Status s) {
  switch (s) {
    case FixResult::Status::Nothing:
      return "nothing-to-fix";
    case FixResult::Status::Fixed:
      return "fixed";
    case FixResult::Status::Unfixable:
      return "unfixable";
    case FixResult::Status::Budget:
      return "budget";
    case FixResult::Status::NotVerified:
      return "not-verified";
  }
  return "";
}

void default_goals(const Case& c, const properties::CaseResult& r, bool all,
                   std::vector<size_t>* goals, std::vector<size_t>* keep) {
  for (const auto& pr : r.results) {
    const Property& p = c.properties[pr.property];
    const bool proved = std::holds_alternative<properties::Proved>(pr.verdict);
    if (proved && p.expect == Expectation::Holds)
      keep->push_back(pr.property);
    else if (!proved && (all || p.expect == Expectation::Holds))
      goals->push_back(pr.property);
  }
}

FixOptions in_session(const FixOptions& opt) {
  FixOptions o = opt;
  if (!opt.session) return o;
  Engines e = opt.session();
  o.search = std::move(e.search);
  o.verify = std::move(e.verify);
  o.session = nullptr;
  return o;
}

FixResult fix_case(const Case& c, const std::vector<size_t>& goals, const std::vector<size_t>& keep,
                   const FixOptions& given) {
  const FixOptions opt = in_session(given);
  FixResult res;
  res.before = opt.costs.barrier(c);
  res.fixed = c;
  res.origin = identity_origins(c);
  if (goals.empty()) return replace_only(c, keep, opt, res);
  std::vector<size_t> props = goals;
  props.insert(props.end(), keep.begin(), keep.end());
  std::sort(props.begin(), props.end());
  props.erase(std::unique(props.begin(), props.end()), props.end());

  // The case as it is: its configuration, and whether anything is to be done.
  Oracle first(c, opt.search, opt.budget);
  const Outcome& now = first.check({}, props);
  res.calls = first.calls();
  if (now.pass) return replace_only(c, props, opt, res);
  const ModelConfig cfg = now.result.config;
  const Bases bases = make_bases(c, cfg, goals, opt.bases);

  struct Best {
    int total;
    Case base_case;
    Origins base_origin;
    std::vector<Edit> edits;
    bool exact;
  };
  std::optional<Best> best;
  std::string why;
  bool budget_hit = false;
  for (const Base& b : bases.list) {
    const int base_cost = added_cost(c, pointers(b.edits), opt.costs);
    if (best && base_cost >= best->total) continue;
    if (res.calls >= opt.budget) {
      budget_hit = true;
      break;
    }
    Origins ob;
    Case base_case = apply(c, b.edits, &ob);
    Oracle o(base_case, opt.search, opt.budget - res.calls);
    o.universe().set_style(opt.style);
    SearchOptions so;
    so.costs = &opt.costs;
    if (best) so.ceiling = best->total - base_cost;
    so.rank = [&o](uint32_t id) { return placement_rank(o.base(), o.universe()[id]); };
    const SearchResult r = cheapest(o, props, so);
    res.calls += o.calls();
    if (r.status == SearchResult::Status::Found) {
      const int total = base_cost + r.cost;
      if (!best || total < best->total) {
        std::vector<Edit> edits;
        for (uint32_t id : r.edits) edits.push_back(o.universe()[id]);
        best = Best{total, std::move(base_case), std::move(ob), std::move(edits), r.exact};
      }
    } else if (r.status == SearchResult::Status::Pruned) {
      // no fix from this base is cheaper than the best one
    } else if (r.status == SearchResult::Status::Budget) {
      budget_hit = true;
    } else if (why.empty()) {
      why = fmt::format("{} stays unproved with every candidate edit: {}",
                        property_words(c, c.properties[r.prop]), r.why);
    }
  }
  if (!best) {
    res.status =
        budget_hit && why.empty() ? FixResult::Status::Budget : FixResult::Status::Unfixable;
    if (res.status == FixResult::Status::Budget)
      why = fmt::format("no fix found within {} engine calls (--budget)", opt.budget);
    for (const std::string& u : bases.unorderable) why += "; " + u;
    res.why = why;
    return res;
  }
  Origins os;
  Case fixed = apply(best->base_case, best->edits, &os);
  Origins origin = compose(best->base_origin, os);
  for (size_t g : goals) {
    fixed.properties[g].expect = Expectation::Holds;
    fixed.properties[g].missing.clear();
  }
  res.exact = best->exact;
  if (opt.minimize) {
    // Every sync of a small case, not only those near the fix: a flag placed too late (a flush
    // after the overwrite it should precede) is one the fix makes unnecessary away from it. In a
    // large case (a frame), only those near the fix, to bound the engine calls.
    size_t carriers = 0;
    for (const Queue& q : fixed.queues)
      for (const Command& cmd : q.commands) carriers += carrier(cmd).has_value();
    const auto near = carriers <= 32 ? std::vector<std::pair<uint32_t, uint32_t>>{}
                                     : near_fix(fixed, cfg, origin, c, goals);
    FixOptions mo = opt;
    mo.budget = opt.budget > res.calls ? opt.budget - res.calls : 0;
    const RedundantResult red = find_redundant(fixed, props, mo, near);
    res.calls += red.calls;
    if (red.status == RedundantResult::Status::Found) {
      fixed = red.minimized;
      origin = compose(origin, red.origin);
    }
  }
  if (opt.style != Style::Standard && has_barriers(fixed)) {
    ReplaceResult rr =
        replace_barriers(fixed, props, opt, opt.budget > res.calls ? opt.budget - res.calls : 0);
    res.calls += rr.calls;
    if (!rr.done.empty()) {
      origin = compose(origin, rr.origin);
      fixed = std::move(rr.replaced);
    }
  }
  confirm(c, std::move(fixed), std::move(origin), props, opt, res);
  return res;
}

// Replacing a standard barrier by Xbox sync calls (synth/fix.h, replace_barriers): the case
// without the barrier is a base, and the fix search (synth/search.h) finds the cheapest Xbox
// edits that prove again what the barrier proved. Removing a barrier is not monotone, so like a
// wait it is chosen before the search; the search itself only adds.
ReplaceResult replace_barriers(const Case& c, const std::vector<size_t>& props,
                               const FixOptions& given, size_t budget) {
  ReplaceResult res;
  res.replaced = c;
  res.origin = identity_origins(c);
  if (given.style == Style::Standard || props.empty()) return res;
  const FixOptions opt = in_session(given);
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
      const auto* b = std::get_if<BarrierCmd>(&c.queues[q].commands[i].body);
      if (!b || split_part(*b) == SplitPart::End) continue;
      // A barrier that moves a tracked resource's state or layout is part of its state's story
      // (lang/state_track.cpp): Xbox calls cannot take its place there.
      const bool moves_state = b->kind != BarrierKind::Uav && b->kind != BarrierKind::Aliasing &&
                               b->resource &&
                               (c.resources[*b->resource].state.has_value() ||
                                c.resources[*b->resource].layout.has_value());
      if (moves_state) continue;
      // Where the barrier (and its END half) are in the case so far.
      std::vector<Edit> remove;
      const auto& now = res.replaced.queues[q].commands;
      for (uint32_t k = 0; k < now.size(); ++k) {
        const Origin& o = res.origin[q][k];
        if (o.fresh) continue;
        const auto* x = std::get_if<BarrierCmd>(&now[k].body);
        const bool self = o.index == i;
        const bool end = x && o.index > i && split_part(*b) == SplitPart::Begin &&
                         split_part(*x) == SplitPart::End && x->resource == b->resource &&
                         remove.size() == 1;
        if (self || end) {
          Edit e;
          e.kind = EditKind::RemoveCommand, e.queue = q, e.cmd = k;
          remove.push_back(e);
        }
      }
      if (remove.empty()) continue;
      int barrier_cost = 0;
      for (const Edit& e : remove)
        barrier_cost += opt.costs.of(now[e.cmd], c.queues[q].type, &res.replaced);
      if (res.calls >= budget) {
        res.budget_hit = true;
        return res;
      }
      Origins ob;
      Case base = apply(res.replaced, remove, &ob);
      Oracle o(base, opt.search, budget - res.calls);
      o.universe().set_style(Style::X);
      SearchOptions so;
      so.costs = &opt.costs;
      so.ceiling = barrier_cost;  // only what is cheaper than the barrier is of use
      const SearchResult r = cheapest(o, props, so);
      res.calls += o.calls();
      if (r.status == SearchResult::Status::Budget) res.budget_hit = true;
      if (r.status != SearchResult::Status::Found || r.cost >= barrier_cost) continue;
      std::vector<Edit> edits;
      for (uint32_t id : r.edits) edits.push_back(o.universe()[id]);
      Origins oe;
      Case next = apply(base, edits, &oe);
      res.origin = compose(compose(res.origin, ob), oe);
      res.replaced = std::move(next);
      res.done.push_back({q, i, barrier_cost - r.cost});
    }
  return res;
}

}  // namespace syncproof::synth
