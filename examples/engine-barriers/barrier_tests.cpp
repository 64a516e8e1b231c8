// The engine's unit test: record a compute pass through the engine's real barrier code and ask
// syncproof whether the consumer sees the producer's writes. Exit code 0 when every property
// comes out as the test states it.
#include <syncproof/record.h>
#include <syncproof/version.h>

#include <cstdio>

#include "barriers.h"

namespace sp = syncproof::record;

struct Flags {
  static constexpr uint32_t D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH =
      sp::d3d12::D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH;
  static constexpr uint32_t D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE =
      sp::d3d12::D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE;
  static constexpr uint32_t D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE =
      sp::d3d12::D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE;
  static constexpr uint32_t D3D12XBOX_SYNC_CONTROL_FLAG_NONE =
      sp::d3d12::D3D12XBOX_SYNC_CONTROL_FLAG_NONE;
  static constexpr uint64_t D3D12XBOX_FLUSH_RANGE_ALL = sp::d3d12::D3D12XBOX_FLUSH_RANGE_ALL;
};

static bool check(bool with_gl1) {
  sp::Recorder rec(with_gl1 ? "particles: simulate -> render" : "particles without GL1");
  sp::CommandQueue& acs = rec.CreateCommandQueue("acs", sp::QueueType::Compute);
  sp::Resource particles = rec.CreateBuffer("particles", 0x10000, 0x4000);
  sp::CommandList cl;
  cl.Label("simulate");
  cl.Dispatch(64, 1, 1, {sp::Writes(particles, sp::Kind::Uav)});
  engine::uav_to_srv<sp::CommandList, Flags>(cl, with_gl1);
  cl.Label("shade");
  cl.Dispatch(64, 1, 1, {sp::Reads(particles, sp::Kind::Srv)});
  acs.ExecuteCommandLists({&cl});
  if (with_gl1)
    rec.Prove(sp::Visible("simulate", "shade"));
  else
    rec.Refute(sp::Visible("simulate", "shade"), {"GL1_INVALIDATE"});
  sp::Result r = rec.Verify();
  std::printf("%s", r.report().c_str());
  return r.ok();
}

int main() {
  std::printf("syncproof %s\n", SYNCPROOF_VERSION);
  const bool ok = check(true) && check(false);
  std::printf("%s\n", ok ? "barrier tests passed" : "barrier tests FAILED");
  return ok ? 0 : 1;
}
