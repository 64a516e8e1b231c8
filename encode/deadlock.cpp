#include "encode/deadlock.h"

#include <fmt/format.h>

#include "encode/wait_values.h"
#include "properties/trace.h"

namespace syncproof::encode {

using namespace model;
using solver::Term;

properties::Verdict check_deadlock(const LoweredProgram& p, solver::Context& ctx,
                                   unsigned timeout_ms, const std::vector<size_t>* done_prefix) {
  const Case& c = *p.source;
  solver::Solver s(ctx, "deadlock");
  std::vector<std::vector<Term>> done(c.queues.size());
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
      done[q].push_back(ctx.bool_var(fmt::format("done.{}.{}", c.queues[q].name, i)));
      if (i > 0) s.add(ctx.implies(done[q][i], done[q][i - 1]));
      if (done_prefix) s.add(i < (*done_prefix)[q] ? done[q][i] : ctx.lnot(done[q][i]));
    }
  auto done_of = [&](EventId e) { return done[p.events[e].queue][p.events[e].cmd]; };
  std::vector<Term> t;
  for (EventId e = 0; e < p.events.size(); ++e) t.push_back(ctx.int_var(fmt::format("dt.{}", e)));
  for (const Order& o : p.orders) {
    Term rel = ctx.lt(t[o.before], t[o.after]);
    s.add(ctx.implies(ctx.land({done_of(o.before), done_of(o.after)}), rel));
  }
  // A wait whose command completed was satisfied by a completed signal or write (or by the
  // initial value); a wait is stuck when nothing completed satisfies it. A wait that is not
  // monotone (model/wait_value.h) passed a poll of the value the completed writes left before
  // it, and is stuck when the value they leave in the end may fail its comparison.
  std::vector<std::vector<Term>> stuck_at(c.queues.size());
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    stuck_at[q].assign(c.queues[q].commands.size(), ctx.bool_val(false));
  // The value assumptions as the configuration has them (no unsat core is asked of this query).
  auto literal = [&](AssumptionId a) { return ctx.bool_val(p.config.assumptions.enabled(a)); };
  for (const WaitRule& w : p.waits) {
    const Event& we = p.events[w.wait];
    Term& stuck = stuck_at[we.queue][we.cmd];
    if (w.deadlock_monotone()) {
      const bool zero_ok = !w.initial.can_fail;  // the initial poll must pass
      std::vector<Term> sat;
      for (EventId cand : w.must_candidates())
        sat.push_back(ctx.land({done_of(cand), ctx.lt(t[cand], t[w.wait])}));
      if (zero_ok) sat.push_back(ctx.bool_val(true));
      s.add(ctx.implies(done_of(w.wait), ctx.lor(sat)));
      std::vector<Term> none;
      for (EventId cand : w.must_candidates()) none.push_back(ctx.lnot(done_of(cand)));
      none.push_back(ctx.bool_val(!zero_ok));
      stuck = ctx.lor({stuck, ctx.land(none)});
      continue;
    }
    const auto& ws = w.word.writers;
    auto later = [&](uint32_t a, uint32_t b) { return ctx.lt(t[ws[b].ev], t[ws[a].ev]); };
    WaitTerms at_poll{ctx, w,
                      [&](uint32_t k) {
                        return ctx.land({done_of(ws[k].ev), ctx.lt(t[ws[k].ev], t[w.wait])});
                      },
                      later, literal};
    WaitTerms in_the_end{ctx, w, [&](uint32_t k) { return done_of(ws[k].ev); }, later, literal};
    s.add(ctx.implies(done_of(w.wait), at_poll.may_pass()));
    stuck = ctx.lor({stuck, in_the_end.may_fail()});
    // Completed events form an interleaving: no ties between the poll and the writes it sees.
    for (size_t a = 0; a < ws.size(); ++a) {
      s.add(ctx.implies(ctx.land({done_of(ws[a].ev), done_of(w.wait)}),
                        ctx.ne(t[ws[a].ev], t[w.wait])));
      for (size_t b = a + 1; b < ws.size(); ++b)
        if ((ws[a].parts & ws[b].parts) && ws[a].ev != ws[b].ev)
          s.add(ctx.implies(ctx.land({done_of(ws[a].ev), done_of(ws[b].ev)}),
                            ctx.ne(t[ws[a].ev], t[ws[b].ev])));
    }
  }
  std::vector<Term> unfinished;
  for (uint32_t q = 0; q < c.queues.size(); ++q) {
    size_t n = c.queues[q].commands.size();
    if (n == 0) continue;
    std::vector<Term> ok = {done[q][n - 1]};
    for (uint32_t i = 0; i < n; ++i) {
      Term first_undone =
          i == 0 ? ctx.lnot(done[q][0]) : ctx.land({done[q][i - 1], ctx.lnot(done[q][i])});
      ok.push_back(ctx.land({first_undone, stuck_at[q][i]}));
    }
    s.add(ctx.lor(ok));
    unfinished.push_back(ctx.lnot(done[q][n - 1]));
  }
  s.add(ctx.lor(unfinished));
  auto r = s.check({}, timeout_ms);
  if (r.status == solver::Status::Unknown)
    return properties::Unknown{fmt::format("{} on 'deadlock-free'", r.reason)};
  if (r.status == solver::Status::Unsat) return properties::Proved{{}, 1};
  properties::Violated v;
  std::vector<std::pair<uint32_t, uint32_t>> stuck;
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i)
      if (!s.bool_value(done[q][i])) {
        stuck.push_back({q, i});
        break;
      }
  std::vector<char> happened(p.events.size(), 0);
  for (EventId e = 0; e < p.events.size(); ++e) happened[e] = s.bool_value(done_of(e)) ? 1 : 0;
  v.trace = properties::deadlock_trace(p, stuck, happened);
  return v;
}

}  // namespace syncproof::encode
