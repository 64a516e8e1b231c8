#include "model/rules.h"

#include <array>

namespace syncproof::model {
namespace {

constexpr std::array<RuleDef, 40> kRules{{
    {Rule::CpOrder, "R-CP-ORDER",
     "each CP engine (PFP, ME, MEC) processes its queue's commands in order",
     "research §3.1: torvalds/linux drivers/gpu/drm/amd/amdgpu/nvd.h; GPUOpen-Drivers/pal "
     "inc/core/palCmdBuffer.h"},
    {Rule::PfpAhead, "R-PFP-AHEAD",
     "the PFP processes a command no later than the ME and may run ahead of it",
     "research §3.2: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9CmdUtil.cpp (BuildPfpSyncMe)"},
    {Rule::WorkLaunch, "R-WORK-LAUNCH",
     "the waves of a draw or dispatch start after the ME has processed it", "research §3.1"},
    {Rule::StageSpan, "R-STAGE-SPAN",
     "a stage's accesses happen between its first wave's start and its last wave's end",
     "research §3.3"},
    {Rule::PsAfterVs, "R-PS-AFTER-VS",
     "a draw's PS waves start no earlier than its VS waves (they may overlap)",
     "research §3.3: mesa src/amd/compiler/README-ISA.md (NO_PC_EXPORT)"},
    {Rule::RbAfterPs, "R-RB-AFTER-PS",
     "the render back-ends finish a draw after its PS waves end; RB writes land in the CB/DB "
     "caches",
     "research §2.3, §3.3: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9Barrier.h "
     "(EopWaitStageMask)"},
    {Rule::WriteArrives, "R-WRITE-ARRIVES",
     "a write reaches its first cache level after it is issued", "research §2.2"},
    {Rule::WaveEndStores, "R-WAVE-END-STORES",
     "a shader store has reached GL2 when its stage's last wave ends", "A-WAVE-END-STORES-IN-GL2"},
    {Rule::Dma, "R-CPDMA",
     "a CP DMA copy runs asynchronously after its engine (ME, or PFP) processed it; its writes are "
     "in GL2 when it completes",
     "seeds 001/004 (PFP has its own CPDMA queue); research §3.7: mesa "
     "src/amd/vulkan/radv_cp_dma.c"},
    {Rule::PfpReadsIndirect, "R-INDIRECT-ARGS",
     "indirect arguments are read by the PFP (graphics) or the MEC (compute) when it processes the "
     "command, through GL2",
     "research §3.1, §3.2: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9Barrier.cpp"},
    {Rule::IndexFetch, "R-INDEX-FETCH",
     "index data is fetched through GL2 at any time between the PFP processing the draw and the "
     "end of its VS waves",
     "research §2.2: mesa src/gallium/drivers/radeonsi/si_barrier.c"},
    {Rule::TopBlocksCp, "R-TOP-BLOCKS-CP",
     "SyncTopOfPipeX blocks the ME until its operations finish; the PFP only with "
     "TOP_SELECT_ENGINE_PFP",
     "seed 001_d183bf6edb5056d6.txt"},
    {Rule::TopOrder, "R-TOP-ORDER",
     "SyncTopOfPipeX runs SYNC_CPDMA, PFP_SYNC_ME, IDLE, *_COHERENCY, *_BLOCK_INVALIDATE, then "
     "GCR, in that order",
     "seed 001_d183bf6edb5056d6.txt"},
    {Rule::CpdmaWait, "R-SYNC-CPDMA",
     "SYNC_CPDMA waits for every earlier CP DMA of the ME (of the PFP with "
     "CPDMA_SELECT_ENGINE_PFP)",
     "seeds 000, 001, 004"},
    {Rule::PfpSyncMe, "R-PFP-SYNC-ME",
     "PFP_SYNC_ME holds the PFP until the ME has processed everything before it",
     "seed 000; research §3.2: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9CmdUtil.cpp"},
    {Rule::Idle, "R-IDLE",
     "IDLE waits until every earlier draw and dispatch of the queue has finished, render back-ends "
     "included",
     "seed 000 (D3D12XBOX_SYNC_FLAG_IDLE)"},
    {Rule::IdleDrains, "R-IDLE-DRAINS",
     "IDLE also waits for earlier writes to reach their first cache level", "A-IDLE-DRAINS-WRITES"},
    {Rule::Coherency, "R-COHERENCY",
     "BASE/COLOR_BLOCK/DEPTH_BLOCK_COHERENCY wait for earlier draws writing that kind of target in "
     "the range",
     "seed 000; research §3.6: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9CmdUtil.cpp (surface "
     "sync)"},
    {Rule::BopAfterWork, "R-BOP-AFTER-WORK",
     "bottom-of-pipe operations start after every earlier draw and dispatch of the queue has "
     "completed",
     "seeds 004_db47ec1ea30cab7f.txt, 002_0f38f14abf452083.txt"},
    {Rule::BopOrder, "R-BOP-ORDER",
     "SyncBottomOfPipeX runs SYNC_CPDMA, partial flushes, CB flushes, DB flushes, STREAMOUT_FLUSH, "
     "GCR, IDLE, PFP_SYNC_ME, in that order; only the first two, IDLE and PFP_SYNC_ME hold the CP",
     "seed 004_db47ec1ea30cab7f.txt; seed 000 (partial flushes hold the CP)"},
    {Rule::PartialFlush, "R-PARTIAL-FLUSH",
     "VS/PS/CS_PARTIAL_FLUSH hold the ME until earlier waves of that stage have ended (not the "
     "render back-ends)",
     "seed 000; research §3.3: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9Barrier.h"},
    {Rule::BopFifo, "R-BOP-FIFO", "bottom-of-pipe operations of one queue complete in issue order",
     "A-BOP-FIFO"},
    {Rule::BopValueWrite, "R-BOP-VALUE",
     "a BOP value write lands after earlier shaders and render back-ends finish, possibly before "
     "their memory writes complete",
     "seed 002_0f38f14abf452083.txt"},
    {Rule::BopWriteAfterGcr, "R-BOP-WRITE-AFTER-GCR",
     "a BOP value write / Signal2X lands after its own cache operations",
     "A-BOP-WRITE-AFTER-OWN-GCR"},
    {Rule::GcrSequence, "R-GCR-SEQUENCE",
     "GCR_SEQUENCE_FORWARD runs cache operations inner level first, GCR_SEQUENCE_REVERSE outer "
     "level first",
     "seed 002; research §1.4: amd-gfx 2020-03-26 ACQUIRE_MEM GCR_CNTL SEQ field"},
    {Rule::GcrOuterFirst, "R-GCR-OUTER-FIRST",
     "the invalidations of one sync act outer level first", "A-GCR-OUTER-FIRST"},
    {Rule::WaitValue, "R-WAIT-VALUE",
     "Wait*BitValueX holds the ME until a write makes the comparison true",
     "seed 002; research §3.8: GPUOpen-Drivers/pal "
     "src/core/hw/gfxip/gfx9/chip/gfx9_plus_merged_pfp_pm4_packets.h"},
    {Rule::QueueWait, "R-QUEUE-WAIT",
     "a queue-level Wait/WaitX holds the whole queue until the fence reaches the value",
     "D3D12 ID3D12CommandQueue::Wait; seed 000 (WaitX)"},
    {Rule::FenceSignal, "R-FENCE-SIGNAL",
     "a queue-level Signal sets the fence after earlier work completed (Signal: including CP DMA; "
     "Signal2X: at the bottom of the pipe)",
     "D3D12 ID3D12CommandQueue::Signal; seed 000 (Signal2X)"},
    {Rule::StdFence, "R-STD-FENCE",
     "Signal flushes the RB, stream-out and GL2 caches and waits for writes; Wait invalidates "
     "every cache",
     "A-STD-FENCE-COHERENT; research §3.4: torvalds/linux drivers/gpu/drm/amd/amdgpu/gfx_v10_0.c"},
    {Rule::HostOrder, "R-HOST-ORDER",
     "the CPU executes a host queue's commands in order; host accesses bypass GL2",
     "research §2.2: GPUOpen-Drivers/pal src/core/hw/gfxip/gfx9/gfx9AcquireReleaseBarrier.cpp"},
    {Rule::Signal2xFlags, "R-SIGNAL2X-FLAGS",
     "Signal2X runs its SyncFlags at the bottom of the pipe before the signal; WaitX runs its "
     "SyncFlags at the top of the pipe after the wait",
     "seed 000 (flags passed indirectly); inference"},
    {Rule::RbOrder, "R-RB-ORDER",
     "colour/depth accesses of a draw come after earlier draws' colour/depth writes to the same "
     "target on that queue have landed in the CB/DB cache",
     "D3D12 functional spec (output-merger operations complete in API order)"},
    {Rule::PsFlushWaitsVs, "R-PS-FLUSH-WAITS-VS",
     "PS_PARTIAL_FLUSH also holds the ME until earlier vertex-shader waves have ended",
     "A-PS-FLUSH-WAITS-VS; research §3.3, §4.3: mesa src/amd/vulkan/radv_cs.c "
     "(gfx10_cs_emit_cache_flush emits only PS_PARTIAL_FLUSH when PS and VS waits are wanted)"},
    {Rule::BarrierWait, "R-BARRIER-WAIT",
     "a standard barrier waits for the earlier work of its queue in SYNC_BEFORE (and, for the "
     "writes in ACCESS_BEFORE, until they have landed)",
     "microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md (Synchronization; Access Transitions)"},
    {Rule::BarrierCache, "R-BARRIER-CACHE",
     "a standard barrier's cache work for its resources (write-backs of what ACCESS_BEFORE wrote, "
     "invalidations for what ACCESS_AFTER reads) runs after its wait and before it completes",
     "microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md (Access Transitions, Layout "
     "Transitions)"},
    {Rule::BarrierHold, "R-BARRIER-HOLD",
     "later work of the queue in SYNC_AFTER starts after the barrier completed; a standard "
     "Signal comes after every earlier barrier completed",
     "microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md (Synchronization); D3D12 "
     "ID3D12CommandQueue::Signal"},
    {Rule::BarrierSplit, "R-BARRIER-SPLIT",
     "a split barrier's work runs between its BEGIN half and its END half; only the END half "
     "holds later work",
     "microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md (Split Barriers)"},
    {Rule::BarrierFence, "R-BARRIER-FENCE",
     "a standard Signal sets its fence after every earlier barrier of the queue completed",
     "D3D12 ID3D12CommandQueue::Signal; microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md "
     "(ExecuteCommandLists completion)"},
    {Rule::BarrierPal, "R-BARRIER-PAL",
     "a standard barrier also does what AMD's PAL emits for it on gfx10.3: partial flushes or an "
     "end-of-pipe wait for SYNC_BEFORE, whole-cache RB flushes and GL2 operations at release, "
     "GL0/GL1/K$/M$ invalidations at acquire; the ME resumes after them",
     "A-BARRIER-PAL; research §5.3, §5.4: GPUOpen-Drivers/pal "
     "src/core/hw/gfxip/gfx9/gfx9AcquireReleaseBarrier.cpp, gfx9Barrier.cpp"},
}};

}  // namespace

std::span<const RuleDef> all_rules() {
  return kRules;
}
const RuleDef& rule(Rule r) {
  return kRules[static_cast<int>(r)];
}

}  // namespace syncproof::model
