#pragma once
// The engine's frame (a small stand-in): particles simulated on the async-compute queue and drawn
// on the graphics queue, then post-processed. Written against the D3D12 interfaces only: on the
// console it includes the SDK's d3d12_xs.h; in the engine's Linux tests, syncproof's.
#include <syncproof/d3d12_xs.h>

namespace engine {

struct FrameOptions {
  bool wait_for_simulation = true;  // the graphics queue waits for the compute queue's fence
};

// Creates the frame's queues and resources on `device`, records the frame and submits it.
void render_frame(ID3D12Device* device, const FrameOptions& options);

}  // namespace engine
