#include "viz/match.h"

namespace syncproof::viz {

using namespace model;

std::vector<EventId> match_events(const LoweredProgram& p, const properties::Violated& v) {
  const Case& c = *p.source;
  const auto& times = v.witness.times;
  std::vector<EventId> out;
  std::vector<bool> used(p.events.size(), false);
  for (const properties::TraceLine& l : v.trace.lines) {
    EventId found = kNoEvent;
    for (EventId e = 0; e < p.events.size() && found == kNoEvent; ++e) {
      const Event& ev = p.events[e];
      if (used[e] || c.queues[ev.queue].name != l.queue ||
          c.queues[ev.queue].commands[ev.cmd].loc.line != l.line)
        continue;
      if (!(l.what == ev.what() || l.what.rfind(ev.what() + " [", 0) == 0)) continue;
      if (times.size() == p.events.size() && times[e] != l.time) continue;
      found = e;
    }
    if (found != kNoEvent) used[found] = true;
    out.push_back(found);
  }
  return out;
}

std::string unit_of(const LoweredProgram& p, EventId e) {
  const Event& ev = p.events[e];
  const QueueType qt = p.source->queues[ev.queue].type;
  const std::string cp = qt == QueueType::Graphics  ? "ME"
                         : qt == QueueType::Compute ? "MEC"
                                                    : "CPU";
  const auto waves = [&](std::string_view what) -> std::string {
    if (what.starts_with("vs")) return "VS waves";
    if (what.starts_with("ps")) return "PS waves";
    return "CS waves";
  };
  switch (ev.kind) {
    case EventKind::PfpStep:
      return "PFP";
    case EventKind::MeStep:
    case EventKind::SyncStep:
    case EventKind::WaitDone:
      return cp;
    case EventKind::HostStep:
      return "CPU";
    case EventKind::StageStart:
    case EventKind::StageEnd:
      return waves(ev.what());
    case EventKind::RbDone:
      return "render back-ends";
    case EventKind::DmaStart:
    case EventKind::DmaDone:
      return "CP DMA";
    case EventKind::Access:
      for (const MemAccess& m : p.accesses) {
        if (m.ev != e) continue;
        if (m.rb) return "render back-ends";
        switch (m.stage) {
          case Stage::Vs:
            return "VS waves";
          case Stage::Ps:
            return "PS waves";
          case Stage::Cs:
            return "CS waves";
          case Stage::Cp:
            return qt == QueueType::Graphics ? "PFP" : "MEC";
          case Stage::Dma:
            return "CP DMA";
          case Stage::Host:
            return "CPU";
        }
      }
      return cp;
    case EventKind::Arrive:
    case EventKind::CacheOp:
      return "cache operations";
    case EventKind::BopStart:
    case EventKind::ValueWrite:
      return "bottom of pipe";
    case EventKind::Signal:
      return "signals";
  }
  return cp;
}

}  // namespace syncproof::viz
