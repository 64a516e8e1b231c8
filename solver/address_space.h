#pragma once
// How much address space the process has left under its limit (RLIMIT_AS: --max-memory, or the
// caller's ulimit -v). Z3 does not survive every failed allocation (solver/z3_calls.h), so
// the solver layer asks before it makes a context.
#include <cstdint>
#include <optional>

namespace syncproof::solver {

// The limit less the address space in use now (/proc/self/statm); nullopt when there is no limit
// or either number cannot be read. 0 when the process is already over its limit.
std::optional<uint64_t> address_space_room();

}  // namespace syncproof::solver
