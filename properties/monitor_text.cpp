#include "properties/monitor_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/d3d12.h"

namespace syncproof::properties::detail {

using namespace model;

namespace {

const WorkCmd* work_of(const LoweredProgram& p, uint32_t q, uint32_t c) {
  return std::get_if<WorkCmd>(&p.source->queues[q].commands[c].body);
}

}  // namespace

const std::vector<std::string>& pfp_holds() {
  static const std::vector<std::string> holds = {
      "D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME", "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP",
      "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP"};
  return holds;
}

// The standard barrier a cache operation belongs to, if any.
const BarrierCmd* barrier_of(const LoweredProgram& p, const CacheOp& op) {
  const Event& e = p.events[op.ev];
  return std::get_if<BarrierCmd>(&p.source->queues[e.queue].commands[e.cmd].body);
}

// "PIXEL_SHADING in SYNC_AFTER of the barrier at f.sync:6": what holds reader r until the
// barrier's work has run.
std::string barrier_hold_text(const LoweredProgram& p, const MemAccess& r, At barrier) {
  const uint32_t sync = stage_sync(r.kind, r.stage);
  return fmt::format(
      "{} in SYNC_AFTER of the barrier at {}",
      d3d12::describe(d3d12::Family::BarrierSync, sync ? sync : d3d12::kSync.all, true),
      where(p, barrier));
}

// The flags that move data across a level, as alternatives (bottom-of-pipe and top-of-pipe forms).
std::vector<std::string> writeback_flags(Level l) {
  switch (l) {
    case Level::Cb:
      return {"D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH",
              "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE"};
    case Level::CbMeta:
      return {"D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH"};
    case Level::Db:
      return {"D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH",
              "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE"};
    case Level::DbMeta:
      return {"D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH"};
    case Level::So:
      return {"D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH"};
    default:
      return {"D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK"};
  }
}

std::vector<std::string> invalidate_flags(Level l) {
  switch (l) {
    case Level::Icache:
      return {"D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE"};
    case Level::Kcache:
      return {"D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE"};
    case Level::Gl0:
      return {"D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE"};
    case Level::Gl1:
      return {"D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE"};
    case Level::Mcache:
      return {"D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE"};
    case Level::Cb:
    case Level::Db:
      return writeback_flags(l);
    case Level::CbMeta:
      return {"D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH"};
    case Level::DbMeta:
      return {"D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH"};
    default:
      return {"D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE"};
  }
}

// Reads the PFP performs: index and indirect-argument fetch, and copies on the PFP's CP DMA. A
// compute queue has no PFP (§2): its MEC reads indirect arguments itself.
bool pfp_side(const LoweredProgram& p, const MemAccess& r) {
  if (p.source->queues[r.queue].type != QueueType::Graphics) return false;
  if (r.kind == AccessKind::Indirect || r.kind == AccessKind::Index) return true;
  const WorkCmd* w = work_of(p, r.queue, r.cmd);
  return w && w->pfp_dma;
}

void append(std::vector<std::string>& to, const std::vector<std::string>& more) {
  for (const auto& m : more)
    if (std::find(to.begin(), to.end(), m) == to.end()) to.push_back(m);
}

// What holds a consumer back until a producer's write is done, by where the write comes from.
std::vector<std::string> producer_wait(const LoweredProgram& p, const MemAccess& w,
                                       const MemAccess& r) {
  std::vector<std::string> out;
  if (pfp_side(p, r)) append(out, pfp_holds());
  // Without A-WAVE-END-STORES-IN-GL2 a finished wave's stores may still be in flight: only IDLE
  // (A-IDLE-DRAINS-WRITES) waits for them.
  if (w.kind == AccessKind::Uav && !p.config.assumptions.enabled(AssumptionId::WaveEndStoresInGl2))
    append(out, {"D3D12XBOX_SYNC_FLAG_IDLE (a finished wave's stores may still be in flight "
                 "under this profile)"});
  const WorkCmd* wc = work_of(p, w.queue, w.cmd);
  if (w.stage == Stage::Dma)
    append(out, {wc && wc->pfp_dma ? "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA with "
                                     "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP"
                                   : "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA"});
  if (w.queue != r.queue) {
    const bool host = p.source->queues[r.queue].type == QueueType::Host ||
                      p.source->queues[w.queue].type == QueueType::Host;
    append(out, {host ? "Signal/Wait on a fence" : "a fence wait (WaitX/Wait) or Wait64BitValueX"});
    return out;
  }
  if (w.rb) {
    append(out, {"D3D12XBOX_SYNC_FLAG_IDLE", w.kind == AccessKind::Rt
                                                 ? "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY"
                                                 : "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY"});
    return out;
  }
  switch (w.stage) {
    case Stage::Cs:
      append(out, {"D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH"});
      break;
    case Stage::Vs:
      append(out, {"D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH"});
      break;
    case Stage::Ps:
      append(out, {"D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH"});
      break;
    case Stage::Dma:
      return out;  // IDLE does not wait for CP DMA (R-IDLE)
    default:
      break;
  }
  // IDLE waits for every earlier draw and dispatch and, under A-IDLE-DRAINS-WRITES, for their
  // writes to land: an alternative to the stage's partial flush.
  append(out, {"D3D12XBOX_SYNC_FLAG_IDLE"});
  return out;
}

// What makes a queue wait for event `e` of earlier work: the partial flush of its stage, SYNC_CPDMA
// for CP DMA, IDLE for the render back-ends and for writes still landing.
std::string completion_wait(const LoweredProgram& p, EventId e) {
  const Event& ev = p.events[e];
  if (ev.kind == EventKind::DmaDone || ev.kind == EventKind::DmaStart)
    return "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA";
  // What a sync, value write, signal or wait performs — its cache operations, its write — and the
  // render back-ends' accesses are waited for by IDLE (R-IDLE, R-BOP-FIFO), not by a partial
  // flush; so is a shader store's arrival (R-IDLE-DRAINS). A copy's by SYNC_CPDMA.
  if (ev.kind == EventKind::RbDone || ev.kind == EventKind::CacheOp ||
      ev.kind == EventKind::ValueWrite || ev.kind == EventKind::Signal ||
      ev.kind == EventKind::WaitDone || ev.kind == EventKind::SyncStep)
    return "D3D12XBOX_SYNC_FLAG_IDLE";
  Stage st = Stage::Cs;
  if (ev.kind == EventKind::Access || ev.kind == EventKind::Arrive) {
    for (const MemAccess& m : p.accesses)
      if (m.ev == e || (ev.kind == EventKind::Arrive && m.arrive == e)) {
        if (m.stage == Stage::Dma) return "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA";
        if (m.rb || ev.kind == EventKind::Arrive) return "D3D12XBOX_SYNC_FLAG_IDLE";
        st = m.stage;
      }
  } else if (ev.what().rfind("vs", 0) == 0) {
    st = Stage::Vs;
  } else if (ev.what().rfind("ps", 0) == 0) {
    st = Stage::Ps;
  }
  switch (st) {
    case Stage::Vs:
      return "D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH";
    case Stage::Ps:
      return "D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH";
    case Stage::Dma:
      return "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA";
    case Stage::Cs:
      return "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH";
    default:
      return "D3D12XBOX_SYNC_FLAG_IDLE";
  }
}

At at_of(const MemAccess& m) {
  return {m.queue, m.cmd};
}

std::string at(const LoweredProgram& p, EventId e, const Times& t) {
  const Event& ev = p.events[e];
  return fmt::format("t={} ({} line {})", t[e], p.source->queues[ev.queue].name,
                     p.source->queues[ev.queue].commands[ev.cmd].loc.line);
}

// "the write of grid (line 12)": an access for explanations.
std::string access_name_of(const LoweredProgram& p, const MemAccess& m) {
  return fmt::format("{} of {} (line {})", m.write ? "write" : "read", object_name(*p.source, m),
                     p.source->queues[m.queue].commands[m.cmd].loc.line);
}

// ", and CB and GL2 are write-back: an eviction can move it on to memory at once" — the levels
// a write's data may cross at any moment, down to the `steps`-th level of its path.
std::string evicts_to(const MemAccess& w, size_t steps) {
  if (steps == 0) return "";
  std::vector<std::string> levels;
  for (size_t i = 0; i < steps; ++i) levels.emplace_back(to_string(w.path[i]));
  return fmt::format(", and {} {} write-back: an eviction can move it on to {} at once",
                     fmt::join(levels, " and "), steps == 1 ? "is" : "are",
                     to_string(w.path[steps]));
}

}  // namespace syncproof::properties::detail
