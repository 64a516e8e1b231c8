#include "exec/cone.h"

#include <algorithm>
#include <map>

#include "exec/watch.h"

namespace syncproof::exec {

using namespace model;

namespace {

// The assumptions a guard mask of properties::Cone::rules names (either polarity).
uint32_t guard_ids(uint64_t g) {
  return static_cast<uint32_t>(g) | static_cast<uint32_t>(g >> 32);
}

}  // namespace

ConeGraphs::ConeGraphs(const LoweredProgram& p)
    : p_(p), maker_(p), local_(p.events.size(), UINT32_MAX) {
  std::vector<std::pair<uint32_t, uint32_t>> at;
  at.reserve(p.cache_ops.size());
  for (uint32_t i = 0; i < p.cache_ops.size(); ++i) at.push_back({p.cache_ops[i].ev, i});
  ops_at_ = util::Csr<uint32_t>(p.events.size(), at);
}

uint32_t ConeGraphs::leaned_on(uint32_t dropped) const {
  return dropped & guard_ids(maker_.implied_guards());
}

const properties::ConeMaker& ConeGraphs::maker(uint32_t leaned) {
  if (leaned == 0) return maker_;
  std::unique_ptr<properties::ConeMaker>& m = makers_without_[leaned];
  if (!m) {
    // Neither polarity of a dropped assumption's guard holds in every execution.
    const uint64_t guards = uint64_t{leaned} | uint64_t{leaned} << 32;
    m = std::make_unique<properties::ConeMaker>(maker_, ~guards);
  }
  return *m;
}

std::optional<properties::Cone> ConeGraphs::cone(const properties::Obligation& o,
                                                 const std::vector<char>* unkeyed,
                                                 uint32_t dropped) {
  properties::ConeMaker::Inside inside;
  std::optional<properties::Cone> c =
      maker(leaned_on(dropped)).cone(o, /*dense=*/false, unkeyed, &inside);
  if (c) key(c->events, &inside);  // its graph is asked next
  return c;
}

std::optional<properties::Cone> ConeGraphs::over(const properties::Cone& c, uint32_t dropped) {
  properties::Cone out;
  bool left_out = false;
  key(c.events);
  out.rules = maker(leaned_on(dropped)).rules_over(c.events, inside_, nullptr, nullptr, &left_out);
  if (left_out) return std::nullopt;
  out.events = c.events;
  out.size = c.size;
  return out;
}

const ConeGraph& ConeGraphs::make(const properties::Cone& c, WaitRules& rules, uint32_t dropped) {
  made_.present = collect(c, rules, dropped);
  made_.events = c.events;
  build_subgraph(p_, rules.values(dropped), sub_, made_.g);
  return made_;
}

uint32_t ConeGraphs::present(const properties::Cone& c, WaitRules& rules, uint32_t dropped) {
  return collect(c, rules, dropped);
}

void ConeGraphs::key(const std::vector<EventId>& events, properties::ConeMaker::Inside* given) {
  if (keyed_ == events) return;
  for (EventId e : keyed_) local_[e] = UINT32_MAX;
  keyed_ = events;
  for (uint32_t i = 0; i < keyed_.size(); ++i) local_[keyed_[i]] = i;
  inside_orders_.clear();
  for (EventId e : keyed_)
    for (uint32_t oi : maker_.orders_from(e)) {
      const Order& o = p_.orders[oi];
      if (local_[o.after] == UINT32_MAX) continue;
      inside_orders_.push_back(
          {local_[o.before], local_[o.after], o.guard.id ? assumption_bit(*o.guard.id) : 0});
    }
  inside_ = given ? std::move(*given) : maker_.inside(keyed_);
  waits_present_ = 0;
  for (uint32_t w : inside_.waits)  // as the whole graph's rule rests on them
    waits_present_ |= value_assumptions(p_, p_.waits[w]);
}

uint32_t ConeGraphs::collect(const properties::Cone& c, WaitRules& rules, uint32_t dropped) {
  key(c.events);
  SubGraph& s = sub_;
  s.events = c.events;
  s.orders.clear(), s.rules.clear(), s.cands.clear();
  uint32_t present = waits_present_;
  for (const InsideOrder& o : inside_orders_) {
    if (o.guard & dropped) continue;
    s.orders.push_back({o.before, o.after});
    present |= o.guard;
  }
  for (uint32_t w : inside_.waits) {
    const WaitRule& wr = p_.waits[w];
    const WaitRules::Rule rule = rules.rule(w, dropped);
    if (rule.kind == WaitRules::Kind::Free) continue;
    const std::vector<uint32_t>& in = inside_.writers.at(wr.word.writers.id());
    const auto begin = static_cast<uint32_t>(s.cands.size());
    SubGraph::Rule r{w, false, begin, begin};
    auto drop = [&] { s.cands.resize(begin); };
    if (rule.kind == WaitRules::Kind::Value) {
      if (in.size() != wr.word.writers.size()) continue;  // free: the value it polls is unknown
      r.value = true;
      for (uint32_t k : in) s.cands.push_back(local_[wr.word.writers[k].ev]);
    } else {
      const Candidates& cs = candidates(w, *rule.cands);
      for (uint32_t k : in)
        if (cs.is[k]) s.cands.push_back(local_[wr.word.writers[k].ev]);
      if (s.cands.size() - begin != rule.cands->size()) {
        // Restricted: only as the cone's argument allows it, for the candidates it was made for.
        const auto kept =
            std::lower_bound(c.rules.begin(), c.rules.end(), std::pair<uint32_t, uint64_t>{w, 0});
        if (kept == c.rules.end() || kept->first != w || !wr.monotone || !cs.lowered) {
          drop();
          continue;
        }
        const uint32_t guards = guard_ids(kept->second);
        if (guards & dropped) {
          drop();
          continue;
        }
        present |= guards;
      }
      present |= wr.chain_guards;
    }
    r.end = static_cast<uint32_t>(s.cands.size());
    s.rules.push_back(r);
  }
  return present;
}

const ConeGraphs::Candidates& ConeGraphs::candidates(uint32_t w, const std::vector<uint32_t>& ks) {
  auto [it, fresh] = candidates_.try_emplace(&ks);
  if (fresh) {
    const WaitRule& wr = p_.waits[w];
    it->second.is.assign(wr.word.writers.size(), 0);
    for (uint32_t k : ks) it->second.is[k] = 1;
    // The lowering's list is the configuration's, in writer order as these are.
    it->second.lowered =
        ks.size() == wr.candidates.size() &&
        std::equal(ks.begin(), ks.end(), wr.candidates.begin(),
                   [&](uint32_t k, EventId e) { return wr.word.writers[k].ev == e; });
  }
  return it->second;
}

properties::Obligation ConeGraphs::restrict(const properties::Obligation& o,
                                            const properties::Cone& c) {
  properties::Obligation out = o;
  // Steps share their lists (every write-back of a level): each list is restricted once here,
  // and the steps holding it share the result (a read's hundreds of line mates hold a few).
  std::map<const void*, properties::OpList> done;
  auto restrict_steps = [&](std::vector<properties::Step>& steps) {
    for (properties::Step& s : steps) {
      auto [d, first] = done.try_emplace(s.ops.id());
      if (!first) {
        s.ops = d->second;
        continue;
      }
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
      d->second = s.ops;
    }
  };
  for (auto* steps :
       {&out.fresh.steps, &out.waw.first_steps, &out.waw.second_steps, &out.war.steps})
    restrict_steps(*steps);
  // The mates into a list of the obligation's own (the lowering's table is shared); the mates of
  // one path share their steps, and so share their restriction.
  std::vector<properties::LineMate> mates(out.fresh.mates.begin(), out.fresh.mates.end());
  std::map<const void*, util::SharedList<properties::Step>> restricted;  // by the mate's steps
  for (properties::LineMate& m : mates) {
    auto [it, fresh] = restricted.try_emplace(m.steps.id());
    if (fresh) {
      std::vector<properties::Step> steps = m.steps.items();
      restrict_steps(steps);
      it->second = std::move(steps);
    }
    m.steps = it->second;
  }
  if (!mates.empty()) out.fresh.mates = properties::MateList::own(std::move(mates));
  return out;
}

ConeQuestions::ConeQuestions(ConeGraphs& cones, const properties::Obligation& o, QuietOf quiet_of,
                             std::vector<char> keys)
    : cones_(cones), o_(o), quiet_of_(std::move(quiet_of)), first_(std::move(keys)) {
  if (first_.empty() && o.kind == properties::Obligation::Kind::Fresh)
    first_.assign(o.fresh.mates.size(), 1);
}

ConeQuestions::Question ConeQuestions::question(properties::Cone c) {
  properties::Obligation inside = cones_.restrict(o_, c);
  properties::MustOrder::Quiet all = quiet_of_(inside);
  std::vector<uint64_t> units = line_units(cones_.program(), inside);
  return Question{std::move(c), std::move(inside), std::move(all), std::move(units)};
}

const ConeQuestions::Question& ConeQuestions::get_base(const std::vector<char>& unkeyed) {
  auto [it, fresh] = made_.try_emplace({0, unkeyed});
  if (fresh) it->second = question(*cones_.cone(o_, &unkeyed, 0));
  return it->second;
}

const ConeQuestions::Question& ConeQuestions::get(uint32_t dropped,
                                                  properties::MustOrder::Quiet* quiet) {
  std::vector<char> unkeyed = first_;
  const uint32_t leaned = cones_.leaned_on(dropped);
  for (;;) {
    const Question* q = &get_base(unkeyed);
    if (leaned != 0) {
      auto [it, fresh] = made_.try_emplace({leaned, unkeyed});
      if (fresh) {
        // The events of the question without a dropped assumption, so the restricted obligation,
        // its quiet list and units are that question's; the wait rules are those of a maker that
        // uses no order under the dropped assumptions (ConeGraphs::over). Unless that maker
        // needs more candidates in for a wait's rule: then its own cone.
        if (std::optional<properties::Cone> c = cones_.over(q->c, dropped))
          it->second = Question{std::move(*c), q->inside, q->quiet, q->units};
        else
          it->second = question(*cones_.cone(o_, &unkeyed, dropped));
      }
      q = &it->second;
    }
    *quiet = dropped ? q->quiet.without(dropped) : q->quiet;
    bool grew = false;
    for (size_t k = 0; k < unkeyed.size(); ++k)
      if (unkeyed[k] && !(k < quiet->mates.size() && quiet->mates[k])) unkeyed[k] = 0, grew = true;
    if (!grew) {
      if (dropped == 0) first_ = unkeyed;  // the re-runs' quiet lists hold no more mates
      return *q;
    }
  }
}

}  // namespace syncproof::exec
