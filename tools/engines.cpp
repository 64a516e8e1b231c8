#include "tools/engines.h"

#include <fmt/format.h>

#include "report/text.h"

namespace syncproof::cli {

using crosscheck::cross_check;
using crosscheck::CrossResult;
using crosscheck::Problem;

std::optional<Engine> find_engine(std::string_view name) {
  if (name == "smt") return Engine::Smt;
  if (name == "exec") return Engine::Exec;
  if (name == "both") return Engine::Both;
  return std::nullopt;
}

properties::CaseResult run_engines(EngineRun& run, const model::Case& c,
                                   const model::LoweredProgram* lowered, double lowering_ms) {
  ++run.totals.cases;
  run.notes.clear(), run.problems.clear();
  // The given lowering where it is the one an engine's options ask for (the command line's
  // always do); its time then counts as the engine's own lowering would.
  auto given = [&](const auto& o) {
    return lowered && lowered->config == model::config_for(c, o.profile, o.assume, o.target);
  };
  if (run.engine == Engine::Smt) {
    properties::CaseResult r;
    if (given(run.smt)) {
      r = encode::check_case(c, *lowered, run.smt);
      r.ms += lowering_ms, r.prepare_ms += lowering_ms;  // the SMT engine's preparation
    } else {
      r = encode::check_case(c, run.smt);
    }
    run.totals.smt_ms += r.ms;
    return r;
  }
  if (run.engine == Engine::Exec) {
    properties::CaseResult r;
    if (given(run.exec)) {
      r = exec::check_case(c, *lowered, run.exec);
      r.ms += lowering_ms;
    } else {
      r = exec::check_case(c, run.exec);
    }
    run.totals.exec_ms += r.ms;
    return r;
  }
  CrossResult x = given(run.smt)
                      ? cross_check(c, *lowered, lowering_ms, run.smt, run.exec, run.replays)
                      : cross_check(c, run.smt, run.exec, run.replays);
  run.totals.smt_ms += x.smt.ms, run.totals.exec_ms += x.exec.ms;
  run.totals.smt_replayed += x.smt_replayed, run.totals.exec_confirmed += x.exec_confirmed;
  run.totals.notes += x.notes.size();
  for (const std::string& n : x.notes)
    run.notes.push_back(fmt::format("{}: note: {}\n", c.file, n));
  for (const Problem& pb : x.problems) {
    ++run.totals.problems;
    const model::Property& prop = c.properties[pb.property];
    const report::TextStyle plain;
    run.problems.push_back(fmt::format(
        "{}:{}: ENGINE DISAGREEMENT ({}) on {}: {}\n  the SMT engine:\n{}  the executor:\n{}",
        c.file, prop.loc.line, to_string(pb.kind), report::property_text(c, prop), pb.detail,
        report::property_report(c, prop, x.smt.results[pb.property], plain),
        report::property_report(c, prop, x.exec.results[pb.property], plain)));
  }
  properties::CaseResult r = x.smt;
  r.ms += x.exec.ms;
  for (size_t i = 0; i < r.results.size(); ++i)
    if (std::holds_alternative<properties::Unknown>(r.results[i].verdict))
      r.results[i] = x.exec.results[i];
  return r;
}

}  // namespace syncproof::cli
