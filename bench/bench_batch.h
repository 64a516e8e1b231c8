#pragma once
// The batch benchmarks of syncproof_bench (bench_batch.cpp):
//   batch [DIR]          `check --jobs 1` against `--jobs 2` over a directory: wall time
//                        (median), speed-up, and whether the two outputs are identical
//   batch-generated N C  the same over N generated streams of about C commands each
//   formats [DIR]        the time each report writer (JSON, JUnit, SARIF) adds to a checked run
#include <string>

namespace syncproof::bench {

int batch(const std::string& dir, int runs);
int batch_generated(int count, int commands, int runs);
int formats(const std::string& dir, int runs);

}  // namespace syncproof::bench
