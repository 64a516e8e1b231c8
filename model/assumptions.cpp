#include "model/assumptions.h"

namespace syncproof::model {
namespace {

// Statements are one line each; model/SEMANTICS.md gives the why, the sources for and against.
constexpr std::array<AssumptionDef, kAssumptionCount> kTable{{
    {AssumptionId::WaveEndStoresInGl2, "A-WAVE-END-STORES-IN-GL2",
     "a shader wave ends only after its stores have reached GL2", false, true},
    {AssumptionId::IdleDrainsWrites, "A-IDLE-DRAINS-WRITES",
     "D3D12XBOX_SYNC_FLAG_IDLE also waits until every earlier write of the queue has reached "
     "its first cache level (GL2 for shader stores and CP DMA)",
     true, true},
    {AssumptionId::GcrOuterFirst, "A-GCR-OUTER-FIRST",
     "the cache invalidations of one sync take effect outer level first (GL2, then GL1, then "
     "GL0/K$/I$) unless a GCR_SEQUENCE control flag says otherwise",
     true, true},
    {AssumptionId::BopFifo, "A-BOP-FIFO",
     "bottom-of-pipe operations of one queue (SyncBottomOfPipeX actions, BOP value writes, "
     "Signal2X) complete in the order they were issued",
     false, true},
    {AssumptionId::BopWriteAfterOwnGcr, "A-BOP-WRITE-AFTER-OWN-GCR",
     "a bottom-of-pipe value write or Signal2X lands after the cache operations of its own "
     "SyncFlags have completed",
     false, true},
    {AssumptionId::StdFenceCoherent, "A-STD-FENCE-COHERENT",
     "the standard Signal/Wait make every write before the Signal visible to every read after "
     "the Wait (D3D12's cross-queue guarantee: flush on Signal, invalidate on Wait)",
     true, true},
    {AssumptionId::Signal2xFullFlush, "A-SIGNAL2X-FULL-FLUSH",
     "Signal2X/WaitX add the same cache operations as the standard Signal/Wait (unknown; off "
     "by default)",
     false, false},
    {AssumptionId::InitialZero, "A-INITIAL-ZERO",
     "every fence and label holds 0 when the case starts", true, true},
    {AssumptionId::WaitxFlagsAfterWait, "A-WAITX-FLAGS-AFTER-WAIT",
     "WaitX runs its SyncFlags at the top of the pipe after the wait is satisfied and before any "
     "later command of the queue starts",
     false, true},
    {AssumptionId::Gl2WbBeforeInv, "A-GL2-WB-BEFORE-INV",
     "a single GL2_WRITEBACK | GL2_INVALIDATE writes each line back before it invalidates it, so "
     "data it writes back is what GL2 clients read after it, also across the RB/TC split",
     false, true},
    {AssumptionId::PsFlushWaitsVs, "A-PS-FLUSH-WAITS-VS",
     "PS_PARTIAL_FLUSH also waits for the earlier draws' vertex-shader waves", false, true},
    {AssumptionId::TimestampNonzero, "A-TIMESTAMP-NONZERO",
     "a GPU or system timestamp written by Write64BitValueBottomOfPipe2X is never 0", true, true},
    {AssumptionId::BopValueThroughGl2, "A-BOP-VALUE-THROUGH-GL2",
     "the value a Write32/64BitValueBottomOfPipe2X writes goes through GL2 (RELEASE_MEM data to "
     "TC_L2, as PAL writes it), not straight to memory",
     false, true},
    {AssumptionId::RbFillOnAccess, "A-RB-FILL-ON-ACCESS",
     "the render back-ends' caches (CB, DB and their metadata caches) fill a line only while a "
     "render back-end access of work in flight touches its 256-byte block",
     false, true},
    {AssumptionId::BarrierPal, "A-BARRIER-PAL",
     "a standard barrier (ResourceBarrier, Barrier) also does what AMD's PAL driver emits for it "
     "on gfx10.3: stage waits, whole-cache flushes and invalidations, the ME held until they are "
     "done",
     false, true},
}};

}  // namespace

std::span<const AssumptionDef> all_assumptions() {
  return kTable;
}

const AssumptionDef& assumption(AssumptionId id) {
  return kTable[static_cast<int>(id)];
}

std::optional<AssumptionId> find_assumption(std::string_view name) {
  for (const auto& a : kTable)
    if (a.name == name) return a.id;
  return std::nullopt;
}

std::optional<Profile> find_profile(std::string_view name) {
  if (name == "strict") return Profile::Strict;
  if (name == "rdna2") return Profile::Rdna2;
  return std::nullopt;
}

std::string_view to_string(Profile p) {
  return p == Profile::Strict ? "strict" : "rdna2";
}

AssumptionSet AssumptionSet::defaults(Profile p) {
  AssumptionSet s;
  for (const auto& a : kTable) s.set(a.id, p == Profile::Strict ? a.in_strict : a.in_rdna2);
  return s;
}

}  // namespace syncproof::model
