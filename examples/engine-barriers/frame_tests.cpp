// The engine's unit test: the frame recorded through syncproof's device. `frame_tests` proves the
// frame; `frame_tests --no-wait` records it without the graphics queue's wait for the compute
// queue and expects the refutation, with a report naming frame.cpp's lines. Exit code 0 when every
// property comes out as the test states it.
#include <syncproof/d3d12_xs.h>
#include <syncproof/record.h>
#include <syncproof/version.h>

#include <cstdio>
#include <cstring>

#include "frame.h"

namespace sp = syncproof::record;

int main(int argc, char** argv) {
  const bool wait = !(argc > 1 && std::strcmp(argv[1], "--no-wait") == 0);
  std::printf("syncproof %s, C++%ld\n", SYNCPROOF_VERSION, __cplusplus / 100 % 100);
  sp::Recorder rec(wait ? "particles frame" : "particles frame without the wait for compute");
  engine::render_frame(rec.Device(), {wait});
  if (wait) {
    rec.Prove(sp::Visible("simulate", "draw"));
    rec.Prove(sp::Visible("draw", "post"));
    rec.Prove(sp::DeadlockFree());
  } else {
    rec.Refute(sp::Visible("simulate", "draw"));
  }
  const sp::Result r = rec.Verify();
  std::printf("%s", r.report().c_str());
  bool ok = r.ok();
  // The refutation names the engine's own lines.
  if (!wait && r.report().find("frame.cpp:") == std::string::npos) ok = false;
  std::printf("%s\n", ok ? "frame tests passed" : "frame tests FAILED");
  return ok ? 0 : 1;
}
