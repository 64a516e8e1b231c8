#include "encode/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "encode/deadlock.h"
#include "encode/encoding.h"
#include "properties/monitor.h"
#include "properties/must_order.h"
#include "properties/trace.h"

namespace syncproof::encode {

using namespace model;
using properties::Obligation;

using properties::ms_since;

namespace {

// The model's event times, renumbered densely (1, 2, 3, ...) keeping their order, so the trace
// and the explanation speak of the same small times.
properties::Times model_times(solver::Solver& s, const Encoding& enc, size_t n) {
  properties::Times t(n);
  for (EventId e = 0; e < n; ++e) t[e] = s.int_value(enc.t(e));
  std::vector<long long> sorted(t);
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  for (auto& x : t) x = std::lower_bound(sorted.begin(), sorted.end(), x) - sorted.begin() + 1;
  return t;
}

// Decides the obligations of one property on a solver holding the base encoding.
properties::Verdict decide(const LoweredProgram& p, Encoding& enc, solver::Solver& s,
                           properties::MustOrder* fast, const std::vector<Obligation>& obs,
                           const CheckOptions& opt, int* query_counter) {
  std::set<std::string> used;
  std::optional<properties::Violated> first;
  int failing = 0;
  for (const Obligation& o : obs) {
    if (fast) {
      if (auto used_by_paths = fast->prove(o)) {
        for (AssumptionId a : *used_by_paths) used.insert(std::string(assumption(a).name));
        continue;
      }
    }
    s.push();
    s.set_query_name(o.name);
    auto q = enc.violation(o, (*query_counter)++);
    s.add(q.violation);
    auto r = s.check(enc.assumption_literals(), opt.timeout_ms);
    if (r.status == solver::Status::Unknown) {
      s.pop();
      return properties::Unknown{fmt::format("{} on '{}'", r.reason, o.name)};
    }
    if (r.status == solver::Status::Unsat) {
      for (solver::Term lit : s.unsat_core()) used.insert(enc.assumption_name(lit));
      s.pop();
      continue;
    }
    ++failing;
    if (!first) {
      auto times = model_times(s, enc, p.events.size());
      auto line = static_cast<uint64_t>(s.int_value(q.line));
      auto m = properties::monitor(p, o, times, line);
      if (!m.violated) {
        s.pop();
        return properties::Error{fmt::format(
            "internal: the solver's counterexample for '{}' does not replay on the concrete "
            "monitor (an encoder bug; please report it with --dump-smt2)",
            o.name)};
      }
      properties::Violated v;
      v.trace = properties::violation_trace(p, o, times, m);
      v.witness = {static_cast<int>(&o - obs.data()), times, line};  // for --engine both
      first = std::move(v);
    }
    s.pop();
  }
  if (first) {
    first->failing = failing;
    return *first;
  }
  return properties::Proved{{used.begin(), used.end()}, static_cast<int>(obs.size())};
}

}  // namespace

CaseResult check_case(const Case& c, const CheckOptions& opt) {
  auto t0 = std::chrono::steady_clock::now();
  CaseResult out;
  out.config = config_for(c, opt.profile, opt.assume);
  LoweredProgram p = lower(c, out.config);
  out.events = p.events.size();
  out.constraints = p.orders.size() + p.waits.size();
  solver::ContextOptions so;
  so.timeout_ms = opt.timeout_ms;
  so.rlimit = opt.rlimit;
  so.dump_dir = opt.dump_dir;
  so.minimize_core = true;  // a proof reports the assumptions it needs, not Z3's first core
  solver::Context ctx(so);
  Encoding enc(p, ctx);
  solver::Solver s(ctx, "base");
  for (solver::Term t : enc.base()) s.add(t);
  // Vacuity: a case whose own constraints admit no execution proves everything; say so instead.
  // With order proofs on, the completion fixpoint decides it exactly (a complete fixpoint order
  // is an execution; none exists otherwise) and the solver meets the formula only when an
  // obligation needs it. Without them, the solver decides it.
  const double t_encode = ms_since(t0);
  const bool deadlock_free = properties::all_can_complete(p, true);
  solver::CheckResult base;
  if (opt.order_proofs)
    base.status =
        properties::all_can_complete(p, false) ? solver::Status::Sat : solver::Status::Unsat;
  else
    base = s.check(enc.assumption_literals(), opt.timeout_ms);
  out.prepare_ms = t_encode, out.base_ms = ms_since(t0) - t_encode;
  int counter = 0;
  properties::MustOrder fast(p);
  for (size_t i = 0; i < c.properties.size(); ++i) {
    const Property& prop = c.properties[i];
    auto tp = std::chrono::steady_clock::now();
    properties::Verdict v;
    if (prop.kind == PropertyKind::DeadlockFree) {
      // The fixpoint decides deadlock freedom exactly; the solver is asked only for the stuck
      // state's trace, and must find one.
      if (opt.order_proofs && deadlock_free)
        v = properties::Proved{{}, 1};
      else
        v = check_deadlock(p, ctx, opt.timeout_ms);
      if (opt.order_proofs && std::holds_alternative<properties::Proved>(v) && !deadlock_free)
        v = properties::Error{"internal: the deadlock fixpoint and the solver disagree"};
    } else if (base.status == solver::Status::Unknown) {
      v = properties::Unknown{
          fmt::format("{} while checking that the case has an execution", base.reason)};
    } else if (base.status == solver::Status::Unsat) {
      v = properties::Error{
          "vacuous: the model allows no complete execution of this case (a wait can never be "
          "satisfied; check deadlock-free)"};
    } else {
      auto obs = properties::obligations_for(p, prop);
      if (!obs.error.empty())
        v = properties::Error{obs.error};
      else
        v = decide(p, enc, s, opt.order_proofs ? &fast : nullptr, obs.list, opt, &counter);
    }
    out.results.push_back({i, v, ms_since(tp), as_expected(prop, v)});
  }
  out.ms = ms_since(t0);
  return out;
}

}  // namespace syncproof::encode
