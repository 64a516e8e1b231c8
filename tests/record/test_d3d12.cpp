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
