#include "properties/monitor.h"

#include <fmt/format.h>

namespace syncproof::properties {

using namespace model;

namespace {

std::string writeback_flag(Level l) {
  switch (l) {
    case Level::Cb:
      return "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH";
    case Level::CbMeta:
      return "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH";
    case Level::Db:
      return "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH";
    case Level::DbMeta:
      return "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH";
    case Level::So:
      return "D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH";
    default:
      return "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK";
  }
}

std::string invalidate_flag(Level l) {
  switch (l) {
    case Level::Icache:
      return "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE";
    case Level::Kcache:
      return "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE";
    case Level::Gl0:
      return "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE";
    case Level::Gl1:
      return "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE";
    case Level::Mcache:
      return "D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE";
    case Level::Cb:
    case Level::CbMeta:
      return "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE";
    case Level::Db:
    case Level::DbMeta:
      return "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE";
    default:
      return "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE";
  }
}

// What holds a consumer back until a producer's write is done, by where the write comes from.
std::vector<std::string> producer_wait(const LoweredProgram& p, const MemAccess& w,
                                       const MemAccess& r) {
  // Without A-WAVE-END-STORES-IN-GL2 a finished wave's stores may still be in flight: only IDLE
  // (A-IDLE-DRAINS-WRITES) waits for them.
  if (w.kind == AccessKind::Uav && !p.config.assumptions.enabled(AssumptionId::WaveEndStoresInGl2))
    return {
        "D3D12XBOX_SYNC_FLAG_IDLE (a finished wave's stores may still be in flight under "
        "this profile)"};
  if (w.queue != r.queue) {
    const bool host = p.source->queues[r.queue].type == QueueType::Host ||
                      p.source->queues[w.queue].type == QueueType::Host;
    return {host ? "Signal/Wait on a fence" : "a fence wait (WaitX/Wait) or Wait64BitValueX"};
  }
  switch (w.stage) {
    case Stage::Cs:
      return {"D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH"};
    case Stage::Vs:
      return {"D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH"};
    case Stage::Ps:
      if (w.rb) return {"D3D12XBOX_SYNC_FLAG_IDLE"};
      return {"D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH"};
    case Stage::Dma:
      return {"D3D12XBOX_SYNC_FLAG_SYNC_CPDMA"};
    default:
      return {"D3D12XBOX_SYNC_FLAG_IDLE"};
  }
}

// What makes a queue wait for event `e` of earlier work: the partial flush of its stage, SYNC_CPDMA
// for CP DMA, IDLE for the render back-ends and for writes still landing.
std::string completion_wait(const LoweredProgram& p, EventId e) {
  const Event& ev = p.events[e];
  if (ev.kind == EventKind::DmaDone || ev.kind == EventKind::DmaStart)
    return "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA";
  if (ev.kind == EventKind::RbDone || ev.kind == EventKind::Arrive)
    return "D3D12XBOX_SYNC_FLAG_IDLE";
  Stage st = Stage::Cs;
  if (ev.kind == EventKind::Access) {
    for (const MemAccess& m : p.accesses)
      if (m.ev == e) st = m.stage;
  } else if (ev.what.rfind("vs", 0) == 0) {
    st = Stage::Vs;
  } else if (ev.what.rfind("ps", 0) == 0) {
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

bool pfp_side(const MemAccess& r) {
  return r.kind == AccessKind::Indirect || r.kind == AccessKind::Index;
}

std::string at(const LoweredProgram& p, EventId e, const Times& t) {
  const Event& ev = p.events[e];
  return fmt::format("t={} ({} line {})", t[e], p.source->queues[ev.queue].name,
                     p.source->queues[ev.queue].commands[ev.cmd].loc.line);
}

MonitorResult fresh(const LoweredProgram& p, const Freshness& f, const Times& t, uint64_t line) {
  MonitorResult res;
  const MemAccess& w = p.accesses[f.write];
  const MemAccess& r = p.accesses[f.read];
  const auto& res_name = p.source->resources[w.resource].name;
  long long tr = t[r.ev];
  long long cur = t[w.arrive];
  const std::string unit = fmt::format("{} line at 0x{:X}", res_name, line * kUnitBytes);
  if (cur >= tr) {
    res.violated = true;
    res.why = fmt::format("the read at {} happened before the write's data reached {} at {}",
                          at(p, r.ev, t), to_string(w.path[0]), at(p, w.arrive, t));
    res.blamed = (pfp_side(r) && w.queue == r.queue && p.command(r.queue, r.cmd).me != kNoEvent &&
                  t[p.command(r.queue, r.cmd).me] > cur)
                     ? std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME"}
                     : producer_wait(p, w, r);
    return res;
  }
  for (const Step& s : f.steps) {
    std::optional<long long> next;
    std::optional<uint32_t> early, late, uncovered;
    for (uint32_t oi : s.ops) {
      const CacheOp& op = p.cache_ops[oi];
      long long to = t[op.ev];
      res.cache_ops.push_back(oi);
      if (!op.cov.covers(line)) {
        uncovered = oi;
        continue;
      }
      if (to <= cur)
        early = oi;
      else if (!next || to < *next)
        next = to;
      if (to >= tr) late = oi;
    }
    if (next && *next < tr) {
      cur = *next;
      continue;
    }
    res.violated = true;
    const std::string flag = s.down ? writeback_flag(s.level) : invalidate_flag(s.level);
    const char* verb = s.down ? "written back" : "invalidated";
    if (next) {  // the operation came, but only after the read
      const CacheOp& op = p.cache_ops[*late];
      res.why = fmt::format(
          "{} was {} only at {}, after the read at {} — nothing held the reader until the {} "
          "({}) had run",
          to_string(s.level), verb, at(p, op.ev, t), at(p, r.ev, t), op.flag,
          pfp_side(r) ? "the PFP reads ahead of the ME"
                      : "bottom-of-pipe operations are pipelined");
      res.blamed = {pfp_side(r) ? "D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME" : "D3D12XBOX_SYNC_FLAG_IDLE"};
    } else if (early) {
      const CacheOp& op = p.cache_ops[*early];
      res.why = fmt::format(
          "{} was {} at {} ({}), before the data reached it at t={}: {} could still serve a "
          "stale copy of the {} to the read at {}",
          to_string(s.level), verb, at(p, op.ev, t), op.flag, cur, to_string(s.level), unit,
          at(p, r.ev, t));
      res.blamed = &s == &f.steps.front() ? producer_wait(p, w, r) : std::vector<std::string>{flag};
    } else if (uncovered) {
      const CacheOp& op = p.cache_ops[*uncovered];
      res.why = fmt::format(
          "the {} at {} does not cover the {} (a RANGE/MARGIN selector limits it), so {} kept a "
          "stale copy for the read at {}",
          op.flag, at(p, op.ev, t), unit, to_string(s.level), at(p, r.ev, t));
      res.blamed = {flag};
    } else {
      res.why = fmt::format(
          "nothing {} {} after the write: the read at {} can get a stale copy of the {} from {}",
          s.down ? "wrote back" : "invalidated", to_string(s.level), at(p, r.ev, t), unit,
          to_string(s.level));
      res.blamed = {flag};
    }
    return res;
  }
  return res;
}

}  // namespace

ChainResult follow_chain(const LoweredProgram& p, const std::vector<Step>& steps, long long start,
                         uint64_t line, const Times& t) {
  long long cur = start;
  for (size_t i = 0; i < steps.size(); ++i) {
    std::optional<long long> next;
    for (uint32_t oi : steps[i].ops) {
      const CacheOp& op = p.cache_ops[oi];
      long long to = t[op.ev];
      if (op.cov.covers(line) && to > cur && (!next || to < *next)) next = to;
    }
    if (!next) return {std::nullopt, i};
    cur = *next;
  }
  return {cur, steps.size()};
}

MonitorResult monitor(const LoweredProgram& p, const Obligation& o, const Times& t, uint64_t line) {
  MonitorResult res;
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      return fresh(p, o.fresh, t, line);
    case Obligation::Kind::Ordered:
      for (EventId b : o.ordering.after)
        for (EventId a : o.ordering.before)
          if (t[b] <= t[a]) {
            res.violated = true;
            res.why = fmt::format("{} ({}) did not wait for {} ({})", p.events[b].what, at(p, b, t),
                                  p.events[a].what, at(p, a, t));
            res.blamed = {completion_wait(p, a)};
            if (p.events[b].queue != p.events[a].queue)
              res.blamed.push_back("a fence or label wait");
            return res;
          }
      return res;
    case Obligation::Kind::WriteOrder: {
      const MemAccess& w1 = p.accesses[o.waw.first];
      const MemAccess& w2 = p.accesses[o.waw.second];
      auto c1 = follow_chain(p, o.waw.first_steps, t[w1.arrive], line, t);
      auto c2 = follow_chain(p, o.waw.second_steps, t[w2.arrive], line, t);
      if (c2.time && (!c1.time || *c1.time >= *c2.time)) {
        res.violated = true;
        res.why = fmt::format(
            "the earlier write's data reached the shared level {} the later one's (t={}): the "
            "older value can win",
            c1.time ? fmt::format("at t={}, not before", *c1.time) : "never, or only after",
            *c2.time);
        res.blamed =
            c1.time
                ? producer_wait(p, w1, w2)
                : std::vector<std::string>{writeback_flag(o.waw.first_steps[c1.failed_step].level)};
      }
      return res;
    }
    case Obligation::Kind::Race: {
      res.violated = true;
      res.why = "no queue order, fence wait or label wait orders these conflicting accesses";
      res.blamed = {"a fence or label wait"};
      return res;
    }
  }
  return res;
}

}  // namespace syncproof::properties
