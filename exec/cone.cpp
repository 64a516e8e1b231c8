#include "exec/cone.h"

#include <algorithm>

namespace syncproof::exec {

using namespace model;

namespace {

uint32_t bit(AssumptionId a) {
  return 1u << static_cast<int>(a);
}

// The assumptions a guard mask of properties::Cone::wait_guards names (either polarity).
uint32_t guard_ids(uint64_t g) {
  return static_cast<uint32_t>(g) | static_cast<uint32_t>(g >> 32);
}

}  // namespace

ConeGraphs::ConeGraphs(const LoweredProgram& p)
    : p_(p),
      maker_(p),
      out_(p.events.size()),
      waits_at_(p.events.size()),
      local_(p.events.size(), UINT32_MAX),
      ops_at_(p.events.size()) {
  for (uint32_t i = 0; i < p.orders.size(); ++i) out_[p.orders[i].before].push_back(i);
  for (uint32_t i = 0; i < p.cache_ops.size(); ++i) ops_at_[p.cache_ops[i].ev].push_back(i);
  for (uint32_t w = 0; w < p.waits.size(); ++w) waits_at_[p.waits[w].wait].push_back(w);
}

ConeGraph ConeGraphs::make(const properties::Cone& c, const Graph& whole, uint32_t dropped) {
  for (EventId e : last_) local_[e] = UINT32_MAX;
  ConeGraph out;
  out.events = c.events;
  for (uint32_t i = 0; i < out.events.size(); ++i) local_[out.events[i]] = i;
  last_ = out.events;
  auto inside = [&](EventId e) { return local_[e] != UINT32_MAX; };
  SubGraph s;
  s.events = out.events;
  uint32_t present = 0;
  const bool iz = p_.config.assumptions.enabled(AssumptionId::InitialZero);
  for (EventId e : out.events) {
    for (uint32_t oi : out_[e]) {
      const Order& o = p_.orders[oi];
      if (!inside(o.after) || (o.guard.id && (dropped & bit(*o.guard.id)))) continue;
      s.orders.push_back({local_[o.before], local_[o.after]});
      if (o.guard.id) present |= bit(*o.guard.id);
    }
    for (uint32_t w : waits_at_[e]) {
      const WaitRule& wr = p_.waits[w];
      // What the whole graph's rule for this wait rests on (exec::assumptions_present).
      if (iz && (!wr.zero_satisfies || (wr.value_depends & bit(AssumptionId::InitialZero))))
        present |= bit(AssumptionId::InitialZero);
      present |= wr.value_depends & bit(AssumptionId::TimestampNonzero);
      const uint32_t kind = whole.wait_rule[w];
      if (kind == Graph::kFree) continue;
      SubGraph::Rule r{w, false, {}};
      if (kind >= Graph::kValueRule) {
        const uint32_t v = kind - Graph::kValueRule;
        bool all = true;
        for (uint32_t i = whole.vw_start[v]; i < whole.vw_start[v + 1] && all; ++i)
          all = inside(whole.vw[i]);
        if (!all) continue;  // free: the cone cannot say what value the wait polls
        r.value = true;
        for (uint32_t i = whole.vw_start[v]; i < whole.vw_start[v + 1]; ++i)
          r.cands.push_back(local_[whole.vw[i]]);
      } else {
        const uint32_t m = kind - Graph::kMonotoneRule;
        std::vector<EventId> cands(whole.cand.begin() + whole.cand_start[m],
                                   whole.cand.begin() + whole.cand_start[m + 1]);
        const bool all = std::all_of(cands.begin(), cands.end(), inside);
        if (!all) {
          // Restricted: only as the cone's argument allows it, for the candidates it was made for.
          // (Both lists are in writer order: the lowering's is the configuration's.)
          const uint32_t guards = guard_ids(c.wait_guards[w]);
          if (!c.keep_wait[w] || !wr.monotone || cands != wr.candidates || (guards & dropped))
            continue;
          present |= guards;
        }
        for (EventId x : cands)
          if (inside(x)) r.cands.push_back(local_[x]);
        present |= wr.chain_guards;
      }
      s.rules.push_back(std::move(r));
    }
  }
  out.g = build_subgraph(p_, whole.values, s);
  out.present = present;
  return out;
}

properties::Obligation ConeGraphs::restrict(const properties::Obligation& o,
                                            const properties::Cone& c) {
  properties::Obligation out = o;
  for (auto* steps :
       {&out.fresh.steps, &out.waw.first_steps, &out.waw.second_steps, &out.war.steps})
    for (properties::Step& s : *steps) {
      auto [it, fresh] = in_list_.try_emplace(s.ops.id());
      std::vector<uint8_t>& listed = it->second.second;
      if (fresh) {
        it->second.first = s.ops;
        listed.assign(p_.cache_ops.size(), 0);
        for (uint32_t oi : s.ops) listed[oi] = 1;
      }
      std::vector<uint32_t> kept;
      for (EventId e : c.events)
        for (uint32_t oi : ops_at_[e])
          if (listed[oi]) kept.push_back(oi);
      s.ops = properties::OpList(std::move(kept));
    }
  return out;
}

}  // namespace syncproof::exec
