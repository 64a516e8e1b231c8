#include "properties/monitor.h"

#include "properties/api_order.h"
#include "properties/explain.h"
#include "properties/monitor_text.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/d3d12.h"

namespace syncproof::properties {

using namespace model;
using namespace detail;

namespace {

// A step that joins its down step (A-GL2-WB-BEFORE-INV): an operation of both steps covering the
// line, after the point before the previous step, crosses this one at its own time too (it wrote
// the line back and then invalidated it). The earliest such time, or nothing.
std::optional<long long> joined_crossing(const LoweredProgram& p, const Step& s,
                                         const OpList* prev_ops, long long before_prev,
                                         uint64_t line, const Times& t) {
  std::optional<long long> best;
  if (!prev_ops || !joins_active(p, s)) return best;
  for (uint32_t oi : s.ops) {
    const long long to = t[p.cache_ops[oi].ev];
    if (p.cache_ops[oi].cov.covers(line) && to > before_prev && (!best || to < *best) &&
        std::find(prev_ops->begin(), prev_ops->end(), oi) != prev_ops->end())
      best = to;
  }
  return best;
}

// The first mate (index into f.mates) that keeps the GL2 line dirty when operation `op` of the
// GL2 step runs, or nothing when the operation carries the data across (gl2_step_open).
std::optional<uint32_t> dirty_mate(const LoweredProgram& p, const Freshness& f, uint32_t op,
                                   uint64_t line, const Times& t) {
  const long long to = t[p.cache_ops[op].ev];
  std::optional<uint32_t> found;
  auto arrived = [&](uint32_t m) { return t[p.accesses[f.mates[m].access].arrive] <= to; };
  auto clean = [&](uint32_t m) {
    const auto c =
        follow_chain(p, f.mates[m].steps.items(), t[p.accesses[f.mates[m].access].arrive], line, t);
    const bool ok = c.time && *c.time < to;
    if (!ok && !found) found = m;
    return ok;
  };
  if (gl2_step_open(p, f, op, line, 0, arrived, clean)) return std::nullopt;
  return found;
}

// The first fill of the render back-end step's cache (f.rb_up) that ran before `below` (when the
// data reached the level below) with no covering invalidation of step `s` after it up to then:
// a stale copy the cache may still hold.
std::optional<RbFill> filled_stale(const LoweredProgram& p, const Freshness& f, const Step& s,
                                   uint64_t line, long long below, const Times& t) {
  for (const RbFill& fill : f.fills) {
    if (!fill.relevant(line) || t[fill.ev] >= below) continue;
    const bool invalidated = std::any_of(s.ops.begin(), s.ops.end(), [&](uint32_t oi) {
      const long long to = t[p.cache_ops[oi].ev];
      return p.cache_ops[oi].cov.covers(line) && t[fill.ev] < to && to <= below;
    });
    if (!invalidated) return fill;
  }
  return std::nullopt;
}

MonitorResult fresh(const LoweredProgram& p, const Freshness& f, const Times& t, uint64_t line) {
  MonitorResult res;
  const MemAccess& w = p.accesses[f.write];
  const MemAccess& r = p.accesses[f.read];
  const std::string res_name = object_name(*p.source, w);
  long long tr = t[r.ev];
  long long cur = t[w.arrive];
  const std::string unit = fmt::format("{} line at 0x{:X}", res_name, line * kUnitBytes);
  std::optional<ApiOrder> hb;
  if (cur >= tr) {
    res.violated = true;
    res.why = fmt::format("the read at {} happened before the write's data reached {} at {}",
                          at(p, r.ev, t), to_string(w.path[0]), at(p, w.arrive, t));
    res.blamed = place_flags(p, producer_wait(p, w, r), Side::Between, at_of(w), at_of(r));
    return res;
  }
  long long before_prev = cur;  // where the chain stood before the previous step
  const OpList* prev_ops = nullptr;
  uint32_t crossed_by = UINT32_MAX;  // the operation that crossed the previous step
  for (size_t j = 0; j < f.steps.size(); ++j) {
    const Step& s = f.steps[j];
    std::optional<long long> next = joined_crossing(p, s, prev_ops, before_prev, line, t);
    // A render back-end cache holds no stale copy when every fill before now was invalidated
    // since (A-RB-FILL-ON-ACCESS): the data is across as soon as it is below.
    std::optional<RbFill> stale_fill;
    if (static_cast<int>(j) == f.rb_up && fill_rule(p, f)) {
      stale_fill = filled_stale(p, f, s, line, cur, t);
      if (!stale_fill) next = cur;
    }
    before_prev = cur;
    prev_ops = &s.ops;
    std::optional<uint32_t> early, late, uncovered;
    // An invalidation of the GL2 step that kept the line because a mate had left it dirty
    // (R-GL2-INV-KEEPS-DIRTY): (operation, mate).
    std::optional<std::pair<uint32_t, uint32_t>> kept;
    for (uint32_t oi : s.ops) {
      const CacheOp& op = p.cache_ops[oi];
      long long to = t[op.ev];
      res.cache_ops.push_back(oi);
      if (!op.cov.covers(line)) {
        uncovered = oi;
        continue;
      }
      if (static_cast<int>(j) == f.gl2_up && to > cur && to < tr) {
        std::optional<uint32_t> dirty = dirty_mate(p, f, oi, line, t);
        if (dirty) {
          if (!kept) kept = {oi, *dirty};
          continue;  // it kept the line: as if it had not run for this read
        }
      }
      const Event& oe = p.events[op.ev];
      if (to <= cur) {
        // An operation API-ordered before the write was never meant for it: not "too early".
        if (!hb) hb.emplace(p);
        const bool before_write =
            (oe.queue == w.queue && oe.cmd < w.cmd) || hb->before(oe.queue, oe.cmd, w.queue, w.cmd);
        if (!before_write) early = oi;
      } else if (!next || to < *next) {
        next = to;
      }
      // "Too late" only for an operation the reader could have been made to wait for: one API
      // order puts before it. Anything else is as good as absent for the explanation. (API
      // order is computed only here, on the way to an explanation.)
      if (to >= tr && !late) {
        if (!hb) hb.emplace(p);
        if ((oe.queue == r.queue && oe.cmd < r.cmd) || hb->before(oe.queue, oe.cmd, r.queue, r.cmd))
          late = oi;
      }
    }
    if (next && *next < tr) {
      cur = *next;
      crossed_by = UINT32_MAX;
      for (uint32_t oi : s.ops)
        if (t[p.cache_ops[oi].ev] == cur && p.cache_ops[oi].cov.covers(line)) crossed_by = oi;
      continue;
    }
    res.violated = true;
    const std::vector<std::string> flags =
        place_flags(p, s.down ? writeback_flags(s.level) : invalidate_flags(s.level),
                    s.down ? Side::Producer : Side::Consumer, at_of(w), at_of(r));
    const char* verb = s.down ? "written back" : "invalidated";
    if (kept) {
      const CacheOp& op = p.cache_ops[kept->first];
      const LineMate& mate = f.mates[kept->second];
      const MemAccess& x = p.accesses[mate.access];
      const auto back = follow_chain(p, mate.steps.items(), t[x.arrive], line, t);
      const At op_at{p.events[op.ev].queue, p.events[op.ev].cmd};
      res.why = fmt::format(
          "the {} at {} kept the GL2 line at 0x{:X}: the {} had left it dirty (its data reached "
          "{} at {} and {}), and {} - with the line's stale copy of {} - so the read at {} can "
          "get the old bytes from GL2",
          op.flag, at(p, op.ev, t), line * kUnitBytes / kLineBytes * kLineBytes,
          access_name_of(p, x), to_string(x.path[0]), at(p, x.arrive, t),
          back.time ? fmt::format("was written back only at t={}", *back.time)
                    : std::string("was never written back"),
          op.writeback ? "without A-GL2-WB-BEFORE-INV nothing says the operation writes a line "
                         "back before it invalidates it, keeping the dirty line"
                       : "an invalidation without write-back keeps dirty lines",
          res_name, at(p, r.ev, t));
      // The dirty line written back between the mate's write and the invalidation; or, where one
      // write-back+invalidate drops dirty lines, the write-back on the invalidation itself.
      res.blamed =
          place_flags(p, {"D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK"}, Side::Producer, at_of(x), op_at);
      if (!op.writeback && wb_inv_drops_dirty(p))
        res.blamed.push_back(on_or_after(p, "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK", op_at));
      res.events.push_back(x.arrive);
    } else if (late) {  // the operation was issued before the read but ran after it
      const CacheOp& op = p.cache_ops[*late];
      const auto* sync = std::get_if<SyncCmd>(
          &p.source->queues[p.events[op.ev].queue].commands[p.events[op.ev].cmd].body);
      const bool top = sync && sync->api == SyncApi::SyncTopOfPipeX;
      const BarrierCmd* barrier = barrier_of(p, op);
      res.why = fmt::format(
          "{} was {} only at {}, after the read at {}: nothing held the reader until the {} "
          "had run ({})",
          to_string(s.level), verb, at(p, op.ev, t), at(p, r.ev, t), op.flag,
          pfp_side(p, r) ? "the PFP reads ahead of the ME"
          : barrier      ? "the barrier's SYNC_AFTER does not hold this reader"
          : top          ? "the top-of-pipe sync does not hold this reader"
                         : "bottom-of-pipe operations are pipelined");
      // What holds the reader until that operation ran: IDLE on its own sync (or a PFP hold).
      const At op_at{p.events[op.ev].queue, p.events[op.ev].cmd};
      // A value write or Signal2X whose own operations its write need not wait for
      // (A-BOP-WRITE-AFTER-OWN-GCR off): its IDLE does not wait for them either (R-BOP-ORDER), so
      // the operation goes in a sync of its own before it, which the write does wait for.
      const Command& op_cmd = p.source->queues[op_at.queue].commands[op_at.cmd];
      const bool own_gcr_unordered =
          (std::holds_alternative<BopWriteCmd>(op_cmd.body) ||
           std::holds_alternative<SignalCmd>(op_cmd.body)) &&
          !p.config.assumptions.enabled(AssumptionId::BopWriteAfterOwnGcr);
      if (pfp_side(p, r))
        res.blamed = place_flags(p, pfp_holds(), Side::Between, op_at, at_of(r));
      else if (own_gcr_unordered)
        res.blamed = {
            fmt::format("{} in a new SyncBottomOfPipeX before {}", op.flag, where(p, op_at))};
      else
        res.blamed = {on_or_after(p, "D3D12XBOX_SYNC_FLAG_IDLE", op_at)};
      if (barrier) res.blamed.insert(res.blamed.begin(), barrier_hold_text(p, r, op_at));
    } else if (stale_fill) {
      res.why = fmt::format(
          "the render back-ends filled {} with the {} at {} ({}), before the data reached {} at "
          "t={}, and nothing invalidated {} after that: the read at {} can get that stale copy",
          to_string(s.level), unit, at(p, stale_fill->ev, t), p.events[stale_fill->ev].what(),
          to_string(r.path[static_cast<size_t>(
              std::min<int>(r.path.index_of(s.level) + 1, r.path.size - 1))]),
          before_prev, to_string(s.level), at(p, r.ev, t));
      res.blamed = flags;
      res.events.push_back(stale_fill->ev);
    } else if (early && s.joins && *early == crossed_by) {
      // One write-back+invalidate crossed the write-back step; whether it also invalidates after
      // writing back is A-GL2-WB-BEFORE-INV, which this configuration does not assume.
      const CacheOp& op = p.cache_ops[*early];
      const At op_at{p.events[op.ev].queue, p.events[op.ev].cmd};
      res.why = fmt::format(
          "the {} at {} wrote the {} back and invalidated {} in one operation, and without "
          "A-GL2-WB-BEFORE-INV nothing says its invalidation follows its write-back: {} could "
          "still serve a stale copy to the read at {}",
          op.flag, at(p, op.ev, t), unit, to_string(s.level), to_string(s.level), at(p, r.ev, t));
      res.blamed = {
          fmt::format("D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE in a sync after {}", where(p, op_at)),
          "assume +A-GL2-WB-BEFORE-INV"};
    } else if (early) {
      const CacheOp& op = p.cache_ops[*early];
      res.why = fmt::format(
          "{} was {} at {} ({}), before the data reached it at t={}: {} could still serve a "
          "stale copy of the {} to the read at {}",
          to_string(s.level), verb, at(p, op.ev, t), op.flag, cur, to_string(s.level), unit,
          at(p, r.ev, t));
      // Before the data even reached the coherence level: the reader was not made to wait for
      // the producer. Otherwise the level needed invalidating again, after the one below: the
      // command that has the flag ran it too early, so a later one must.
      const At op_at{p.events[op.ev].queue, p.events[op.ev].cmd};
      if (t[op.ev] <= t[w.arrive]) {
        res.blamed = place_flags(p, producer_wait(p, w, r), Side::Between, at_of(w), at_of(r));
      } else {
        res.blamed.clear();
        // The step below was crossed by an operation issued before this one that completed
        // after it (a pipelined bottom-of-pipe operation): IDLE on its sync holds the CP until
        // it is done.
        if (crossed_by != UINT32_MAX) {
          const Event& ce = p.events[p.cache_ops[crossed_by].ev];
          if (!hb) hb.emplace(p);
          if ((ce.queue == op_at.queue && ce.cmd < op_at.cmd) ||
              hb->before(ce.queue, ce.cmd, op_at.queue, op_at.cmd))
            res.blamed.push_back(on_or_after(p, "D3D12XBOX_SYNC_FLAG_IDLE", {ce.queue, ce.cmd}));
        }
        // The level again after that one: a write-back on the producer's side, an invalidation
        // where the reader's queue can order it before the read.
        for (const std::string& f :
             place_flags(p, s.down ? writeback_flags(s.level) : invalidate_flags(s.level),
                         s.down ? Side::Producer : Side::Consumer, op_at, at_of(r)))
          res.blamed.push_back(fmt::format("{} (the one at {} ran before the data reached {})", f,
                                           where(p, op_at), to_string(s.level)));
      }
    } else if (uncovered) {
      const CacheOp& op = p.cache_ops[*uncovered];
      const bool barrier = barrier_of(p, op) != nullptr;
      res.why = fmt::format(
          "the {} at {} does not cover the {} ({}), so {} kept a stale copy for the read at {}",
          op.flag, at(p, op.ev, t), unit,
          barrier ? "the barrier does its cache work for the resources it names"
                  : "a RANGE/MARGIN selector limits it",
          to_string(s.level), at(p, r.ev, t));
      const At op_at{p.events[op.ev].queue, p.events[op.ev].cmd};
      res.blamed.clear();
      if (barrier)
        res.blamed.push_back(fmt::format("a barrier naming {} (the one at {} does not)",
                                         object_name(*p.source, r), where(p, op_at)));
      for (const std::string& f : s.down ? writeback_flags(s.level) : invalidate_flags(s.level))
        res.blamed.push_back(
            fmt::format("{} over a range that covers 0x{:X} (the one at {} does "
                        "not)",
                        f, line * kUnitBytes, where(p, op_at)));
    } else if (s.down) {
      // The fresh data sits dirty in this write-back level; below it is the stale copy.
      const int at_level = w.path.index_of(s.level);
      const Level below = at_level >= 0 && at_level + 1 < w.path.size
                              ? w.path[static_cast<size_t>(at_level) + 1]
                              : Level::Mem;
      res.why = fmt::format(
          "nothing wrote back {} after the write: the fresh data can still be dirty in {}, and "
          "the read at {} can get the stale copy of the {} from {}",
          to_string(s.level), to_string(s.level), at(p, r.ev, t), unit, to_string(below));
      res.blamed = flags;
    } else {
      res.why = fmt::format(
          "nothing invalidated {} after the write: the read at {} can get a stale copy of the {} "
          "from {}",
          to_string(s.level), at(p, r.ev, t), unit, to_string(s.level));
      res.blamed = flags;
    }
    return res;
  }
  return res;
}

// Whether one of the step's operations covering `line` belongs to a command API-ordered after
// `w1`'s and before `w2`'s.
bool written_back_between(const LoweredProgram& p, const Step& s, uint64_t line,
                          const MemAccess& w1, const MemAccess& w2, const ApiOrder& hb) {
  for (uint32_t oi : s.ops) {
    const CacheOp& op = p.cache_ops[oi];
    if (!op.cov.covers(line)) continue;
    const Event& oe = p.events[op.ev];
    if (hb.before(w1.queue, w1.cmd, oe.queue, oe.cmd) &&
        hb.before(oe.queue, oe.cmd, w2.queue, w2.cmd))
      return true;
  }
  return false;
}

MonitorResult write_order(const LoweredProgram& p, const WriteOrder& o, const Times& t,
                          uint64_t line) {
  MonitorResult res;
  const MemAccess& w1 = p.accesses[o.first];
  const MemAccess& w2 = p.accesses[o.second];
  const long long t2 = t[w2.arrive];
  // The earlier data's latest arrival at the meeting level must precede the later data's
  // earliest, which is its arrival at its first level (obligation.h).
  auto c1 = follow_chain(p, o.first_steps, t[w1.arrive], line, t);
  for (const Step& s : o.first_steps)
    res.cache_ops.insert(res.cache_ops.end(), s.ops.begin(), s.ops.end());
  if (c1.time && *c1.time < t2) return res;
  res.violated = true;
  const Level meet = w1.path[o.first_steps.size()];
  const std::string later =
      fmt::format("the later write's data reached {} at {}{}", to_string(w2.path[0]),
                  at(p, w2.arrive, t), evicts_to(w2, o.second_steps.size()));
  ApiOrder hb(p);
  if (t[w1.arrive] >= t2) {
    // Waiting for the earlier data's arrival is not enough when its first level is write-back and
    // no write-back of that level is issued between the two writes: its dirty line could still
    // be evicted after the later data, in every execution. That write-back is then what every
    // fix adds, whichever way this execution went wrong first.
    if (!o.first_steps.empty() && !written_back_between(p, o.first_steps[0], line, w1, w2, hb)) {
      const Level first = o.first_steps[0].level;
      res.why = fmt::format(
          "{}, before the earlier write's data even reached {} at {}; and nothing between the two "
          "writes writes back {}, so its dirty line can be evicted at any later time: the older "
          "value can win in {}",
          later, to_string(first), at(p, w1.arrive, t), to_string(first), to_string(meet));
      res.blamed = place_flags(p, writeback_flags(first), Side::Producer, at_of(w1), at_of(w2));
      return res;
    }
    res.why = fmt::format(
        "{}, before the earlier write's data even reached {} at {}: the older "
        "value can win in {}",
        later, to_string(w1.path[0]), at(p, w1.arrive, t), to_string(meet));
    res.blamed = place_flags(p, producer_wait(p, w1, w2), Side::Between, at_of(w1), at_of(w2));
    return res;
  }
  // Where the earlier data stood when the later data arrived: the first step it had not crossed.
  auto before = follow_chain(p, o.first_steps, t[w1.arrive], line, t, t2);
  const Step& s = o.first_steps[before.failed_step];
  std::optional<uint32_t> late;
  for (uint32_t oi : s.ops) {
    const CacheOp& op = p.cache_ops[oi];
    const Event& oe = p.events[op.ev];
    if (op.cov.covers(line) && t[op.ev] >= t2 &&
        ((oe.queue == w2.queue && oe.cmd < w2.cmd) ||
         hb.before(oe.queue, oe.cmd, w2.queue, w2.cmd)))
      late = oi;
  }
  if (late) {
    const CacheOp& op = p.cache_ops[*late];
    res.why = fmt::format(
        "{} was written back only at {} ({}), after {}: nothing held the later write until the "
        "write-back had run (bottom-of-pipe operations are pipelined), so the older value can win "
        "in {}",
        to_string(s.level), at(p, op.ev, t), op.flag, later, to_string(meet));
    res.blamed = {
        on_or_after(p, "D3D12XBOX_SYNC_FLAG_IDLE", {p.events[op.ev].queue, p.events[op.ev].cmd})};
  } else {
    res.why = fmt::format(
        "nothing wrote back {} after the earlier write reached it: its dirty line can be evicted "
        "at any time, also after {}, so the older value can win in {}{}",
        to_string(s.level), later, to_string(meet),
        s.level == Level::Gl2 && w2.kind == AccessKind::Host
            ? " (a GL2_INVALIDATE without GL2_WRITEBACK keeps dirty lines)"
            : "");
    res.blamed = place_flags(p, writeback_flags(s.level), Side::Producer, at_of(w1), at_of(w2));
  }
  return res;
}

}  // namespace

ChainResult follow_chain(const LoweredProgram& p, const std::vector<Step>& steps, long long start,
                         uint64_t line, const Times& t, long long until) {
  long long cur = start, before_prev = start;
  for (size_t i = 0; i < steps.size(); ++i) {
    // The earliest crossing before `until`; `until` itself means none.
    long long next =
        joined_crossing(p, steps[i], i ? &steps[i - 1].ops : nullptr, before_prev, line, t)
            .value_or(until);
    before_prev = cur;
    for (uint32_t oi : steps[i].ops) {
      const CacheOp& op = p.cache_ops[oi];
      const long long to = t[op.ev];
      if (op.cov.covers(line) && to > cur && to < next) next = to;
    }
    if (next >= until) return {std::nullopt, i};
    cur = next;
  }
  return {cur, steps.size()};
}

MonitorResult monitor(const LoweredProgram& p, const Obligation& o, const Times& t, uint64_t line) {
  MonitorResult res;
  if (o.vacuous(p)) return res;  // a path the write does not take under the configuration
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      return fresh(p, o.fresh, t, line);
    case Obligation::Kind::Ordered:
      for (EventId b : o.ordering.after)
        for (EventId a : o.ordering.before)
          if (t[b] <= t[a]) {
            res.violated = true;
            res.why = fmt::format("{} ({}) did not wait for {} ({})", p.events[b].what(),
                                  at(p, b, t), p.events[a].what(), at(p, a, t));
            res.blamed = {place_flag(p, completion_wait(p, a), Side::Between,
                                     {p.events[a].queue, p.events[a].cmd},
                                     {p.events[b].queue, p.events[b].cmd})};
            if (p.events[b].queue != p.events[a].queue)
              res.blamed.push_back("a fence or label wait");
            return res;
          }
      return res;
    case Obligation::Kind::WriteOrder:
      return write_order(p, o.waw, t, line);
    case Obligation::Kind::ReadFirst: {
      // The later write's earliest arrival where the read looks is its arrival at its first
      // level: every level below is write-back and may evict the line at once (obligation.h).
      const MemAccess& r = p.accesses[o.war.read];
      const MemAccess& w = p.accesses[o.war.write];
      if (t[w.arrive] < t[r.ev]) {
        res.violated = true;
        res.why = fmt::format(
            "the later write's data reached {} at {}, before the read at {}{}: the read can "
            "return the new value",
            to_string(w.path[0]), at(p, w.arrive, t), at(p, r.ev, t),
            evicts_to(w, o.war.steps.size()));
        res.blamed = {place_flag(p, completion_wait(p, r.ev), Side::Between, at_of(r), at_of(w))};
        if (r.queue != w.queue) res.blamed.push_back("a fence or label wait");
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
