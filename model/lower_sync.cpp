// The lowering of sync commands: SyncTopOfPipeX (seed 001), SyncBottomOfPipeX (seed 004),
// Write32/64BitValueBottomOfPipe2X and Wait*BitValueX (seed 002), Signal2X/WaitX (seed 000) and
// the standard Signal/Wait. Each follows its seed's operation order; what no seed settles is
// guarded by a named assumption (model/assumptions.h).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "model/lower_impl.h"

namespace syncproof::model::detail {
namespace {

const Guard kFifo{AssumptionId::BopFifo, true};
const Guard kDrains{AssumptionId::IdleDrainsWrites, true};

bool overlaps(uint64_t lo1, uint64_t hi1, uint64_t lo2, uint64_t hi2) {
  return lo1 < hi2 && lo2 < hi1;
}

}  // namespace

// Emits one group of GCR operations after `after`. Order inside the group: GCR_SEQUENCE_FORWARD
// (inner level first) or _REVERSE (outer first) when given (R-GCR-SEQUENCE); otherwise outer
// first only under A-GCR-OUTER-FIRST, else unordered.
std::vector<EventId> Lowerer::emit_gcr(const std::vector<GcrOp>& ops,
                                       const std::vector<EventId>& after, Rule r,
                                       const ControlFlags& cf) {
  std::vector<EventId> evs;
  std::vector<int> tiers;
  for (const GcrOp& op : ops) {
    EventId e = cache_op(op.level, op.inv, op.wb, op.cov, op.flag);
    for (EventId a : after) order(a, e, r);
    evs.push_back(e);
    tiers.push_back(gcr_tier(op.level));
  }
  const bool fwd = cf.has(ControlFlag::GcrSequenceForward);
  const bool rev = cf.has(ControlFlag::GcrSequenceReverse);
  for (size_t i = 0; i < evs.size(); ++i)
    for (size_t j = 0; j < evs.size(); ++j) {
      if (tiers[i] >= tiers[j]) continue;  // i is outer (lower tier) than j
      if (fwd)
        order(evs[j], evs[i], Rule::GcrSequence);
      else if (rev)
        order(evs[i], evs[j], Rule::GcrSequence);
      else
        order(evs[i], evs[j], Rule::GcrOuterFirst, {AssumptionId::GcrOuterFirst, true});
    }
  return evs;
}

Lowerer::TopResult Lowerer::top_sequence(const SyncFields& f, const ControlFlags& cf,
                                         const SyncRange& r, std::vector<EventId> tail) {
  TopResult res;
  auto step = [&](std::string what, Rule rule) {
    EventId e = ev(EventKind::SyncStep, std::move(what));
    for (EventId t : tail) order(t, e, rule);
    tail = {e};
    return e;
  };
  if (f.sync_cpdma) {
    bool pfp = cf.has(ControlFlag::CpdmaSelectEnginePfp);
    EventId e = step(pfp ? "SYNC_CPDMA: wait for the PFP's CP DMA" : "SYNC_CPDMA: wait for CP DMA",
                     Rule::TopOrder);
    order(frontier(pfp ? Cat::PfpDma : Cat::MeDma, Rule::CpdmaWait), e, Rule::CpdmaWait);
  }
  if (f.pfp_sync_me)
    res.pfp_after.push_back(step("PFP_SYNC_ME: PFP waits for the ME", Rule::TopOrder));
  if (f.idle) {
    EventId e = step("IDLE: wait for earlier work", Rule::TopOrder);
    order(frontier(Cat::AllWork, Rule::Idle), e, Rule::Idle);
    order(frontier(Cat::Arrivals, Rule::IdleDrains), e, Rule::IdleDrains, kDrains);
    order(frontier(Cat::BopOps, Rule::BopFifo), e, Rule::BopFifo, kFifo);
    if (cf.has(ControlFlag::IdleSelectEnginePfp)) res.pfp_after.push_back(e);
  }
  if (f.base_coherency || f.color_coherency || f.depth_coherency) {
    EventId e = step("*_COHERENCY: wait for draws writing the range", Rule::TopOrder);
    for (const RbWrite& w : qs().rb_writes) {
      bool hit = f.base_coherency || (f.color_coherency && w.kind == AccessKind::Rt) ||
                 (f.depth_coherency && w.kind == AccessKind::Depth);
      if (hit && (r.all || overlaps(w.lo, w.hi, r.base, r.base + r.size)))
        order(w.done, e, Rule::Coherency);
    }
  }
  if (f.color_inv || f.depth_inv) {
    std::vector<EventId> group;
    // "Limpa e invalida": write back and invalidate the whole colour / depth cache (seed 000).
    if (f.color_inv)
      group.push_back(
          cache_op(Level::Cb, true, true, {}, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE"));
    if (f.depth_inv)
      group.push_back(
          cache_op(Level::Db, true, true, {}, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE"));
    for (EventId g : group)
      for (EventId t : tail) order(t, g, Rule::TopOrder);
    tail = group;
  }
  auto ops = gcr_ops(f, r);
  if (!ops.empty()) tail = emit_gcr(ops, tail, Rule::TopOrder, cf);
  res.tail = tail;
  return res;
}

void Lowerer::lower_top(const SyncCmd& s) {
  auto& st = qs();
  pfp_step();
  std::vector<EventId> tail;
  if (st.last_me != kNoEvent) tail.push_back(st.last_me);
  if (st.gate != kNoEvent) tail.push_back(st.gate);
  auto res = top_sequence(decode_sync(s.flags), s.control, s.range, tail);
  EventId m = me_step("ME resumes after SyncTopOfPipeX");
  for (EventId t : res.tail) order(t, m, Rule::TopBlocksCp);
  // The PFP resumes (its next step) after what holds it; TOP_SELECT_ENGINE_PFP: after all of it.
  auto& gates = qs().pfp_gates;
  gates.insert(gates.end(), res.pfp_after.begin(), res.pfp_after.end());
  if (s.control.has(ControlFlag::TopSelectEnginePfp)) gates.push_back(m);
}

EventId Lowerer::bop_start() {
  auto& st = qs();
  EventId b = ev(EventKind::BopStart, "bottom of pipe reached");
  order(st.last_me, b, Rule::BopAfterWork);
  order(frontier(Cat::AllWork, Rule::BopAfterWork), b, Rule::BopAfterWork);
  order(st.last_bop_end, b, Rule::BopFifo, kFifo);
  return b;
}

void Lowerer::finish_bop(EventId start, const std::vector<EventId>& ops) {
  auto& st = qs();
  EventId done = ev(EventKind::SyncStep, "bottom-of-pipe operations done");
  order(start, done, Rule::BopOrder);
  after_all(ops, done, Rule::BopOrder);
  st.last_bop_end = done;
  add_end(Cat::BopOps, done);
}

// CB, DB, stream-out and GCR actions of a bottom-of-pipe sync, in seed 004's order.
std::vector<EventId> Lowerer::pipelined_bop_ops(const SyncFields& f, const SyncRange& r,
                                                std::vector<EventId> after,
                                                const ControlFlags& cf) {
  std::vector<EventId> all;
  auto group = [&](std::vector<EventId> g) {
    if (g.empty()) return;
    for (EventId e : g)
      for (EventId a : after) order(a, e, Rule::BopOrder);
    all.insert(all.end(), g.begin(), g.end());
    after = std::move(g);
  };
  // FLUSH_AND_INV_*_TS events write back and invalidate the whole RB cache (research §1.5).
  std::vector<EventId> cb, db, so;
  if (f.color_data_flush)
    cb.push_back(cache_op(Level::Cb, true, true, {}, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH"));
  if (f.color_meta_flush)
    cb.push_back(
        cache_op(Level::CbMeta, true, true, {}, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH"));
  group(std::move(cb));
  if (f.depth_data_flush)
    db.push_back(cache_op(Level::Db, true, true, {}, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH"));
  if (f.depth_meta_flush)
    db.push_back(
        cache_op(Level::DbMeta, true, true, {}, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH"));
  group(std::move(db));
  if (f.streamout_flush)
    so.push_back(cache_op(Level::So, false, true, {}, "D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH"));
  group(std::move(so));
  auto ops = gcr_ops(f, r);
  if (!ops.empty()) {
    auto g = emit_gcr(ops, after, Rule::BopOrder, cf);
    all.insert(all.end(), g.begin(), g.end());
  }
  return all;
}

void Lowerer::lower_bop_sync(const SyncCmd& s) {
  auto& st = qs();
  const SyncFields f = decode_sync(s.flags);
  pfp_step();
  const EventId prev_me = st.last_me;
  std::vector<EventId> blocking;
  std::vector<EventId> tail;
  if (prev_me != kNoEvent) tail.push_back(prev_me);
  if (st.gate != kNoEvent) tail.push_back(st.gate);
  auto step = [&](std::string what) {
    EventId e = ev(EventKind::SyncStep, std::move(what));
    for (EventId t : tail) order(t, e, Rule::BopOrder);
    tail = {e};
    blocking.push_back(e);
    return e;
  };
  if (f.sync_cpdma) {
    bool pfp = s.control.has(ControlFlag::CpdmaSelectEnginePfp);
    EventId e = step(pfp ? "SYNC_CPDMA: wait for the PFP's CP DMA" : "SYNC_CPDMA: wait for CP DMA");
    order(frontier(pfp ? Cat::PfpDma : Cat::MeDma, Rule::CpdmaWait), e, Rule::CpdmaWait);
  }
  if (f.vs_partial || f.ps_partial || f.cs_partial) {
    EventId e = step("partial flush: wait for earlier waves");
    if (f.vs_partial) order(frontier(Cat::Vs, Rule::PartialFlush), e, Rule::PartialFlush);
    if (f.ps_partial) {
      order(frontier(Cat::Ps, Rule::PartialFlush), e, Rule::PartialFlush);
      // RADV emits only PS_PARTIAL_FLUSH when both PS and VS waits are wanted (research §3.3).
      order(frontier(Cat::Vs, Rule::PsFlushWaitsVs), e, Rule::PsFlushWaitsVs,
            {AssumptionId::PsFlushWaitsVs, true});
    }
    if (f.cs_partial) order(frontier(Cat::Cs, Rule::PartialFlush), e, Rule::PartialFlush);
  }
  EventId b = bop_start();
  std::vector<EventId> after = tail;
  after.push_back(b);
  auto ops = pipelined_bop_ops(f, s.range, after, s.control);
  if (f.idle) {
    EventId e = ev(EventKind::SyncStep, "IDLE: wait for the GPU to go idle");
    order(b, e, Rule::Idle);
    for (EventId t : tail) order(t, e, Rule::BopOrder);
    after_all(ops, e, Rule::BopOrder);
    order(frontier(Cat::Arrivals, Rule::IdleDrains), e, Rule::IdleDrains, kDrains);
    order(frontier(Cat::BopOps, Rule::BopFifo), e, Rule::BopFifo, kFifo);
    blocking.push_back(e);
    if (s.control.has(ControlFlag::IdleSelectEnginePfp)) st.pfp_gates.push_back(e);
  }
  EventId m = me_step("ME continues after SyncBottomOfPipeX");
  after_all(blocking, m, Rule::BopOrder);
  if (f.pfp_sync_me) st.pfp_gates.push_back(m);
  finish_bop(b, ops);
}

void Lowerer::lower_bop_write(const BopWriteCmd& w) {
  begin_cp_step();
  EventId b = bop_start();
  auto ops = pipelined_bop_ops(decode_sync(w.flags), SyncRange{}, {b}, w.control);
  const Label* l = w.label ? &c_.labels[*w.label] : nullptr;
  std::string value = w.source == WriteValueSource::Value          ? fmt::format("{}", w.value)
                      : w.source == WriteValueSource::GpuTimestamp ? "a GPU timestamp"
                                                                   : "a system timestamp";
  EventId v =
      ev(EventKind::ValueWrite,
         fmt::format("{} = {} lands", l ? l->name : fmt::format("0x{:X}", w.address), value));
  order(b, v, Rule::BopValueWrite);
  for (EventId o : ops)
    order(o, v, Rule::BopWriteAfterGcr, {AssumptionId::BopWriteAfterOwnGcr, true});
  value_writes_.push_back(
      {v, w.address, w.api == SyncApi::Write32BitValueBottomOfPipe2X ? 4u : 8u, w.value, w.source});
  // The value is a memory write of 4 or 8 bytes at Destination (R-BOP-VALUE-PATH): shaders,
  // copies and the host that touch those bytes pair with it. RELEASE_MEM writes its data through
  // GL2 (PAL) or straight to memory (RADV, the Linux fence): which one the Xbox runtime uses is
  // not public, so the write is lowered as both accesses, the one to memory counting only
  // without A-BOP-VALUE-THROUGH-GL2 (research §2.2).
  const uint64_t bytes = w.api == SyncApi::Write32BitValueBottomOfPipe2X ? 4 : 8;
  MemAccess m{v,
              v,
              q_,
              cmd_,
              kNoObject,
              w.address / kUnitBytes,
              (w.address + bytes - 1) / kUnitBytes,
              w.address,
              w.address + bytes - 1,
              true,
              AccessKind::Label,
              Stage::Cp,
              Plane::Data,
              false,
              write_path(AccessKind::Label, Plane::Data),
              c_.queues[q_].commands[cmd_].loc,
              w.label ? *w.label : kNoObject};
  lc().accesses.push_back(static_cast<uint32_t>(out_.accesses.size()));
  out_.accesses.push_back(m);
  m.path = Path{};
  m.path.push(Level::Mem);
  m.only_without = AssumptionId::BopValueThroughGl2;
  lc().accesses.push_back(static_cast<uint32_t>(out_.accesses.size()));
  out_.accesses.push_back(m);
  ops.push_back(v);
  finish_bop(b, ops);
}

void Lowerer::lower_wait_value(const WaitValueCmd& w) {
  auto& st = qs();
  pfp_step();
  const Label* l = w.label ? &c_.labels[*w.label] : nullptr;
  EventId done = ev(EventKind::WaitDone, fmt::format("wait for {} {} {} satisfied",
                                                     l ? l->name : fmt::format("0x{:X}", w.address),
                                                     to_string(w.cmp), w.value));
  order(st.last_me, done, Rule::WaitValue);
  order(st.gate, done, Rule::QueueWait);
  EventId m = me_step("ME resumes after the wait");
  order(done, m, Rule::WaitValue);
  add_wait(done, false, w.label.value_or(0), w.value, w.cmp, Rule::WaitValue, w.address,
           w.is64 ? 8u : 4u);
}

// Standard Signal: write back the RB, stream-out and GL2 caches (A-STD-FENCE-COHERENT). A compute
// queue's engine cannot reach the render back-ends' caches or stream-out (research §3.1: "RB
// caches can't be touched" from ACE), so there only GL2 is written back (R-FENCE-REACH).
std::vector<EventId> Lowerer::full_flush_ops(EventId after) {
  std::vector<EventId> ops;
  if (graphics())
    ops = {
        cache_op(Level::Cb, true, true, {}, "Signal: RB colour flush"),
        cache_op(Level::CbMeta, true, true, {}, "Signal: RB colour metadata flush"),
        cache_op(Level::Db, true, true, {}, "Signal: RB depth flush"),
        cache_op(Level::DbMeta, true, true, {}, "Signal: RB depth metadata flush"),
        cache_op(Level::So, false, true, {}, "Signal: stream-out flush"),
    };
  for (EventId o : ops) order(after, o, Rule::StdFence);
  EventId gl2 = cache_op(Level::Gl2, false, true, {}, "Signal: GL2 write-back");
  order(after, gl2, Rule::StdFence);
  after_all(ops, gl2, Rule::StdFence);
  ops.push_back(gl2);
  return ops;
}

// Standard Wait: write back and invalidate GL2 and invalidate every other cache, as the kernel's
// IB preamble does (research §3.4: GL2_INV|GL2_WB|GLM_INV|GL1_INV|GLV_INV|GLK_INV|GLI_INV). The
// RB caches only on graphics queues (R-FENCE-REACH).
std::vector<EventId> Lowerer::full_invalidate_ops(EventId after) {
  std::vector<GcrOp> gcr = {
      {Level::Gl2, true, true, {}, "Wait: GL2 write-back+invalidate"},
      {Level::Gl1, true, false, {}, "Wait: GL1 invalidate"},
      {Level::Mcache, true, false, {}, "Wait: M$ invalidate"},
      {Level::Gl0, true, false, {}, "Wait: GL0 invalidate"},
      {Level::Kcache, true, false, {}, "Wait: K$ invalidate"},
      {Level::Icache, true, false, {}, "Wait: I$ invalidate"},
  };
  auto ops = emit_gcr(gcr, {after}, Rule::StdFence, {});
  if (graphics())
    for (Level l : {Level::Cb, Level::CbMeta, Level::Db, Level::DbMeta}) {
      EventId e = cache_op(l, true, true, {}, "Wait: RB cache invalidate");
      order(after, e, Rule::StdFence);
      ops.push_back(e);
    }
  return ops;
}

void Lowerer::lower_signal(const SignalCmd& s) {
  begin_cp_step();
  EventId b = bop_start();
  std::vector<EventId> ops;
  const Guard std_guard{AssumptionId::StdFenceCoherent, true};
  const Guard x_guard{AssumptionId::Signal2xFullFlush, true};
  EventId sig =
      ev(EventKind::Signal, fmt::format("{} signals {} = {}", s.xbox ? "Signal2X" : "Signal",
                                        c_.fences[s.fence].name, s.value));
  order(b, sig, Rule::FenceSignal);
  if (!s.xbox) {
    // The standard Signal covers all earlier work, CP DMA included: its flushes start after it.
    order(frontier(Cat::MeDma, Rule::FenceSignal), b, Rule::FenceSignal);
    order(frontier(Cat::PfpDma, Rule::FenceSignal), b, Rule::FenceSignal);
    // ...and every earlier standard barrier (R-BARRIER-FENCE).
    order(frontier(Cat::Barriers, Rule::BarrierFence), b, Rule::BarrierFence);
  } else {
    // Signal2X's flags: the cache actions as in SyncBottomOfPipeX; the partial flushes are
    // already implied (the signal is at the bottom of the pipe); SYNC_CPDMA and IDLE hold the
    // signal like the ME in a bottom-of-pipe sync.
    const SyncFields f = decode_sync(s.flags);
    ops = pipelined_bop_ops(f, SyncRange{}, {b}, {});
    for (EventId o : ops)
      order(o, sig, Rule::Signal2xFlags, {AssumptionId::BopWriteAfterOwnGcr, true});
    if (f.sync_cpdma) order(frontier(Cat::MeDma, Rule::CpdmaWait), sig, Rule::CpdmaWait);
    if (f.idle) {
      order(frontier(Cat::Arrivals, Rule::IdleDrains), sig, Rule::IdleDrains, kDrains);
      order(frontier(Cat::BopOps, Rule::BopFifo), sig, Rule::BopFifo, kFifo);
    }
  }
  // The flush exists only where an assumption says it does: an operation with no place in
  // time would otherwise still be pulled before later IDLE/FIFO points and hide staleness. Where
  // it exists, it comes before later events only through the signal, under the assumption's
  // guard: ordered before this sync's end directly, it would be before every later IDLE/FIFO
  // point with no guarded order between, and a proof that needs it would not list it.
  const Guard g = s.xbox ? x_guard : std_guard;
  if (cfg_.assumptions.enabled(*g.id)) {
    EventId drained = ev(EventKind::SyncStep, "earlier writes have landed");
    order(b, drained, Rule::StdFence);
    order(frontier(Cat::Arrivals, Rule::StdFence), drained, Rule::StdFence, g);
    const size_t first = out_.cache_ops.size();
    for (EventId o : full_flush_ops(drained)) order(o, sig, Rule::StdFence, g);
    mark_assumed(first, *g.id);
    order(frontier(Cat::BopOps, Rule::StdFence), sig, Rule::StdFence, g);
  }
  signals_.push_back({sig, s.fence, s.value});
  ops.push_back(sig);
  finish_bop(b, ops);
}

void Lowerer::lower_wait_fence(const WaitFenceCmd& w) {
  auto& st = qs();
  EventId done =
      ev(EventKind::WaitDone, fmt::format("{} for {} >= {} satisfied", w.xbox ? "WaitX" : "Wait",
                                          c_.fences[w.fence].name, w.value));
  order(st.last_me, done, Rule::QueueWait);
  order(st.last_pfp, done, Rule::QueueWait);
  order(st.gate, done, Rule::QueueWait);
  add_wait(done, true, w.fence, w.value, Comparison::GreaterEqual, Rule::QueueWait);
  EventId resume = ev(EventKind::SyncStep, "queue resumes after the wait");
  order(done, resume, Rule::QueueWait);
  const Guard g{w.xbox ? AssumptionId::Signal2xFullFlush : AssumptionId::StdFenceCoherent, true};
  if (cfg_.assumptions.enabled(*g.id)) {
    const size_t first = out_.cache_ops.size();
    for (EventId o : full_invalidate_ops(done)) order(o, resume, Rule::StdFence, g);
    mark_assumed(first, *g.id);
  }
  if (w.xbox && w.flags) {
    auto res = top_sequence(decode_sync(w.flags), {}, SyncRange{}, {done});
    for (EventId t : res.tail)
      order(t, resume, Rule::Signal2xFlags, {AssumptionId::WaitxFlagsAfterWait, true});
  }
  // Later commands (PFP and ME) start after the queue resumes.
  st.gate = resume;
  lc().me = resume;
}

}  // namespace syncproof::model::detail
