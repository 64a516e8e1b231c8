// The recording device (Recorder::Device(), <syncproof/d3d12_xs.h>): the example engine's frame,
// written against the D3D12 interfaces only, records as the case it should, is proved, and
// without its cross-queue wait is refuted at its own lines.
#include <doctest/doctest.h>

#include <syncproof/d3d12_xs.h>

#include "examples/engine-barriers/frame.h"
#include "syncproof/record.h"

using namespace syncproof::record;

TEST_CASE("the example frame records through the device and is proved") {
  Recorder rec("frame");
  engine::render_frame(rec.Device(), {true});
  rec.Prove(Visible("simulate", "draw"));
  rec.Prove(Visible("draw", "post"));
  rec.Prove(DeadlockFree());
  const std::string text = rec.CaseText();
  INFO(text);
  const Result r = rec.Verify();
  INFO(r.report());
  CHECK(r.ok());
  // The particle buffer, created in UNORDERED_ACCESS, decays to COMMON when the compute queue's
  // ExecuteCommandLists completes, and the graphics queue's read promotes it: no warning.
  CHECK(r.diagnostics.empty());
  // One `on` block per ExecuteCommandLists; the X calls and the standard transition as called.
  CHECK(text.find("  simulate: Dispatch reads particles as uav in cs, writes particles as uav in "
                  "cs\n") != std::string::npos);
  CHECK(text.find("  draw: DrawInstanced reads particles as srv in vs, writes scene as rt\n") !=
        std::string::npos);
  CHECK(text.find("  ResourceBarrier(TRANSITION, scene, RENDER_TARGET, PIXEL_SHADER_RESOURCE)\n") !=
        std::string::npos);
  CHECK(text.find("  post: DrawInstanced reads scene as srv in ps, writes backbuffer as rt\n") !=
        std::string::npos);
  CHECK(text.find("  Signal2X(simulated, 1)\n") != std::string::npos);
  CHECK(text.find("  WaitX(simulated, 1)\n") != std::string::npos);
  CHECK(text.find("buffer particles 0x100000000 0x4000 state UNORDERED_ACCESS\n") !=
        std::string::npos);
}

TEST_CASE("the example frame without its wait is refuted at the engine's lines") {
  Recorder rec("frame");
  engine::render_frame(rec.Device(), {false});
  rec.Refute(Visible("simulate", "draw"));
  const Result r = rec.Verify();
  INFO(rec.CaseText());
  INFO(r.report());
  CHECK(r.ok());
  REQUIRE(r.properties.size() == 1);
  CHECK(r.report().find("frame.cpp:") != std::string::npos);
}
