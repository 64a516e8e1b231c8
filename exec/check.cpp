#include "exec/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "exec/decide.h"
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
  properties::PropertyObligations obligations(p, c.properties);
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
      auto obs = obligations.of(i);
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
