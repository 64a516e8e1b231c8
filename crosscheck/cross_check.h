#pragma once
// Both engines on one case, compared: verdicts must agree (an unknown on one side is only noted),
// every SMT counterexample must replay on the executor (exec/replay.h) and every executor
// counterexample must be accepted by the SMT encoding (encode/replay.h). Used by
// `syncproof check --engine both`, `syncproof fuzz`, and to confirm every fix (fix_engines.h) the
// CLI and the recorder give.
#include <memory>
#include <string>
#include <vector>

#include "encode/check.h"
#include "exec/check.h"
#include "solver/context_pool.h"

namespace syncproof::crosscheck {

struct Problem {
  enum class Kind : uint8_t {
    Verdict,     // proved on one side, violated (or an error) on the other
    SmtReplay,   // an SMT counterexample does not replay on the executor
    ExecReplay,  // an executor counterexample is rejected by the SMT encoding
    Internal,    // an engine reported an internal error
  } kind;
  size_t property;     // index into Case::properties
  std::string detail;  // one or more lines, no trailing newline
};
std::string_view to_string(Problem::Kind k);  // "verdict", "smt-replay", ...

struct CrossResult {
  properties::CaseResult smt, exec;
  std::vector<Problem> problems;
  std::vector<std::string> notes;  // unknown on one side, replays the SMT could not decide
  size_t smt_replayed = 0;         // SMT counterexamples reproduced by the executor
  size_t exec_confirmed = 0;       // executor counterexamples accepted by the SMT encoding
};

// The SMT replays of executor counterexamples take their Z3 contexts from `replays` (a pool for
// this call when none is given): their answers are a status alone (encode/replay.h), so one pool
// can serve a whole batch, on any number of threads.
CrossResult cross_check(const model::Case& c, const encode::CheckOptions& smt,
                        const exec::ExecOptions& ex,
                        std::shared_ptr<solver::ContextPool> replays = {});
// The same on a lowering already made under the SMT options (`lowering_ms`: its time, the SMT
// engine's as above).
CrossResult cross_check(const model::Case& c, const model::LoweredProgram& p, double lowering_ms,
                        const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                        std::shared_ptr<solver::ContextPool> replays = {});

// The verdict both engines should agree on for a problem's property: "refute" when a
// counterexample is confirmed by the other engine's independent check (the SMT model replays on
// the executor, or the executor's interleaving satisfies the SMT encoding), "prove" when the only
// counterexample is rejected by that check, "check" when it cannot be told (errors).
std::string agreed_expectation(const model::Case& c, const CrossResult& x, const Problem& pb,
                               unsigned timeout_ms);

}  // namespace syncproof::crosscheck
