#pragma once
// Generated case files: frame-shaped multi-queue streams for benchmarks (and, later, the random
// case generator of `syncproof fuzz`). Deterministic for a given seed.
#include <cstdint>
#include <string>
#include <string_view>

namespace syncproof::cli {

struct StreamShape {
  uint64_t seed = 1;
  int commands = 100;        // total commands over all queues (approximately)
  int queues = 3;            // 1 graphics + (queues-1) compute
  bool synchronized = true;  // emit the syncs a correct engine would (no-hazards holds)
};

// A case file text: each queue works on its own buffers, hands some to another queue through a
// fence every few commands, and (when synchronized) puts CS_PARTIAL_FLUSH + GL0/GL1
// invalidations between dependent dispatches. Ends with `prove no-hazards` (or `check` when not
// synchronized) and `prove deadlock-free`.
std::string generate_stream(const StreamShape& s);

// One needed flag or wait a generated frame can leave out (`--bug`), in the middle block.
enum class FrameBug : uint8_t {
  None,
  NoGl1Invalidate,  // compute's GL1 invalidation before it samples the G-buffer
  NoLabelWait,      // compute's wait for the G-buffer label
  NoGl2Writeback,   // the GL2 write-back on graphics' G-buffer label
  NoSyncCpdma,      // SYNC_CPDMA between graphics' upload copy and the draws reading it
};
std::string_view to_string(FrameBug b);

struct FrameShape {
  uint64_t seed = 1;
  int commands = 1000;  // total over the three queues (approximately: whole blocks)
  FrameBug bug = FrameBug::None;
};

// A frame on three queues (graphics, async compute, the CPU) that share resources through fences
// and labels: the CPU uploads staging data that CP DMA copies feed to both GPU queues, async
// compute consumes the G-buffer and produces lighting for graphics, graphics reads the frame back
// for the CPU (tools/generate_frame.cpp). Ends with visible/ordered properties about the middle
// block, `no-hazards` and `deadlock-free`, all proved — or, with a bug, the ones it breaks
// refuted.
std::string generate_frame(const FrameShape& s);

}  // namespace syncproof::cli
