// The A-BARRIER-PAL plan of a standard barrier (model/barrier_pal.h). Each rule names the part
// of PAL's gfx10.3 barrier code it follows (research §5.3, §5.4) or the model fact that adds it.
#include "model/barrier_pal.h"

#include "model/case.h"
#include "model/flags.h"
#include "model/targets.h"

namespace syncproof::model {

PalPlan pal_plan(const EnhancedBarrier& e, QueueType q, const Target& t, bool compressed) {
  using namespace sync;
  PalPlan p;
  const bool graphics = q == QueueType::Graphics;
  const SyncScope sb = sync_scope(e.sync_before), sa = sync_scope(e.sync_after);
  const AccessUse ab = access_use(e.access_before), aa = access_use(e.access_after);
  const bool split = e.split != SplitPart::None;
  // GetCacheSyncOps, release side: RB caches are flushed and invalidated at release, in the
  // end-of-pipe event (CACHE_FLUSH_AND_INV_TS: colour and depth, data and metadata), when RB
  // writes are followed by anything else, by a split barrier or by a layout change.
  const bool rb_to_other = (ab.rt && (aa.non_rb() || aa.depth_write || aa.depth_read)) ||
                           (ab.depth_write && (aa.non_rb() || aa.rt));
  if (graphics && ab.rb_writes() && (rb_to_other || split || e.layout_change))
    p.release |=
        kColorBlockDataFlush | kColorBlockMetaFlush | kDepthBlockDataFlush | kDepthBlockMetaFlush;
  // The model keeps stream-out data in its own path until STREAMOUT_FLUSH (seed 000); PAL counts
  // stream-out as a shader-path access, so the flush is what the model needs for the contract.
  if (graphics && ab.so) p.release |= kStreamoutFlush;
  // GetReleaseEvents: colour/depth targets and "bottom of pipe" need an end-of-pipe event, and
  // so does a cache operation at release (EOS events carry none); otherwise one partial flush
  // per stage. A split barrier's release is always an end-of-pipe event. The GL2 work below is
  // left out of that choice: PAL puts it in the end-of-pipe event too, but a wait the model took
  // from the target alone would let the more conservative target prove more (SEMANTICS.md §6),
  // and leaving out a driver's wait only allows more executions.
  const bool release_ops = p.release != 0;
  // Data crossing between the render back-ends and the other GL2 clients on a target where GL2
  // is not coherent between them (research §2.3, §5.3 "TCC isn't actually coherent"): one GL2
  // write-back and invalidation at release.
  if (!t.gl2_rb_coherent && ((ab.rb_writes() && aa.non_rb()) || (ab.non_rb_writes() && aa.rb()) ||
                             (ab.rb_writes() && split)))
    p.release |= kGl2Writeback | kGl2Invalidate;
  if (sb.all || sb.color || sb.depth || release_ops || (split && sb.any())) {
    p.release |= kIdle;
  } else {
    if (graphics && sb.ps) p.release |= kPsPartialFlush;
    if (graphics && (sb.vs || sb.index)) p.release |= kVsPartialFlush;
    if (sb.cs) p.release |= kCsPartialFlush;
  }
  // An end-of-pipe timestamp does not wait for CP DMA (research §3.7): PAL waits for it
  // (syncCpDma) when copies are in scope.
  if (sb.all || sb.copy) p.release |= kSyncCpdma;
  // GetCacheSyncOps, acquire side: shader readers invalidate K$, GL0, GL1 and the metadata cache;
  // skipped between two read-only accesses of one resource.
  const bool read_to_read = !e.resources.empty() && !ab.writes();
  if (aa.shader_reads() && !read_to_read)
    p.acquire |= kVcacheInvalidate | kGl1Invalidate | kKcacheInvalidate | kMcacheInvalidate;
  // A layout change of a compressed surface is metadata work: the metadata readers see through M$
  // must be fetched again (research §5.3, §5.4 "TCC's meta data cache is non-coherent").
  if (e.layout_change && compressed) p.acquire |= kMcacheInvalidate;
  // The model's CB/DB caches may hold lines of a target another client wrote (SEMANTICS.md §4):
  // RB readers after non-RB writes need them dropped. PAL relies on the release that last
  // flushed them; the model does not, so this is what it needs for the contract.
  if (graphics && ab.non_rb_writes() && aa.rt) p.acquire |= kColorBlockInvalidate;
  if (graphics && ab.non_rb_writes() && (aa.depth_write || aa.depth_read))
    p.acquire |= kDepthBlockInvalidate;
  // Acquire at the PFP for index and indirect-argument fetches: PFP_SYNC_ME.
  if (graphics && (sa.all || sa.index || sa.indirect)) p.acquire |= kPfpSyncMe;
  return p;
}

PalPlan pal_plan(const Case& c, const BarrierCmd& b, QueueType q) {
  const EnhancedBarrier e = enhanced(c, b);
  const Target t = target_for(c);
  bool compressed = false;
  if (e.resources.empty()) {
    for (const Resource& r : c.resources) compressed = compressed || r.compressed;
  } else {
    for (uint32_t r : e.resources) compressed = compressed || c.resources[r].compressed;
  }
  return pal_plan(e, q, t, compressed);
}

}  // namespace syncproof::model
