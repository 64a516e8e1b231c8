// The lowering of the standard barriers (ResourceBarrier, Barrier) to the model's hardware
// events, in two layers (model/SEMANTICS.md §5, "Standard barriers"):
//  - the contract, always: what Microsoft's enhanced-barriers specification promises and no more
//    (microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md). The barrier waits for the earlier
//    work of its queue in SYNC_BEFORE (and for the writes of ACCESS_BEFORE to land), does the
//    cache work for its resources only (the whole memory for GLOBAL, UAV NULL, ALIASING with a
//    NULL), and holds the later work in SYNC_AFTER until that is done. A split barrier's work
//    runs between its halves; only the END half holds later work.
//  - A-BARRIER-PAL (rdna2): what AMD's PAL emits on gfx10.3 besides (model/barrier_pal.h):
//    partial flushes or an end-of-pipe wait, whole-cache flushes and invalidations, the ME held
//    until they are done. These exist only under the assumption and reach later events only
//    through orders it guards, so a proof that needs them lists it.
// The barrier as written is lowered; whether it is the right barrier is the linter's business.
#include <fmt/format.h>

#include "model/barrier_pal.h"
#include "model/lower_impl.h"

namespace syncproof::model::detail {
namespace {

const Guard kPal{AssumptionId::BarrierPal, true};
const Guard kPalFifo{AssumptionId::BopFifo, true};
const Guard kPalDrains{AssumptionId::IdleDrainsWrites, true};

constexpr uint64_t kGlobalSplit = UINT64_MAX;

// The resource's bytes widened outward to the 256-byte units a ranged cache operation takes
// (research §1.3, §2.1: PAL widens COHER_BASE/COHER_SIZE outward).
SyncRange widened(const Resource& r) {
  constexpr uint64_t kUnit = 256;
  const uint64_t base = r.address / kUnit * kUnit;
  const uint64_t end = r.address + r.size;  // the linter keeps resources below 2^64
  const uint64_t top = end % kUnit ? end / kUnit * kUnit + kUnit : end;
  return SyncRange{false, base, (top < end ? UINT64_MAX : top) - base};
}

uint64_t split_key(const BarrierCmd& b) {
  return b.resource ? *b.resource : kGlobalSplit;
}

}  // namespace

void Lowerer::gate(Gate g, EventId e) {
  order(qs().gates[static_cast<int>(g)], e, Rule::BarrierHold);
}

void Lowerer::gate_access(const Access& a, EventId e) {
  switch (a.kind) {
    case AccessKind::Rt:
      return gate(Gate::Color, e);
    case AccessKind::Depth:
      return gate(Gate::Depth, e);
    case AccessKind::Index:
      return gate(Gate::Index, e);
    case AccessKind::Indirect:
      return gate(Gate::Indirect, e);
    default:
      return;
  }
}

// The contract's cache work after the release point `r`, for the barrier's resources: RB and
// stream-out write-backs of what ACCESS_BEFORE wrote, GL2 write-back then invalidation where data
// crosses the RB/TC split (target gl2-rb-coherent no), then the invalidations of the levels
// ACCESS_AFTER reads through, outer level first. Each group waits for the one before: this is
// the least work that makes the data visible, in an order that works under every assumption.
std::vector<EventId> Lowerer::barrier_release(const BarrierCmd& b, const EnhancedBarrier& e,
                                              EventId r) {
  const AccessUse ab = access_use(e.access_before), aa = access_use(e.access_after);
  std::vector<Coverage> covs;
  bool compressed = false;
  if (e.resources.empty()) {
    covs.push_back({});
    for (const Resource& res : c_.resources) compressed = compressed || res.compressed;
  } else {
    for (uint32_t i : e.resources) {
      covs.push_back(coverage_for_range(widened(c_.resources[i]), false, kLineBytes));
      compressed = compressed || c_.resources[i].compressed;
    }
  }
  const std::string who = fmt::format("{}({})", barrier_api(b.kind), to_string(b.kind));
  std::vector<EventId> all, tail{r};
  auto group = [&](std::vector<std::pair<Level, std::pair<bool, bool>>> ops) {
    std::vector<EventId> g;
    for (const auto& [level, iw] : ops)
      for (const Coverage& cov : covs) {
        const EventId o = cache_op(level, iw.first, iw.second, cov, who);
        after_all(tail, o, Rule::BarrierCache);
        g.push_back(o);
      }
    if (g.empty()) return;
    all.insert(all.end(), g.begin(), g.end());
    tail = std::move(g);
  };
  const bool gfx = graphics();
  const bool rb_out = (ab.rt && (aa.non_rb() || aa.depth_write || aa.depth_read)) ||
                      (ab.depth_write && (aa.non_rb() || aa.rt)) ||
                      (ab.rb_writes() && e.layout_change);
  const bool made_visible = ab.writes();
  std::vector<std::pair<Level, std::pair<bool, bool>>> down;
  if (gfx && rb_out && ab.rt) {
    down.push_back({Level::Cb, {true, true}});
    if (compressed) down.push_back({Level::CbMeta, {true, true}});
  }
  if (gfx && rb_out && ab.depth_write) {
    down.push_back({Level::Db, {true, true}});
    if (compressed) down.push_back({Level::DbMeta, {true, true}});
  }
  if (gfx && ab.so) down.push_back({Level::So, {false, true}});
  group(down);
  const bool crossing = !cfg_.target.gl2_rb_coherent &&
                        ((ab.rb_writes() && aa.non_rb()) || (ab.non_rb_writes() && aa.rb()));
  if (crossing) {
    group({{Level::Gl2, {false, true}}});
    group({{Level::Gl2, {true, false}}});
  }
  if (!made_visible && !e.layout_change) return all;
  std::vector<std::pair<Level, std::pair<bool, bool>>> outer, inner;
  if (made_visible && (aa.srv || aa.uav || aa.vertex || aa.cbv))
    outer.push_back({Level::Gl1, {true, false}});
  if (compressed && (aa.srv || aa.uav || e.layout_change))
    outer.push_back({Level::Mcache, {true, false}});
  if (gfx && made_visible && ab.non_rb_writes() && aa.rt) {
    outer.push_back({Level::Cb, {true, true}});
    if (compressed) outer.push_back({Level::CbMeta, {true, true}});
  }
  if (gfx && made_visible && ab.non_rb_writes() && (aa.depth_write || aa.depth_read)) {
    outer.push_back({Level::Db, {true, true}});
    if (compressed) outer.push_back({Level::DbMeta, {true, true}});
  }
  group(outer);
  if (made_visible && (aa.srv || aa.uav || aa.vertex)) inner.push_back({Level::Gl0, {true, false}});
  if (made_visible && aa.cbv) inner.push_back({Level::Kcache, {true, false}});
  group(inner);
  return all;
}

// Later work in SYNC_AFTER waits for `done`: one join per held category, so each later start is
// ordered after one event whatever the number of barriers.
void Lowerer::barrier_hold(const EnhancedBarrier& e, EventId done) {
  const SyncScope sa = sync_scope(e.sync_after);
  const bool held[kGateCount] = {sa.vs,    sa.ps,    sa.cs,       sa.color,
                                 sa.depth, sa.index, sa.indirect, sa.copy};
  auto& gates = qs().gates;
  for (int g = 0; g < kGateCount; ++g) {
    if (!held[g]) continue;
    if (gates[g] == kNoEvent) {
      gates[g] = done;
      continue;
    }
    EventId j = ev(EventKind::SyncStep, "(barriers holding later work done)");
    order(gates[g], j, Rule::BarrierHold);
    order(done, j, Rule::BarrierHold);
    gates[g] = j;
  }
  add_end(Cat::Barriers, done);
}

// A-BARRIER-PAL's release: the stage waits and release cache operations of the plan, after
// `processed`. A split barrier releases at the bottom of the pipe and does not hold the ME; its
// last event is the token the END half waits for. Otherwise the ME resumes after the release and
// the acquire (pal_acquire). Returns the token (split) or kNoEvent.
EventId Lowerer::pal_release(const EnhancedBarrier& e, EventId processed, bool split) {
  const QueueType qt = c_.queues[q_].type;
  bool compressed = false;
  if (e.resources.empty()) {
    for (const Resource& r : c_.resources) compressed = compressed || r.compressed;
  } else {
    for (uint32_t r : e.resources) compressed = compressed || c_.resources[r].compressed;
  }
  const PalPlan plan = pal_plan(e, qt, cfg_.target, compressed);
  const SyncFields f = decode_sync(plan.release);
  const size_t first_op = out_.cache_ops.size();
  std::vector<EventId> waits, tail{processed};
  auto step = [&](std::string what) {
    EventId s = ev(EventKind::SyncStep, std::move(what));
    after_all(tail, s, Rule::BarrierPal);
    tail = {s};
    waits.push_back(s);
    return s;
  };
  if (f.sync_cpdma) {
    EventId s = step("barrier (PAL): wait for CP DMA");
    order(frontier(Cat::MeDma, Rule::CpdmaWait), s, Rule::CpdmaWait);
    order(frontier(Cat::PfpDma, Rule::CpdmaWait), s, Rule::CpdmaWait);
  }
  if (split || f.idle) {
    // An end-of-pipe event: every earlier draw and dispatch done, render back-ends included, as
    // IDLE waits (R-IDLE, A-IDLE-DRAINS-WRITES, A-BOP-FIFO).
    EventId s = step(split ? "barrier (PAL): split release at the bottom of the pipe"
                           : "barrier (PAL): end-of-pipe wait for earlier work");
    order(frontier(Cat::AllWork, Rule::Idle), s, Rule::Idle);
    order(frontier(Cat::Arrivals, Rule::IdleDrains), s, Rule::IdleDrains, kPalDrains);
    order(frontier(Cat::BopOps, Rule::BopFifo), s, Rule::BopFifo, kPalFifo);
  } else if (f.vs_partial || f.ps_partial || f.cs_partial) {
    EventId s = step("barrier (PAL): partial flush");
    if (f.vs_partial) order(frontier(Cat::Vs, Rule::PartialFlush), s, Rule::PartialFlush);
    if (f.ps_partial) {
      order(frontier(Cat::Ps, Rule::PartialFlush), s, Rule::PartialFlush);
      order(frontier(Cat::Vs, Rule::PsFlushWaitsVs), s, Rule::PsFlushWaitsVs,
            {AssumptionId::PsFlushWaitsVs, true});
    }
    if (f.cs_partial) order(frontier(Cat::Cs, Rule::PartialFlush), s, Rule::PartialFlush);
  }
  std::vector<EventId> ops;
  auto rb = [&](bool on, Level l, bool inv, std::string what) {
    if (!on) return;
    EventId o = cache_op(l, inv, true, {}, "barrier (PAL): " + what);
    after_all(tail, o, Rule::BarrierPal);
    ops.push_back(o);
  };
  rb(f.color_data_flush, Level::Cb, true, "CB flush");
  rb(f.color_meta_flush, Level::CbMeta, true, "CB metadata flush");
  rb(f.depth_data_flush, Level::Db, true, "DB flush");
  rb(f.depth_meta_flush, Level::DbMeta, true, "DB metadata flush");
  rb(f.streamout_flush, Level::So, false, "stream-out flush");
  std::vector<GcrOp> gcr = gcr_ops(f, SyncRange{});
  for (GcrOp& g : gcr) g.flag = "barrier (PAL): " + g.flag;
  if (!gcr.empty()) {
    const std::vector<EventId> after = ops.empty() ? tail : ops;
    auto g = emit_gcr(gcr, after, Rule::BarrierPal, {});
    ops.insert(ops.end(), g.begin(), g.end());
  }
  EventId token = kNoEvent;
  if (split) {
    token = ev(EventKind::SyncStep, "split barrier released (PAL)");
    after_all(waits, token, Rule::BarrierPal);
    after_all(ops, token, Rule::BarrierPal, kPal);
  } else {
    std::vector<EventId> after = ops;
    after.insert(after.end(), waits.begin(), waits.end());
    if (after.empty()) after = {processed};
    pal_acquire(plan.acquire, after);
  }
  mark_assumed(first_op, AssumptionId::BarrierPal);
  return token;
}

// A-BARRIER-PAL's acquire after `after`: CB/DB invalidations, then the GCR invalidations; the ME
// resumes after them (the PFP too, with PFP_SYNC_ME). Every order out of these events into the
// rest of the program is guarded by A-BARRIER-PAL.
void Lowerer::pal_acquire(uint32_t acquire, std::vector<EventId> after) {
  const SyncFields f = decode_sync(acquire);
  const size_t first_op = out_.cache_ops.size();
  std::vector<EventId> ends = after;
  std::vector<EventId> rb;
  if (f.color_inv)
    rb.push_back(cache_op(Level::Cb, true, true, {}, "barrier (PAL): CB invalidate"));
  if (f.depth_inv)
    rb.push_back(cache_op(Level::Db, true, true, {}, "barrier (PAL): DB invalidate"));
  for (EventId o : rb) after_all(after, o, Rule::BarrierPal);
  if (!rb.empty()) after = rb, ends.insert(ends.end(), rb.begin(), rb.end());
  std::vector<GcrOp> gcr = gcr_ops(f, SyncRange{});
  for (GcrOp& g : gcr) g.flag = "barrier (PAL): " + g.flag;
  if (!gcr.empty()) {
    auto g = emit_gcr(gcr, after, Rule::BarrierPal, {});
    ends.insert(ends.end(), g.begin(), g.end());
  }
  mark_assumed(first_op, AssumptionId::BarrierPal);
  const EventId m = me_step("ME resumes after the barrier (PAL)");
  after_all(ends, m, Rule::BarrierPal, kPal);
  if (f.pfp_sync_me) qs().pfp_gates.push_back(m);
}

void Lowerer::lower_barrier(const BarrierCmd& b) {
  const EnhancedBarrier e = enhanced(c_, b);
  const bool pal = cfg_.assumptions.enabled(AssumptionId::BarrierPal);
  pfp_step();
  const EventId processed = me_step(fmt::format("ME processes {}", barrier_api(b.kind)));
  auto& st = qs();
  if (e.split == SplitPart::End) {
    auto it = st.open_splits.find(split_key(b));
    if (it == st.open_splits.end()) return;  // no BEGIN half: a lint error
    const OpenSplit open = std::move(it->second);
    st.open_splits.erase(it);
    EventId done = ev(EventKind::SyncStep, "split barrier done");
    order(processed, done, Rule::BarrierSplit);
    after_all(open.contract, done, Rule::BarrierSplit);
    barrier_hold(e, done);
    if (pal && open.pal_token != kNoEvent) {
      EventId w = ev(EventKind::SyncStep, "ME waits for the split barrier's release (PAL)");
      order(processed, w, Rule::BarrierPal);
      order(open.pal_token, w, Rule::BarrierPal);
      pal_acquire(open.pal_acquire, {w});
    }
    return;
  }
  // The release point: the earlier work of SYNC_BEFORE is done, and the shader stores of
  // ACCESS_BEFORE have landed.
  const SyncScope sb = sync_scope(e.sync_before);
  const AccessUse ab = access_use(e.access_before);
  EventId r = ev(EventKind::SyncStep, "barrier: SYNC_BEFORE work done");
  order(processed, r, Rule::BarrierWait);
  auto wait = [&](bool on, Cat c) {
    if (on) order(frontier(c, Rule::BarrierWait), r, Rule::BarrierWait);
  };
  if (sb.all) {
    wait(true, Cat::AllWork);
  } else {
    wait(sb.vs, Cat::Vs), wait(sb.ps, Cat::Ps), wait(sb.cs, Cat::Cs);
    wait(sb.color || sb.depth, Cat::Rb), wait(sb.index, Cat::IndexReads);
  }
  wait(sb.copy, Cat::MeDma), wait(sb.copy, Cat::PfpDma);
  wait(sb.vs && ab.uav, Cat::VsStores), wait(sb.ps && ab.uav, Cat::PsStores);
  wait(sb.cs && ab.uav, Cat::CsStores);
  std::vector<EventId> work = barrier_release(b, e, r);
  work.push_back(r);
  if (e.split == SplitPart::Begin) {
    OpenSplit open;
    open.contract = work;
    if (pal) {
      open.pal_token = pal_release(e, processed, true);
      open.pal_acquire = pal_plan(c_, b, c_.queues[q_].type).acquire;
    }
    st.open_splits[split_key(b)] = std::move(open);
    return;
  }
  EventId done = ev(EventKind::SyncStep, "barrier done");
  after_all(work, done, Rule::BarrierCache);
  barrier_hold(e, done);
  if (pal) pal_release(e, processed, false);
}

}  // namespace syncproof::model::detail
