#pragma once
// The engine's barrier code (here a tiny stand-in): written once, generic over the command list,
// so the console build passes an ID3D12GraphicsCommandList and the tests pass syncproof's
// recorder.
#include <cstdint>

namespace engine {

// Flag constants come from the platform header on the console and from syncproof's in tests.
template <class List, class Flags>
void uav_to_srv(List& cl, bool with_gl1_invalidate) {
  cl.SyncBottomOfPipeX(Flags::D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH,
                       Flags::D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0,
                       Flags::D3D12XBOX_FLUSH_RANGE_ALL);
  uint32_t invalidate = Flags::D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE;
  if (with_gl1_invalidate) invalidate |= Flags::D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE;
  cl.SyncTopOfPipeX(invalidate, Flags::D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0,
                    Flags::D3D12XBOX_FLUSH_RANGE_ALL);
}

}  // namespace engine
