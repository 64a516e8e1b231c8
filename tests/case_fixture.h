#pragma once
// Shared by the unit tests: a case parsed from text (failing the test on any error) and its
// lowering. The lowered program points into the case, so a LoweredCase is not copyable.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "lang/parse.h"
#include "model/events.h"

namespace syncproof::testing {

// The smallest proved producer/consumer pair: a UAV write made visible to an SRV read on one
// compute queue (CS_PARTIAL_FLUSH, then GL0 and GL1 invalidation). Tests append properties.
inline const std::string kUavSrvCommands = R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
)";

// Three races: both queues write three buffers with nothing between them (no-hazards checked).
inline const std::string kThreeRaces = R"(queue acs compute
queue gfx graphics
buffer a 0x10000 0x4000
buffer b 0x20000 0x4000
buffer c 0x30000 0x4000
on acs:
  Dispatch writes a as uav, writes b as uav, writes c as uav
on gfx:
  Dispatch writes a as uav, writes b as uav, writes c as uav
check no-hazards
)";

inline model::Case parse_case_text(const std::string& text) {
  auto pr = lang::parse_case("t.sync", text);
  REQUIRE_MESSAGE(!pr.has_errors(), lang::render_all(pr));
  return pr.c;
}

struct LoweredCase {
  model::Case c;
  model::LoweredProgram p;
  explicit LoweredCase(const std::string& text,
                       std::optional<model::Profile> profile = std::nullopt)
      : c(parse_case_text(text)), p(model::lower(c, model::config_for(c, profile, {}))) {}
  LoweredCase(const LoweredCase&) = delete;
  LoweredCase& operator=(const LoweredCase&) = delete;
};

}  // namespace syncproof::testing
