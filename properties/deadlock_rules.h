#pragma once
// What both engines do around P-DEADLOCK-FREE in the same way, so they report alike:
//  - which named assumptions a deadlock-freedom proof rests on (found by turning each off in the
//    configuration, lowering again and asking the engine again: the greedy minimization the
//    executor also uses for safety proofs);
//  - the rule that a safety proof covers executions that complete: when a case has a wait that
//    a later write can hide (not monotone, model/wait_value.h), some executions may hang before
//    completing, and a safety proof is then not given unless the case is deadlock-free.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/events.h"
#include "properties/verdict.h"

namespace syncproof::properties {

// `proved(q)`: whether the engine proves deadlock freedom of `q` (nullopt: it gave up). Returns
// the names (sorted) of the assumptions without which it does not.
std::vector<std::string> deadlock_assumptions(
    const model::Case& c, const model::LoweredProgram& p,
    const std::function<std::optional<bool>(const model::LoweredProgram&)>& proved);

// The verdict a safety property gets when its proof holds for complete executions only and the
// case may hang (deadlock: the deadlock-freedom verdict of the case).
Verdict unless_it_hangs(const Verdict& safety, const Verdict& deadlock);
// Whether `v` is the unknown unless_it_hangs gives (not one of a search or solver cut short).
bool may_hang(const Verdict& v);

}  // namespace syncproof::properties
