#pragma once
// Checking an executor's counterexample against the SMT encoding: the execution, asserted as a
// strict order of all events, together with the obligation's violation on that line, must be
// satisfiable. `syncproof check --engine both` runs it on every executor counterexample; a
// rejection is an executor (or encoder) bug. Only encode/ may use the solver, hence it lives here.
//
// The answer is the check's status alone (no model, no core), so both take their Z3 context from
// `pool` when one is given (solver/context_pool.h): a reused context answers as a fresh one
// would, where neither hits a limit.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/events.h"
#include "properties/obligation.h"
#include "solver/context_pool.h"

namespace syncproof::encode {

enum class Accepts : uint8_t { Yes, No, Unknown };

Accepts smt_accepts(const model::LoweredProgram& p, const properties::Obligation& o,
                    const std::vector<model::EventId>& order, uint64_t line,
                    unsigned timeout_ms = 20000,
                    const std::shared_ptr<solver::ContextPool>& pool = {});

// A deadlock found by the executor: the commands each queue completed (a prefix of it) must be a
// deadlock state of encode/deadlock.cpp's encoding.
Accepts smt_accepts_deadlock(const model::LoweredProgram& p, const std::vector<size_t>& done_prefix,
                             unsigned timeout_ms = 20000,
                             const std::shared_ptr<solver::ContextPool>& pool = {});

}  // namespace syncproof::encode
