#include "encode/encoding.h"

#include "encode/contraction.h"
#include "encode/wait_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace syncproof::encode {

using namespace model;
using solver::Term;

Encoding::Encoding(const LoweredProgram& p, solver::Context& ctx) : p_(p), ctx_(ctx) {
  build();
}

Encoding::Encoding(const LoweredProgram& p, solver::Context& ctx, const properties::Slice& slice)
    : p_(p), ctx_(ctx), slice_(&slice) {
  build();
}

Encoding::Encoding(const LoweredProgram& p, solver::Context& ctx, const properties::Cone& cone)
    : p_(p), ctx_(ctx), cone_(&cone) {
  build();
}

Encoding::Encoding(const LoweredProgram& p, solver::Context& ctx, const properties::Cone& cone,
                   const properties::Obligation* o, int query_index)
    : p_(p), ctx_(ctx), cone_(&cone) {
  build_contracted(o, query_index);
}

Term Encoding::var(EventId e) {
  if (time_[e].id == UINT32_MAX) {
    const Event& ev = p_.events[e];
    time_[e] = ctx_.int_var(fmt::format("t.{}.{}.{}.{}", p_.source->queues[ev.queue].name, ev.cmd,
                                        to_string(ev.kind), e));
  }
  return time_[e];
}

void Encoding::build() {
  const LoweredProgram& p = p_;
  time_.resize(p.events.size());
  for (size_t e = 0; e < p.events.size(); ++e)
    if (has(static_cast<EventId>(e))) var(static_cast<EventId>(e));
  for (const Order& o : p.orders)
    if (has(o.before) && has(o.after)) base_.push_back(order_term(o));
  add_wait_rules();
}

// The violation and the wait rules first, making the times they use; then the orders, with every
// other event taken out (encode/contraction.h).
void Encoding::build_contracted(const properties::Obligation* o, int query_index) {
  time_.resize(p_.events.size());
  lazy_ = true;
  query_ = o ? violation(*o, query_index) : Query{ctx_.bool_val(true), ctx_.int_val(0)};
  add_wait_rules();
  std::vector<uint8_t> keep(p_.events.size(), 0);
  for (EventId e : cone_->events) keep[e] = time_[e].id != UINT32_MAX;
  const Contracted c = contract(p_, cone_->events, cone_->in, keep);
  for (const Bound& b : c.bounds) {
    Term bound = b.weight == 1 ? ctx_.lt(t(b.from), t(b.to))
                               : ctx_.le(ctx_.add(t(b.from), ctx_.int_val(b.weight)), t(b.to));
    base_.push_back(b.guards ? ctx_.implies(all_of(b.guards), bound) : bound);
  }
  for (uint64_t g : c.never) base_.push_back(ctx_.lnot(all_of(g)));
  lazy_ = false;  // an event taken out has no time: using one now is a misuse, not a new variable
}

void Encoding::add_wait_rules() {
  const LoweredProgram& p = p_;
  for (size_t i = 0; i < p.waits.size(); ++i) {
    if (!has(p.waits[i].wait) || (cone_ && !cone_->keep_wait[i])) continue;
    Term rule = wait_term(p.waits[i]);
    // A cone's rule without some candidates holds under the guards of the orders that put
    // those candidates after one it has (properties/proof_cone.h).
    if (const uint64_t g = cone_ ? cone_->wait_guards[i] : 0) rule = ctx_.implies(all_of(g), rule);
    base_.push_back(rule);
  }
}

// One literal per assumption, stating "this assumption holds". A check assumes it when the
// configuration enables the assumption and its negation when it disables it, so a guard on either
// value (Guard::when) is active exactly when the configuration says so.
Term Encoding::guard(const Guard& g) {
  int id = static_cast<int>(*g.id);
  auto it = literal_of_.find(id);
  if (it == literal_of_.end()) {
    Term lit = ctx_.bool_var(fmt::format("assume.{}", assumption(*g.id).name));
    it = literal_of_.emplace(id, lit).first;
    literals_.push_back(p_.config.assumptions.enabled(*g.id) ? lit : ctx_.lnot(lit));
  }
  return g.when ? it->second : ctx_.lnot(it->second);
}

Term Encoding::all_of(uint64_t guards) {
  std::vector<Term> lits;
  for (int a = 0; a < kAssumptionCount; ++a) {
    if (guards >> a & 1u) lits.push_back(guard({static_cast<AssumptionId>(a), true}));
    if (guards >> (32 + a) & 1u) lits.push_back(guard({static_cast<AssumptionId>(a), false}));
  }
  return ctx_.land(lits);
}

std::string Encoding::assumption_name(Term lit) const {
  for (const auto& [id, l] : literal_of_) {
    const auto a = static_cast<AssumptionId>(id);
    const Term assumed = p_.config.assumptions.enabled(a) ? l : ctx_.lnot(l);
    if (assumed.id == lit.id) return std::string(assumption(a).name);
  }
  return "?";
}

Term Encoding::order_term(const Order& o) {
  Term c = ctx_.lt(t(o.before), t(o.after));
  if (o.guard.id) return ctx_.implies(guard(o.guard), c);
  return c;
}

// A wait completes after one of the writes or signals that can satisfy it. When the initial value
// (0 under A-INITIAL-ZERO) satisfies it, or nothing is known of the initial value, it may
// complete at any time. That rule is exact for a monotone wait (model/wait_value.h); any other
// wait is decided by the value its poll reads (encode/wait_values.h).
Term Encoding::wait_term(const WaitRule& w) {
  if (w.monotone) {
    if (w.initial.can_sat) return ctx_.bool_val(true);
    std::vector<Term> any;
    // A cone may ask the rule over the candidates that come first (properties/proof_cone.h).
    const size_t wi = static_cast<size_t>(&w - p_.waits.data());
    const bool short_list = cone_ && !cone_->short_candidates[wi].empty();
    for (EventId c : short_list ? cone_->short_candidates[wi] : w.candidates) {
      // In a slice, a candidate Before has landed before any In event; one After never counts.
      if (slice_ && slice_->part[c] == properties::Part::Before) return ctx_.bool_val(true);
      if (has(c)) any.push_back(ctx_.lt(t(c), t(w.wait)));
    }
    // Without what the rule rests on (WaitRule::rests) the wait is left free to complete at any
    // time (an over-approximation of what it would be).
    return ctx_.implies(all_of(w.rests()), ctx_.lor(any));
  }
  const auto& ws = w.word.writers;
  WaitTerms terms{ctx_, w, [&](uint32_t k) { return ctx_.lt(t(ws[k].ev), t(w.wait)); },
                  [&](uint32_t a, uint32_t b) { return ctx_.lt(t(ws[b].ev), t(ws[a].ev)); },
                  [&](AssumptionId a) {
                    return guard({a, true});
                  }};
  std::vector<Term> all = {terms.may_pass()};
  // An execution is an interleaving: the poll and the writes it may see never tie.
  for (const Term& d : apart(w, [&](EventId e) { return t(e); })) all.push_back(d);
  return ctx_.land(all);
}

std::vector<Term> Encoding::apart(const WaitRule& w, const std::function<Term(EventId)>& time) {
  std::vector<Term> out;
  const auto& ws = w.word.writers;
  for (size_t a = 0; a < ws.size(); ++a) {
    out.push_back(ctx_.ne(time(ws[a].ev), time(w.wait)));
    for (size_t b = a + 1; b < ws.size(); ++b)
      if ((ws[a].parts & ws[b].parts) && ws[a].ev != ws[b].ev)
        out.push_back(ctx_.ne(time(ws[a].ev), time(ws[b].ev)));
  }
  return out;
}

Term Encoding::covers(const Coverage& c, Term line) {
  switch (c.kind) {
    case Coverage::Kind::All:
      return ctx_.bool_val(true);
    case Coverage::Kind::Nothing:
      return ctx_.bool_val(false);
    case Coverage::Kind::Range:
      return ctx_.land({ctx_.le(ctx_.int_val(static_cast<int64_t>(c.lo)), line),
                        ctx_.le(line, ctx_.int_val(static_cast<int64_t>(c.hi)))});
    case Coverage::Kind::Margin: {
      // The first and the last line, each `span` units long.
      auto within = [&](uint64_t a, uint64_t b) {
        return ctx_.land({ctx_.le(ctx_.int_val(static_cast<int64_t>(a)), line),
                          ctx_.le(line, ctx_.int_val(static_cast<int64_t>(b)))});
      };
      return ctx_.lor({within(c.lo, c.lo + c.span - 1), within(c.hi - (c.span - 1), c.hi)});
    }
  }
  return ctx_.bool_val(false);
}

// G_0 = start; for each step j and each of its operations o covering the line:
// t(o) > G_{j-1} implies t(o) >= G_j. Then G_j is a lower bound of the time the data has crossed
// step j (infinite when no operation does), and every lower bound is reachable, so
// "G_k >= t(read)" is satisfiable exactly when the read can be stale.
//
// On the GL2 step of a freshness, an invalidation carries the data only when it is open
// (gl2_open): the mates' own chains down to memory are lower bounds B_m the same way, and "B_m <
// t(o)" (written back before o) is satisfiable exactly when the latest write-back is before o,
// so a model where o is held shut by a dirty mate is one where the mate really is dirty then.
//
// `start` may be no term (Term{}): the data was there before every encoded event (a slice's line
// mate that arrived Before), so every operation is after it.
Term Encoding::chain_lower(const std::vector<properties::Step>& steps, Term start, Term line,
                           const std::string& prefix, Term* out,
                           const properties::Freshness* fresh) {
  std::vector<Term> cs;
  std::vector<Term> back;  // the mates' write-backs to memory (lower bounds), when there is a step
  if (fresh && fresh->gl2_up >= 0) {
    // Mates that arrived before a slice's events and take the same steps have the same chain
    // (it starts before every encoded event, and a step's bound does not depend on the mate's
    // lines): one chain stands for all of them. Their bounds are only ever asked to be below an
    // operation's time (gl2_open), and the pointwise least of two feasible chains is feasible,
    // so one chain is satisfiable exactly when the copies are. (A frame that rewrites a buffer
    // every block gives a read hundreds of such mates: measured on the 20,000-command
    // no-gl1-invalidate frame, 581 of one kind made the slice's question run out of its rlimit
    // and the whole program was asked instead, for hours; with one chain the slice answers in
    // 3 ms.)
    std::map<std::vector<std::pair<const void*, uint32_t>>, Term> before_chains;
    for (size_t m = 0; m < fresh->mates.size(); ++m) {
      const properties::LineMate& mate = fresh->mates[m];
      const MemAccess& x = p_.accesses[mate.access];
      Term b = ctx_.int_val(0);
      if (before_slice(x.arrive)) {
        std::vector<std::pair<const void*, uint32_t>> key;
        for (const properties::Step& st : mate.steps)
          key.push_back(
              {st.ops.id(), static_cast<uint32_t>(st.level) << 2 | st.down << 1 | st.joins});
        auto [it, first] = before_chains.try_emplace(std::move(key), Term{});
        if (first) {
          cs.push_back(
              chain_lower(mate.steps.items(), Term{}, line, fmt::format("{}.m{}", prefix, m), &b));
          it->second = b;
        }
        b = it->second;
      } else if (has(x.arrive)) {
        cs.push_back(chain_lower(mate.steps.items(), t(x.arrive), line,
                                 fmt::format("{}.m{}", prefix, m), &b));
      }
      back.push_back(b);
    }
  }
  Term prev = start, before_prev = start;
  auto after_point = [&](Term time, Term point) {
    return point == Term{} ? ctx_.bool_val(true) : ctx_.gt(time, point);
  };
  for (size_t j = 0; j < steps.size(); ++j) {
    Term g = ctx_.int_var(fmt::format("{}.g{}", prefix, j));
    const bool gl2_step = fresh && static_cast<int>(j) == fresh->gl2_up;
    for (uint32_t oi : steps[j].ops) {
      const CacheOp& op = p_.cache_ops[oi];
      if (!has(op.ev)) continue;  // a slice's operations Before or After cannot carry the data
      Term after = ctx_.land({covers(op.cov, line), after_point(t(op.ev), prev)});
      if (gl2_step) after = ctx_.land({after, gl2_open(*fresh, oi, line, back)});
      cs.push_back(ctx_.implies(after, ctx_.ge(t(op.ev), g)));

      // A-GL2-WB-BEFORE-INV: an operation of the previous (down) step too crosses this joining
      // (up) step at its own time, once it is after the point before that step.
      if (j > 0 && joins_active(p_, steps[j]) &&
          std::find(steps[j - 1].ops.begin(), steps[j - 1].ops.end(), oi) !=
              steps[j - 1].ops.end()) {
        Term joined = ctx_.land({covers(op.cov, line), after_point(t(op.ev), before_prev)});
        cs.push_back(ctx_.implies(guard({AssumptionId::Gl2WbBeforeInv, true}),
                                  ctx_.implies(joined, ctx_.ge(t(op.ev), g))));
      }
    }
    // A-RB-FILL-ON-ACCESS: the render back-end step is crossed as soon as the data is below it
    // when every fill before that was invalidated since. That crossing time is monotone in the
    // previous step's, so with G_{j-1} a lower bound, G_j stays one.
    if (fresh && static_cast<int>(j) == fresh->rb_up)
      cs.push_back(ctx_.implies(ctx_.land({guard({AssumptionId::RbFillOnAccess, true}),
                                           no_stale_fill(*fresh, j, line, prev)}),
                                ctx_.le(g, prev)));
    before_prev = prev;
    prev = g;
  }
  *out = prev;
  return ctx_.land(cs);
}

// Every fill of the render back-end step's cache before `below` was followed by a covering
// invalidation of that step no later than `below` (a fill outside the encoded part may have run
// at any time: then nothing is known).
Term Encoding::no_stale_fill(const properties::Freshness& f, size_t j, Term line, Term below) {
  std::vector<Term> each;
  for (const properties::RbFill& fill : f.fills) {
    Term relevant = ctx_.land({ctx_.le(ctx_.int_val(static_cast<int64_t>(fill.lo)), line),
                               ctx_.le(line, ctx_.int_val(static_cast<int64_t>(fill.hi)))});
    if (!has(fill.ev)) {
      each.push_back(ctx_.lnot(relevant));
      continue;
    }
    std::vector<Term> cleared = {ctx_.lnot(relevant), ctx_.ge(t(fill.ev), below)};
    for (uint32_t oi : f.steps[j].ops) {
      const CacheOp& op = p_.cache_ops[oi];
      if (!has(op.ev)) continue;
      cleared.push_back(ctx_.land(
          {covers(op.cov, line), ctx_.lt(t(fill.ev), t(op.ev)), ctx_.le(t(op.ev), below)}));
    }
    each.push_back(ctx_.lor(cleared));
  }
  return ctx_.land(each);
}

// A mate outside the encoded part of a cone is taken as in GL2 and dirty throughout: the cone
// stays a relaxation. A slice's mate that arrives Before is in GL2 before every encoded event and
// clean once its way to memory (through the slice's operations) is done; one that arrives After
// has not reached GL2 at any encoded time. A slice's model is replayed on the whole program
// anyway, where a Before operation may have written a mate back that the slice took as dirty
// (then the replay finds no violation and the whole program is asked); taking every such mate as
// dirty throughout made most of a frame's slices for a GL2 line of the render back-ends fail so.
Term Encoding::gl2_open(const properties::Freshness& f, uint32_t oi, Term line,
                        const std::vector<Term>& back) {
  const CacheOp& op = p_.cache_ops[oi];
  std::vector<Term> all_clean;
  for (size_t m = 0; m < f.mates.size(); ++m) {
    const properties::LineMate& mate = f.mates[m];
    const MemAccess& x = p_.accesses[mate.access];
    Term relevant = ctx_.land({ctx_.le(ctx_.int_val(static_cast<int64_t>(mate.lo)), line),
                               ctx_.le(line, ctx_.int_val(static_cast<int64_t>(mate.hi)))});
    if (before_slice(x.arrive)) {
      if (!(back[m] == Term{}))
        all_clean.push_back(ctx_.lor({ctx_.lnot(relevant), ctx_.lt(back[m], t(op.ev))}));
      continue;
    }
    if (!has(x.arrive)) {
      if (!(slice_ && x.arrive != kNoEvent))  // a slice's mate After is clean at every such time
        all_clean.push_back(ctx_.lnot(relevant));
      continue;
    }
    all_clean.push_back(ctx_.lor(
        {ctx_.lnot(relevant), ctx_.gt(t(x.arrive), t(op.ev)), ctx_.lt(back[m], t(op.ev))}));
  }
  Term open = ctx_.land(all_clean);
  if (op.writeback) open = ctx_.lor({guard({AssumptionId::Gl2WbBeforeInv, true}), open});
  return open;
}

Encoding::Query Encoding::violation(const properties::Obligation& o, int qi) {
  Query q = violation_of(o, qi);
  // On a path the write takes only without an assumption: no violation under it.
  if (o.only_without) q.violation = ctx_.land({q.violation, guard({*o.only_without, false})});
  return q;
}

Encoding::Query Encoding::violation_of(const properties::Obligation& o, int qi) {
  using K = properties::Obligation::Kind;
  const std::string prefix = fmt::format("q{}", qi);
  Term line = ctx_.int_var(prefix + ".line");
  auto in_lines = [&](uint64_t lo, uint64_t hi) {
    return ctx_.land({ctx_.le(ctx_.int_val(static_cast<int64_t>(lo)), line),
                      ctx_.le(line, ctx_.int_val(static_cast<int64_t>(hi)))});
  };
  switch (o.kind) {
    case K::Fresh: {
      const MemAccess& w = p_.accesses[o.fresh.write];
      const MemAccess& r = p_.accesses[o.fresh.read];
      Term g;
      Term chain = chain_lower(o.fresh.steps, t(w.arrive), line, prefix, &g, &o.fresh);
      // Executions are interleavings (model/events.h); times may tie only where a tie cannot
      // create a violation. It can between two operations that may each cross two consecutive
      // steps (a GL2 write-back+invalidate on the split RB/TC path: down GL2, then up GL2): tied,
      // neither crosses the second step, while in either order one of them does. Keep them apart.
      std::vector<Term> apart;
      for (size_t j = 0; j + 1 < o.fresh.steps.size(); ++j) {
        std::vector<EventId> both;
        for (uint32_t a : o.fresh.steps[j].ops)
          for (uint32_t b : o.fresh.steps[j + 1].ops)
            if (a == b && has(p_.cache_ops[a].ev)) both.push_back(p_.cache_ops[a].ev);
        for (size_t x = 0; x < both.size(); ++x)
          for (size_t y = x + 1; y < both.size(); ++y)
            if (both[x] != both[y]) apart.push_back(ctx_.ne(t(both[x]), t(both[y])));
      }
      return {ctx_.land(
                  {in_lines(o.fresh.lo, o.fresh.hi), chain, ctx_.ge(g, t(r.ev)), ctx_.land(apart)}),
              line};
    }
    case K::Ordered: {
      std::vector<Term> any;
      for (EventId b : o.ordering.after)
        for (EventId a : o.ordering.before) any.push_back(ctx_.le(t(b), t(a)));
      return {ctx_.lor(any), line};
    }
    case K::WriteOrder: {
      // The earlier data's latest arrival at the meeting level (G) is not before the later
      // data's earliest: its arrival at its first level (properties/obligation.h).
      const MemAccess& w1 = p_.accesses[o.waw.first];
      const MemAccess& w2 = p_.accesses[o.waw.second];
      Term g;
      Term c1 = chain_lower(o.waw.first_steps, t(w1.arrive), line, prefix + ".a", &g);
      return {ctx_.land({in_lines(o.waw.lo, o.waw.hi), c1, ctx_.ge(g, t(w2.arrive))}), line};
    }
    case K::ReadFirst: {
      // The later write's earliest arrival where the read looks is its first level's arrival.
      const MemAccess& r = p_.accesses[o.war.read];
      const MemAccess& w = p_.accesses[o.war.write];
      return {ctx_.land({in_lines(o.war.lo, o.war.hi), ctx_.lt(t(w.arrive), t(r.ev))}), line};
    }
    case K::Race:
      return {ctx_.bool_val(true), line};
  }
  return {ctx_.bool_val(false), line};
}

}  // namespace syncproof::encode
