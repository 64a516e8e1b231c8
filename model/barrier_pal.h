#pragma once
// What AMD's PAL driver emits for a standard barrier on gfx10.3 (the A-BARRIER-PAL lowering), as
// the D3D12XBOX sync flags that name the same operations: the release (stage waits for
// SYNC_BEFORE, RB and stream-out flushes and GL2 work for what ACCESS_BEFORE wrote) and the
// acquire (invalidations for what ACCESS_AFTER reads, the PFP held for PFP-side reads). Research
// §5.3/§5.4 (GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9AcquireReleaseBarrier.cpp:
// GetReleaseEvents, GetCacheSyncOps; gfx9Barrier.cpp), plus what the model's target needs for
// the contract to hold (model/SEMANTICS.md §5, "Standard barriers"). Plain data; shared by the
// lowering (model/lower_barrier.cpp), the cost model and `syncproof barrier`.
#include <cstdint>

#include "model/assumptions.h"
#include "model/barrier.h"

namespace syncproof::model {

struct PalPlan {
  // Bottom of pipe: VS/PS/CS_PARTIAL_FLUSH, IDLE (an end-of-pipe wait), SYNC_CPDMA,
  // COLOR/DEPTH_BLOCK_DATA/META_FLUSH, STREAMOUT_FLUSH, GL2_WRITEBACK | GL2_INVALIDATE.
  uint32_t release = 0;
  // Top of pipe: VCACHE/GL1/KCACHE/MCACHE_INVALIDATE, COLOR/DEPTH_BLOCK_INVALIDATE, PFP_SYNC_ME.
  uint32_t acquire = 0;
};

// `compressed`: some resource of the barrier (any, for a global one) has metadata.
PalPlan pal_plan(const EnhancedBarrier& e, QueueType q, const Target& t, bool compressed);
// The same for a command of a case (its resources, its target).
PalPlan pal_plan(const Case& c, const BarrierCmd& b, QueueType q);

}  // namespace syncproof::model
