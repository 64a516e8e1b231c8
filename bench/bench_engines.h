#pragma once
// The engines benchmarks of syncproof_bench (bench_engines.cpp):
//   engines [DIR]   both engines side by side over the case library: wall time per case, states
//                   explored per case and per second (median, max, total)
//   states CASE [N] the executor's full (unreduced) deadlock-freedom search of one case: every
//                   reachable state, as SPIN explores it (bench/spin_compare.sh)
//   promela CASE    the same state space as a Promela model, for SPIN (bench/promela/)
#include <cstdint>
#include <string>

namespace syncproof::bench {

int engines(const std::string& dir, int runs);
int full_states(const std::string& file, int runs, uint64_t budget = 5'000'000);
int promela(const std::string& file);

}  // namespace syncproof::bench
