#pragma once
// Generated case files: frame-shaped multi-queue streams for benchmarks (and, later, the random
// case generator of `syncproof fuzz`). Deterministic for a given seed.
#include <cstdint>
#include <string>

namespace syncproof::cli {

struct StreamShape {
  uint64_t seed = 1;
  int commands = 100;        // total commands over all queues (approximately)
  int queues = 3;            // 1 graphics + (queues-1) compute
  bool synchronized = true;  // emit the syncs a correct engine would (no-hazards holds)
};

// A case file text: each queue works on its own buffers, hands some to another queue through a
// fence every few commands, and (when synchronized) puts CS_PARTIAL_FLUSH + GL0/GL1
// invalidations between dependent dispatches. Ends with `prove no-hazards` (or `check` when not
// synchronized) and `prove deadlock-free`.
std::string generate_stream(const StreamShape& s);

}  // namespace syncproof::cli
