#pragma once
// `syncproof check --engine smt|exec|both`: which engine decides a case, and under `both` the
// cross-validation report (crosscheck/cross_check.h) with both engines' traces.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "crosscheck/cross_check.h"
#include "report/run.h"

namespace syncproof::cli {

enum class Engine : uint8_t { Smt, Exec, Both };
std::optional<Engine> find_engine(std::string_view name);

struct EngineRun {
  Engine engine = Engine::Smt;
  encode::CheckOptions smt;
  exec::ExecOptions exec;
  report::EngineTotals totals;  // over the cases run with this object
  // Under both, the Z3 contexts of the SMT replays of executor counterexamples, shared by every
  // case of a run (crosscheck/cross_check.h; under --engine both a context costs about as much
  // as a small case's whole check).
  std::shared_ptr<solver::ContextPool> replays;
  // Under both, for the last case: its notes (one engine undecided where the other decided) and
  // its disagreements (with both engines' verdicts and traces), one text block each.
  std::vector<std::string> notes, problems;
};

// Checks one case. The result to report per property is the SMT engine's under `both` (the
// executor's only where the SMT engine gave up); every problem is counted and its report (with
// both engines' verdicts and traces) left in run.problems for the caller to report.
// `lowered`: the case already lowered under the SMT engine's options (tools/case_limits.h), in
// `lowering_ms`; counted in the engines' times as their own lowering is.
properties::CaseResult run_engines(EngineRun& run, const model::Case& c,
                                   const model::LoweredProgram* lowered = nullptr,
                                   double lowering_ms = 0);

}  // namespace syncproof::cli
