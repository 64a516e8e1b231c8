#pragma once
// Generated cases for tests that compare two ways of deciding the same thing: the valid fuzz
// cases of seeds 1..`seeds` (tools/fuzz_gen.h), then a frame of `frame_commands` commands
// (tools/generate.h, seed 5) without a bug and with each bug, as (name, text).
#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "tools/fuzz_gen.h"
#include "tools/generate.h"

namespace syncproof::testing {

inline std::vector<std::pair<std::string, std::string>> generated_cases(uint64_t seeds,
                                                                        int frame_commands) {
  std::vector<std::pair<std::string, std::string>> out;
  cli::FuzzShape shape;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    cli::FuzzCase fc = cli::generate_case(seed, shape);
    if (!fc.expect_lint_error) out.emplace_back(fmt::format("fuzz-{}.sync", seed), fc.render());
  }
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                   cli::FrameBug::NoGl2Writeback, cli::FrameBug::NoSyncCpdma}) {
    cli::FrameShape s;
    s.commands = frame_commands, s.bug = bug, s.seed = 5;
    out.emplace_back(fmt::format("frame-{}.sync", cli::to_string(bug)), cli::generate_frame(s));
  }
  return out;
}

// A wait on a label that two value writes of one queue give 1 and then 2: the read's proof cone
// keeps only the first write (A-BOP-FIFO orders the second after it), so its rule "after the
// first" holds only under that assumption (test_proof_cone.cpp, test_exec_cones.cpp).
inline constexpr const char* kTwoLabelWrites = R"(queue gfx graphics
queue acs compute
buffer grid  0x10000 0x4000
buffer other 0x20000 0x4000
label  done  0x700000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  Write32BitValueBottomOfPipe2X(done, 1, NONE, NONE, NONE)
  Dispatch writes other as uav
  Write32BitValueBottomOfPipe2X(done, 2, NONE, NONE, NONE)
on gfx:
  Wait32BitValueX(done, GREATER_EQUAL, 1)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
check visible produce -> consume
)";

}  // namespace syncproof::testing
