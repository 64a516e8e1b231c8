#pragma once
// Deciding from the wait structure alone whether every event can complete (deadlock freedom, and
// whether any execution exists), without the solver.
#include "model/events.h"

namespace syncproof::properties {

// P-DEADLOCK-FREE without the solver: the least fixpoint of "can complete" (an event completes
// once everything ordered before it has, and a wait once one of its candidates has, or at once
// when it needs none). Every event completes iff no reachable state is stuck — from any
// down-closed set of completed events, the first event of the fixpoint order missing from it is
// enabled — so this decides exactly the question encode/deadlock.cpp asks the solver.
// Which waits need a candidate differs between the two questions when A-INITIAL-ZERO is off:
// for deadlock freedom (deadlock_rules) an unknown initial value cannot be relied on, so every
// wait needs one unless A-INITIAL-ZERO holds and 0 satisfies it (encode/deadlock.cpp); for
// vacuity (whether any execution exists) such a wait may complete at any time
// (encode/encoding.cpp wait_term).
//
// Exact only when every wait is monotone (WaitRule::monotone): a wait that a later write can hide
// is treated as completing after any of its candidates (safety) or must-candidates (deadlock),
// so then "false" still means what it says and "true" must be confirmed by an engine.
bool all_can_complete(const model::LoweredProgram& p, bool deadlock_rules);
// Whether every wait of the program is monotone (the fixpoint above is then exact).
// deadlock_rules: monotone for the deadlock rules (WaitRule::deadlock_monotone).
bool all_waits_monotone(const model::LoweredProgram& p, bool deadlock_rules = false);

}  // namespace syncproof::properties
