#pragma once
// `syncproof check --engine smt|exec|both`: which engine decides a case, and under `both` the
// cross-validation report (tools/cross_check.h) printed with both engines' traces.
#include <optional>
#include <ostream>
#include <string_view>

#include "tools/cross_check.h"

namespace syncproof::cli {

enum class Engine : uint8_t { Smt, Exec, Both };
std::optional<Engine> find_engine(std::string_view name);

struct EngineRun {
  Engine engine = Engine::Smt;
  encode::CheckOptions smt;
  exec::ExecOptions exec;
  // Totals over the cases run so far.
  size_t cases = 0, problems = 0, notes = 0, smt_replayed = 0, exec_confirmed = 0;
  double smt_ms = 0, exec_ms = 0;
  std::string pending;  // under both: the last case's disagreements, printed after its verdicts
};

// Checks one case. The result to report per property is the SMT engine's under `both` (the
// executor's only where the SMT engine gave up); every problem is counted and its report (with
// both engines' verdicts and traces) left in run.pending for the caller to print.
properties::CaseResult run_engines(EngineRun& run, const model::Case& c);

// Under `both`: one line of totals. Nothing otherwise.
void print_engine_summary(std::ostream& out, const EngineRun& run);

}  // namespace syncproof::cli
