#include "encode/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <set>

#include "encode/deadlock.h"
#include "encode/encoding.h"
#include "encode/part_questions.h"
#include "encode/property_core.h"
#include "properties/completion.h"
#include "properties/deadlock_rules.h"
#include "properties/monitor.h"
#include "properties/must_order.h"
#include "properties/trace.h"
#include "solver/smtlib.h"

namespace syncproof::encode {

using namespace model;
using properties::Obligation;

using properties::ms_since;
using namespace detail;

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

// The solver and the case's base encoding, made when a first question reaches the solver
// (creating a Z3 context and encoding the case cost more than most cases take otherwise).
struct SolverState {
  SolverState(const LoweredProgram& p, const solver::ContextOptions& so)
      : ctx(so), enc(p, ctx), s(ctx, "base") {
    for (solver::Term t : enc.base()) s.add(t);
  }
  solver::Context ctx;
  Encoding enc;
  solver::Solver s;
};
using GetSolver = std::function<SolverState&()>;

// Why a question about the whole program is not asked, if it is not
// (CheckOptions::whole_question_events).
std::optional<std::string> whole_refused(const LoweredProgram& p, const CheckOptions& opt) {
  if (opt.rlimit == 0 || p.events.size() <= opt.whole_question_events) return std::nullopt;
  return fmt::format(
      "not asked: the whole program has {} lowered events, more than the {} a solver question "
      "takes in within --rlimit (--rlimit 0 asks it; --engine exec decides it)",
      p.events.size(), opt.whole_question_events);
}

// Decides the obligations of one property: by must-happen-before paths (`fast`), slices and
// cones where they answer, else on the solver holding the base encoding.
properties::Verdict decide(const LoweredProgram& p, const GetSolver& smt,
                           properties::MustOrder* fast, const std::vector<Obligation>& obs,
                           const solver::ContextOptions& so, const CheckOptions& opt,
                           int* query_counter, Slicing* slicing, size_t* sliced,
                           size_t* sliced_rechecks, Cones* cones) {
  std::set<std::string> used;
  std::vector<SolverProof> proofs;
  std::vector<const Obligation*> by_paths;  // proved by must-happen-before paths
  std::vector<uint32_t> path_lists;         // and the assumptions of their paths
  std::optional<properties::Violated> first;
  int failing = 0, undecided = 0;
  // After the first counterexample, the obligations from `o` on (properties::count_left).
  auto leave_rest = [&](const Obligation& o) {
    properties::count_left(std::span(obs).subspan(static_cast<size_t>(&o - obs.data())), failing,
                           undecided);
  };
  for (const Obligation& o : obs) {
    if (first && opt.first_violation) {  // the first in order: the same one either way
      undecided = static_cast<int>(obs.data() + obs.size() - &o);
      break;
    }
    // After the first counterexample a violation is only counted (the base check found an
    // execution).
    if (first && o.always_violated()) {
      ++failing;
      continue;
    }
    if (fast) {
      if (auto mask = fast->paths(o)) {
        by_paths.push_back(&o), path_lists.push_back(*mask);
        continue;
      }
    }
    // Only a question the must-happen-before paths could not answer: mostly a violation, which a
    // slice finds. Under --no-order-proofs most questions are proofs, and a slice proves nothing.
    if (fast && opt.slice && p.events.size() > opt.slice_above) {
      // After the first counterexample, a violation is only counted: its trace is never read.
      const int index = static_cast<int>(&o - obs.data());
      if (first ? sliced_run(p, o, so, opt, query_counter, slicing, false).has_value()
                : (first = sliced_violation(p, o, index, so, opt, query_counter, slicing))
                      .has_value()) {
        ++failing, ++*sliced;
        continue;
      }
    }
    // Under --no-order-proofs most questions are proofs: each is first asked of its cone.
    if (!fast && opt.slice) {
      if (auto used = cone_proof(p, o, so, opt, query_counter, cones)) {
        proofs.push_back({&o, literals_for(smt().enc, *used), true});
        continue;
      }
    }
    if (auto why = whole_refused(p, opt)) {
      if (first) {  // as for an unknown answer: the counterexample stands
        leave_rest(o);
        break;
      }
      return properties::Unknown{fmt::format("{} on '{}'", *why, o.name)};
    }
    Encoding& enc = smt().enc;
    solver::Solver& s = smt().s;
    s.push();
    s.set_query_name(o.name);
    auto q = enc.violation(o, (*query_counter)++);
    s.add(q.violation);
    auto r = s.check(enc.assumption_literals(), opt.timeout_ms);
    if (r.status == solver::Status::Unknown) {
      s.pop();
      // A counterexample already found stands: the property is violated whatever the rest says.
      if (first) {
        leave_rest(o);
        break;
      }
      return properties::Unknown{fmt::format("{} on '{}'", r.reason, o.name)};
    }
    if (r.status == solver::Status::Unsat) {
      proofs.push_back({&o, s.unsat_core()});
      s.pop();
      continue;
    }
    ++failing;
    if (!first) {
      const bool extra = separate_ties(p, enc, s, o, opt, enc.assumption_literals());
      auto times = model_times(s, enc, p.events.size());
      auto line = static_cast<uint64_t>(s.int_value(q.line));
      if (extra) s.pop();
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
    first->undecided = undecided;
    return *first;
  }
  if (!opt.assumption_lists) {
    cones->for_usable.clear();
    return properties::Proved{{}, static_cast<int>(obs.size())};
  }
  if (!by_paths.empty())
    for (AssumptionId a : properties::assumption_set(fast->minimize(by_paths, &path_lists)))
      used.insert(std::string(assumption(a).name));
  auto names_of = [&](const std::vector<solver::Term>& assumed) {
    std::vector<std::string> names;
    for (solver::Term lit : assumed) names.push_back(smt().enc.assumption_name(lit));
    return names;
  };
  const Recheck cheap = [&](const Obligation& o, bool by_cone,
                            const std::vector<solver::Term>& assumed) {
    PartAnswer a;
    if (!by_cone) return a;
    const std::vector<std::string> names = names_of(assumed);
    if (auto ids = cone_proof(p, o, so, opt, query_counter, cones, &names)) {
      a.status = solver::Status::Unsat;
      a.core = literals_for(smt().enc, *ids);
    } else if (p.events.size() > opt.slice_above &&
               sliced_run(p, o, so, opt, query_counter, slicing, false, &names)) {
      a.status = solver::Status::Sat;
      ++*sliced_rechecks;
    }
    return a;
  };
  // The whole program: in a large program its contracted question, else the whole encoding.
  const Recheck whole = [&](const Obligation& o, bool, const std::vector<solver::Term>& assumed) {
    PartAnswer a;
    a.status = solver::Status::Sat;  // kept, as an unknown keeps it
    if (whole_refused(p, opt)) return a;
    if (opt.slice && p.events.size() > opt.slice_above) {
      const std::vector<std::string> names = names_of(assumed);
      WholeAnswer w = contracted_whole(p, &o, so, opt, query_counter, cones, &names);
      if (w.r.status == solver::Status::Unsat)
        a.status = solver::Status::Unsat, a.core = literals_for(smt().enc, w.core);
      return a;
    }
    SolverState& st = smt();
    st.s.push();
    st.s.set_query_name(o.name);
    st.s.add(st.enc.violation(o, (*query_counter)++).violation);
    if (st.s.check(assumed, opt.timeout_ms).status == solver::Status::Unsat)
      a.status = solver::Status::Unsat, a.core = st.s.unsat_core();
    st.s.pop();
    return a;
  };
  if (!proofs.empty())
    for (solver::Term lit : property_core(smt().enc, proofs, used, cheap, whole))
      used.insert(smt().enc.assumption_name(lit));
  // Their assumption sets are this property's minimization's: the next property tries others.
  cones->for_usable.clear();
  return properties::Proved{{used.begin(), used.end()}, static_cast<int>(obs.size())};
}

// P-DEADLOCK-FREE: the fixpoint decides it when every wait is monotone and the solver is asked
// only for the stuck state's trace; otherwise the solver decides it (the fixpoint's "no" still
// stands). A proof lists the assumptions it needs (properties/deadlock_rules.h).
// `fixpoint`: properties::all_can_complete(p, true), when known already.
properties::Verdict decide_deadlock(
    const Case& c, const LoweredProgram& p, const GetSolver& smt, const CheckOptions& opt,
    bool monotone, const std::function<std::optional<bool>(const LoweredProgram&)>& proved,
    std::optional<bool> known_fixpoint = std::nullopt) {
  const bool fixpoint = known_fixpoint ? *known_fixpoint : properties::all_can_complete(p, true);
  properties::Verdict v;
  if (opt.order_proofs && fixpoint && monotone) {
    v = properties::Proved{{}, 1};
  } else {
    v = check_deadlock(p, smt().ctx, opt.timeout_ms);
    if (opt.order_proofs && !fixpoint && std::holds_alternative<properties::Proved>(v))
      return properties::Error{"internal: the deadlock fixpoint and the solver disagree"};
  }
  if (auto* pr = std::get_if<properties::Proved>(&v); pr && opt.assumption_lists)
    pr->assumptions = properties::deadlock_assumptions(c, p, proved);
  return v;
}

// --dump-smt2 file names start with the case's path (without ".sync") and a hash of the whole
// path, so that the cases of a batch can share one directory and paths that read alike once made
// file names ("a/b_c.sync", "a_b/c.sync") still get their own files: "cases/a/b.sync" ->
// "cases_a_b-1f0c55e2.".
std::string dump_prefix(const std::string& file) {
  if (file.empty()) return "case.";
  uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char ch : file) h = (h ^ ch) * 16777619u;
  return fmt::format(
      "{}-{:08x}.", solver::file_stem(std::filesystem::path(file).replace_extension().string()), h);
}

CaseResult check_lowered(const Case& c, const LoweredProgram& p, const CheckOptions& opt,
                         std::chrono::steady_clock::time_point t0) {
  CaseResult out;
  out.config = p.config;
  out.events = p.events.size();
  out.constraints = p.orders.size() + p.waits.size();
  solver::ContextOptions so;
  so.timeout_ms = opt.timeout_ms;
  so.rlimit = opt.rlimit;
  so.dump_dir = opt.dump_dir;
  so.pool = opt.contexts;
  if (opt.dump_dir) so.dump_prefix = dump_prefix(c.file);
  // A proof reports the assumptions it needs, not Z3's first core: decide() minimizes them once
  // per property (property_core), so the solver's per-check minimization stays off.
  so.minimize_core = false;
  std::unique_ptr<SolverState> state;
  const GetSolver smt = [&]() -> SolverState& {
    if (!state) state = std::make_unique<SolverState>(p, so);
    return *state;
  };
  // Vacuity: a case whose own constraints admit no execution proves everything; say so instead.
  // With order proofs on, the completion fixpoint decides it when every wait is monotone (a
  // complete fixpoint order is an execution; none exists otherwise), and its "no" is final
  // anyway; otherwise the solver decides it.
  const double t_encode = ms_since(t0);
  const bool monotone = properties::all_waits_monotone(p);
  int counter = 0;
  Cones cones;
  Slicing slicing;
  solver::CheckResult base;
  if (opt.order_proofs && (monotone || !properties::all_can_complete(p, false)))
    base.status =
        properties::all_can_complete(p, false) ? solver::Status::Sat : solver::Status::Unsat;
  // A wait that is not monotone: the fixpoint's order is an execution when each such wait
  // polls a value that passes there (checked on the concrete times). Z3 finds a large program's
  // base question hard (measured: a 2,000-command frame with one EQUAL label wait ran out of the
  // default rlimit in 4 s).
  else if (opt.order_proofs && slicing.made(p).execution())
    base.status = solver::Status::Sat;
  else if (auto why = whole_refused(p, opt))
    base.reason = *why;  // Unknown
  else if (opt.slice && p.events.size() > opt.slice_above)
    base = contracted_whole(p, nullptr, so, opt, &counter, &cones).r;
  else
    base = smt().s.check(smt().enc.assumption_literals(), opt.timeout_ms);
  out.prepare_ms = t_encode, out.base_ms = ms_since(t0) - t_encode;
  // Deadlock freedom, decided once when a property or the hang rule needs it.
  std::optional<properties::Verdict> deadlock;
  std::optional<bool> fixpoint;  // properties::all_can_complete(p, true), once asked
  auto deadlock_verdict = [&]() -> const properties::Verdict& {
    if (!deadlock) {
      auto proved = [&](const LoweredProgram& q) -> std::optional<bool> {
        if (opt.order_proofs && properties::all_waits_monotone(q, true))
          return properties::all_can_complete(q, true);
        solver::Context scratch(so);
        auto v = check_deadlock(q, scratch, opt.timeout_ms);
        if (std::holds_alternative<properties::Unknown>(v)) return std::nullopt;
        return std::holds_alternative<properties::Proved>(v);
      };
      deadlock = decide_deadlock(c, p, smt, opt, properties::all_waits_monotone(p, true), proved,
                                 fixpoint);
    }
    return *deadlock;
  };
  // Decided first when a property asks for it and the completion fixpoint decides it (no
  // question to the case's solver, so the safety properties' questions and models are the same
  // whenever it runs): its assumption list lowers the case again under fewer assumptions, and
  // that copy of the program is best made before the must-order searches and the obligations
  // exist (it set the SMT engine's peak at 50,000 commands). Its time stays its property's.
  double deadlock_ms = -1;
  const auto td = std::chrono::steady_clock::now();
  if (opt.order_proofs && !opt.contexts && c.asks(PropertyKind::DeadlockFree) &&
      properties::all_waits_monotone(p, true) &&
      *(fixpoint = properties::all_can_complete(p, true))) {
    deadlock_verdict();
    deadlock_ms = ms_since(td);
  }
  properties::MustOrder fast(p);
  properties::PropertyObligations obligations(p, c.properties);
  for (size_t i = 0; i < c.properties.size(); ++i) {
    const Property& prop = c.properties[i];
    auto tp = std::chrono::steady_clock::now();
    properties::Verdict v;
    if (prop.kind == PropertyKind::DeadlockFree) {
      v = deadlock_verdict();
      if (deadlock_ms >= 0) {
        out.results.push_back({i, v, deadlock_ms, as_expected(prop, v)});
        continue;
      }
    } else if (base.status == solver::Status::Unknown) {
      v = properties::Unknown{
          fmt::format("{} while checking that the case has an execution", base.reason)};
    } else if (base.status == solver::Status::Unsat) {
      v = properties::Error{
          "vacuous: the model allows no complete execution of this case (a wait can never be "
          "satisfied; check deadlock-free)"};
    } else {
      auto obs = obligations.of(i);
      // A proof that the hang rule turns into unknown lists nothing: no minimization for it.
      CheckOptions property_opt = opt;
      if (!monotone && !std::holds_alternative<properties::Proved>(deadlock_verdict()))
        property_opt.assumption_lists = false;
      if (!obs.error.empty())
        v = properties::Error{obs.error};
      else
        v = decide(p, smt, opt.order_proofs ? &fast : nullptr, obs.list, so, property_opt, &counter,
                   &slicing, &out.sliced, &out.sliced_rechecks, &cones);
      properties::add_assumptions(v, obs.relies);
      if (!monotone) v = properties::unless_it_hangs(v, deadlock_verdict());
    }
    out.results.push_back({i, v, ms_since(tp), as_expected(prop, v)});
  }
  if (opt.dump_dir && (!state || state->ctx.stats().dumps == 0)) {
    // Say so rather than leave the user looking for a file that was never written.
    solver::write_dump(*opt.dump_dir, solver::file_stem(so.dump_prefix + "no-solver-query"), 1,
                       fmt::format("; syncproof: no question about {} reached the solver: its "
                                   "{} properties were decided without it (must-happen-before "
                                   "paths, the completion fixpoint, or an error found first);\n"
                                   "; --no-order-proofs sends every obligation to Z3\n(exit)\n",
                                   c.file.empty() ? "this case" : c.file, c.properties.size()));
  }
  out.ms = ms_since(t0);
  return out;
}

}  // namespace

CaseResult check_case(const Case& c, const CheckOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();  // the lowering is part of the case's time
  return check_lowered(c, lower(c, config_for(c, opt.profile, opt.assume, opt.target)), opt, t0);
}

CaseResult check_case(const Case& c, const LoweredProgram& p, const CheckOptions& opt) {
  return check_lowered(c, p, opt, std::chrono::steady_clock::now());
}

}  // namespace syncproof::encode
