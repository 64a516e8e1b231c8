#pragma once
#include "model/events.h"
#include "properties/verdict.h"
#include "solver/solver.h"

namespace syncproof::encode {

// P-DEADLOCK-FREE, symbolic form. A deadlock is a set of completed commands (a prefix of each
// queue) with consistent times in which every queue has either finished or stopped at a wait that
// nothing completed can satisfy, and some queue has not finished. Satisfiable: violated, with the
// stuck waits as the trace. Limitation (SEMANTICS.md): a label wait counts as satisfied once a
// satisfying value has been written, even if a later write changes it before the poll.
// With `done_prefix` (completed commands per queue), only that state is considered: this is how an
// executor's deadlock is confirmed against the encoding (encode/replay.h).
properties::Verdict check_deadlock(const model::LoweredProgram& p, solver::Context& ctx,
                                   unsigned timeout_ms,
                                   const std::vector<size_t>* done_prefix = nullptr);

}  // namespace syncproof::encode
