#pragma once
// Replaying another engine's counterexample on the executor: an SMT model gives a time per event;
// sorted by time it is an interleaving, which must respect every order and wait rule of the
// lowering and make the concrete monitor report the violation. `syncproof check --engine both`
// runs this on every SMT counterexample; a failure is an encoder (or executor) bug.
#include <cstdint>
#include <string>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::exec {

struct ReplayResult {
  bool ok = false;
  std::string problem;                // when !ok: what went wrong, in the user's vocabulary
  std::vector<model::EventId> order;  // the interleaving replayed
};

// Events with equal times are put in the order least favourable to the obligation (the reader
// first, operations that would complete a chain last), as the monitor reads ties pessimistically.
ReplayResult replay(const model::LoweredProgram& p, const properties::Obligation& o,
                    const std::vector<long long>& times, uint64_t line);

}  // namespace syncproof::exec
