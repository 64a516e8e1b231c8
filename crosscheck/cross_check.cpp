#include "crosscheck/cross_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "encode/replay.h"
#include "exec/replay.h"
#include "properties/result.h"

namespace syncproof::crosscheck {

using namespace model;
using properties::Verdict;
using properties::Violated;

std::string_view to_string(Problem::Kind k) {
  switch (k) {
    case Problem::Kind::Verdict:
      return "verdict";
    case Problem::Kind::SmtReplay:
      return "smt-replay";
    case Problem::Kind::ExecReplay:
      return "exec-replay";
    case Problem::Kind::Internal:
      return "internal";
  }
  return "?";
}

namespace {

bool internal_error(const Verdict& v) {
  auto* e = std::get_if<properties::Error>(&v);
  return e && e->message.rfind("internal", 0) == 0;
}

std::string verdict_text(const Verdict& v) {
  if (auto* e = std::get_if<properties::Error>(&v)) return "error (" + e->message + ")";
  if (auto* u = std::get_if<properties::Unknown>(&v)) return "unknown (" + u->reason + ")";
  return properties::verdict_name(v);
}

std::vector<EventId> order_of(const std::vector<long long>& times) {
  std::vector<EventId> order;
  for (EventId e = 0; e < times.size(); ++e)
    if (times[e] > 0) order.push_back(e);
  std::sort(order.begin(), order.end(), [&](EventId a, EventId b) { return times[a] < times[b]; });
  return order;
}

std::vector<size_t> done_prefix(const LoweredProgram& p, const std::vector<long long>& times) {
  std::vector<size_t> out;
  for (const auto& queue : p.commands) {
    size_t n = 0;
    while (n < queue.size() && std::all_of(queue[n].events.begin(), queue[n].events.end(),
                                           [&](EventId e) { return times[e] > 0; }))
      ++n;
    out.push_back(n);
  }
  return out;
}

struct Replayer {
  const Case& c;
  const LoweredProgram& p;
  unsigned timeout_ms;
  CrossResult& out;
  // The replays' Z3 contexts (encode/replay.h: their answers do not depend on the context).
  std::shared_ptr<solver::ContextPool> pool;

  const properties::Obligation* obligation(size_t prop, int index, properties::Obligations& keep) {
    keep = properties::obligations_for(p, c.properties[prop]);
    if (index < 0 || static_cast<size_t>(index) >= keep.list.size()) return nullptr;
    return &keep.list[static_cast<size_t>(index)];
  }

  // Whether the other engine confirms a counterexample (deadlocks: only the executor's can be).
  bool smt_confirmed(size_t prop, const Violated& v) {
    if (c.properties[prop].kind == PropertyKind::DeadlockFree) return false;
    properties::Obligations obs;
    const auto* o = obligation(prop, v.witness.obligation, obs);
    return o && exec::replay(p, *o, v.witness.times, v.witness.line).ok;
  }
  bool exec_confirmed(size_t prop, const Violated& v) {
    if (c.properties[prop].kind == PropertyKind::DeadlockFree)
      return encode::smt_accepts_deadlock(p, done_prefix(p, v.witness.times), timeout_ms, pool) ==
             encode::Accepts::Yes;
    properties::Obligations obs;
    const auto* o = obligation(prop, v.witness.obligation, obs);
    return o && encode::smt_accepts(p, *o, order_of(v.witness.times), v.witness.line, timeout_ms,
                                    pool) == encode::Accepts::Yes;
  }

  void smt_counterexample(size_t prop, const Violated& v) {
    if (c.properties[prop].kind == PropertyKind::DeadlockFree) return;  // verdicts compared
    properties::Obligations obs;
    const auto* o = obligation(prop, v.witness.obligation, obs);
    if (!o) {
      out.problems.push_back({Problem::Kind::SmtReplay, prop, "the SMT engine kept no witness"});
      return;
    }
    auto r = exec::replay(p, *o, v.witness.times, v.witness.line);
    if (r.ok)
      ++out.smt_replayed;
    else
      out.problems.push_back({Problem::Kind::SmtReplay, prop,
                              fmt::format("the SMT counterexample for '{}' (line unit {}) does "
                                          "not replay on the executor: {}",
                                          o->name, v.witness.line, r.problem)});
  }

  void exec_counterexample(size_t prop, const Violated& v) {
    encode::Accepts a;
    std::string name = "deadlock-free";
    if (c.properties[prop].kind == PropertyKind::DeadlockFree) {
      a = encode::smt_accepts_deadlock(p, done_prefix(p, v.witness.times), timeout_ms, pool);
    } else {
      properties::Obligations obs;
      const auto* o = obligation(prop, v.witness.obligation, obs);
      if (!o) {
        out.problems.push_back({Problem::Kind::ExecReplay, prop, "the executor kept no witness"});
        return;
      }
      name = o->name;
      a = encode::smt_accepts(p, *o, order_of(v.witness.times), v.witness.line, timeout_ms, pool);
    }
    if (a == encode::Accepts::Yes)
      ++out.exec_confirmed;
    else if (a == encode::Accepts::Unknown)
      out.notes.push_back(
          fmt::format("{}: the SMT engine could not decide the executor's "
                      "counterexample for '{}' in time",
                      properties::property_text(c, c.properties[prop]), name));
    else
      out.problems.push_back(
          {Problem::Kind::ExecReplay, prop,
           fmt::format("the executor's counterexample for '{}' (line unit {}) is not an "
                       "execution of the SMT encoding (asserted as a strict order of all events "
                       "plus the violation: unsat)",
                       name, v.witness.line)});
  }
};

}  // namespace

CrossResult cross_check(const Case& c, const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                        std::shared_ptr<solver::ContextPool> replays) {
  // One lowering for both engines and the replays (when both options select the same model, as
  // the command line's always do); its time is the SMT engine's, as when it runs alone.
  const auto t0 = std::chrono::steady_clock::now();
  const LoweredProgram p = lower(c, config_for(c, smt.profile, smt.assume, smt.target));
  return cross_check(c, p, properties::ms_since(t0), smt, ex, std::move(replays));
}

CrossResult cross_check(const Case& c, const LoweredProgram& p, double lowering,
                        const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                        std::shared_ptr<solver::ContextPool> replays) {
  CrossResult out;
  out.smt = encode::check_case(c, p, smt);
  out.smt.ms += lowering, out.smt.prepare_ms += lowering;
  out.exec = p.config == config_for(c, ex.profile, ex.assume, ex.target)
                 ? exec::check_case(c, p, ex)
                 : exec::check_case(c, ex);
  if (!replays) replays = std::make_shared<solver::ContextPool>(1);
  Replayer rep{c, p, smt.timeout_ms, out, std::move(replays)};
  for (size_t i = 0; i < c.properties.size(); ++i) {
    const Verdict& a = out.smt.results[i].verdict;
    const Verdict& b = out.exec.results[i].verdict;
    const std::string prop = properties::property_text(c, c.properties[i]);
    if (internal_error(a) || internal_error(b)) {
      out.problems.push_back({Problem::Kind::Internal, i,
                              fmt::format("smt: {}; exec: {}", verdict_text(a), verdict_text(b))});
      continue;
    }
    const bool unknown = std::holds_alternative<properties::Unknown>(a) ||
                         std::holds_alternative<properties::Unknown>(b);
    if (unknown) {
      if (a.index() != b.index())
        out.notes.push_back(
            fmt::format("{}: smt {}, exec {}", prop, verdict_text(a), verdict_text(b)));
      continue;
    }
    if (a.index() != b.index()) {
      out.problems.push_back({Problem::Kind::Verdict, i,
                              fmt::format("smt {}, exec {}", verdict_text(a), verdict_text(b))});
      continue;
    }
    if (auto* v = std::get_if<Violated>(&a)) rep.smt_counterexample(i, *v);
    if (auto* v = std::get_if<Violated>(&b)) rep.exec_counterexample(i, *v);
  }
  return out;
}

std::string agreed_expectation(const Case& c, const CrossResult& x, const Problem& pb,
                               unsigned timeout_ms) {
  if (pb.kind == Problem::Kind::SmtReplay || pb.kind == Problem::Kind::ExecReplay)
    return "refute";  // both engines found a violation
  if (pb.kind != Problem::Kind::Verdict) return "check";
  LoweredProgram p = lower(c, x.smt.config);
  CrossResult scratch;
  Replayer rep{c, p, timeout_ms, scratch, std::make_shared<solver::ContextPool>(1)};
  const Verdict& a = x.smt.results[pb.property].verdict;
  const Verdict& b = x.exec.results[pb.property].verdict;
  auto* va = std::get_if<Violated>(&a);
  auto* vb = std::get_if<Violated>(&b);
  if (va && std::holds_alternative<properties::Proved>(b))
    return rep.smt_confirmed(pb.property, *va) ? "refute" : "prove";
  if (vb && std::holds_alternative<properties::Proved>(a))
    return rep.exec_confirmed(pb.property, *vb) ? "refute" : "prove";
  return "check";
}

}  // namespace syncproof::crosscheck
