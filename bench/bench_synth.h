#pragma once
// Benchmarks of the synthesis (synth/): `syncproof fix` per case (each bundled frame), and
// `syncproof barrier --table` as a whole. Medians of --runs repetitions, one table each.
#include <string>

namespace syncproof::bench {

// Every case under `dir` with a property that is not proved: fix --all's time (median), engine
// calls, the fix's cost and status.
int fix(const std::string& dir, int runs);
// `BINARY barrier --table -j JOBS`: wall time (median) and rows.
int barrier_table(const std::string& binary, int jobs, int runs);

}  // namespace syncproof::bench
