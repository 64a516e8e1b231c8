#pragma once
// Whether event times given from outside the solver (a slice's model extended to the whole
// program, an order the completion fixpoint found) are an execution the model allows, with the
// rules the SMT encoding states (encode/encoding.cpp order_term, wait_term; encode/wait_values.h)
// evaluated on the concrete times. A counterexample or a witness built so is reported only when
// this holds, so its soundness rests here and not on how the times were built.
#include <cstdint>

#include "model/events.h"
#include "properties/monitor.h"

namespace syncproof::properties {

// Whether `t` is an execution of `p` under its configuration, with the assumptions in `dropped`
// (bit per AssumptionId) not assumed — taken as not holding, one of the truths the solver may
// give a literal it does not assume:
//  - every order whose guard holds is strict: t(before) < t(after);
//  - a monotone wait whose rule is active (every assumption it rests on holds) and whose first
//    poll cannot pass comes after one of its candidates;
//  - a wait that is not monotone polls, at its time, a word each part of which holds the latest
//    value write of it that landed strictly before (the initial value if none; any value for
//    good once work wrote it), and that word may pass its comparison (model::poll_outcome).
//    A writer landing at the poll's time, or two writers of one part at one time (other than
//    parts of one event), are no interleaving: false.
bool is_execution(const model::LoweredProgram& p, const Times& t, uint32_t dropped = 0);

}  // namespace syncproof::properties
