#pragma once
// The frame benchmark of syncproof_bench (bench_frames.cpp):
//   frames [N...] [--bug KIND] [--engine smt|exec|both] [--seed S]
//       generated three-queue frames (tools/generate.h generate_frame) of about N commands each,
//       every property checked: median wall time, user CPU time, peak resident memory, time per
//       command and the growth exponent of time and memory between consecutive sizes. Each run
//       is a child process, so its peak memory is its own.
//   frame-text N [--bug KIND] [--seed S]   the case `frames N` checks
#include <cstdint>
#include <string>
#include <vector>

namespace syncproof::bench {

struct FrameOptions {
  std::vector<int> sizes = {1000, 5000, 20000, 50000};
  std::string bug = "none";
  std::string engine = "both";
  uint64_t seed = 1;
  int runs = 3;
  bool no_order_proofs = false;
};

int frames(const FrameOptions& o);
int frame_text(int commands, const std::string& bug, uint64_t seed);

}  // namespace syncproof::bench
