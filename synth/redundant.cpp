#include "synth/redundant.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/flags.h"
#include "model/validity.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

constexpr uint32_t kGl1Field = 0xCu, kGl2Field = 0x1800u;
constexpr uint32_t kGcrOps = 0x3u | sync::kKcacheInvalidate | sync::kVcacheInvalidate |
                             sync::kGl1Invalidate | sync::kGl2Invalidate | sync::kGl2Writeback |
                             sync::kGl2InvalidateUnshared | sync::kMcacheInvalidate |
                             sync::kMcacheWriteback;

// The removable items of one carrier: each operation (with what would modify nothing without it)
// and each control flag that only adds an order.
std::vector<Removal> items_of(const Case& c, uint32_t q, uint32_t i, const CostModel& costs) {
  std::vector<Removal> out;
  const auto car = carrier(c.queues[q].commands[i]);
  if (!car) return out;
  const uint32_t w = car->flags;
  auto item = [&](uint32_t flags, ControlFlags control, std::string what) {
    Removal r;
    r.queue = q, r.cmd = i, r.flags = flags, r.control = control, r.what = std::move(what);
    const uint32_t left = w & ~flags;
    // Selectors and engine selects that would modify nothing without the operation.
    if (!(left & sync::kGl1Invalidate)) r.flags |= w & kGl1Field;
    if (!(left & (sync::kGl2Invalidate | sync::kGl2Writeback))) r.flags |= w & kGl2Field;
    if (!(left & sync::kIdle)) {
      if (car->control.has(ControlFlag::IdleSelectEnginePfp))
        r.control.set(ControlFlag::IdleSelectEnginePfp);
      if (car->control.has(ControlFlag::IdleSelectEngineCe))
        r.control.set(ControlFlag::IdleSelectEngineCe);
    }
    if (!(left & sync::kSyncCpdma) && car->control.has(ControlFlag::CpdmaSelectEnginePfp))
      r.control.set(ControlFlag::CpdmaSelectEnginePfp);
    if (!(left & kGcrOps)) {
      if (car->control.has(ControlFlag::GcrSequenceForward))
        r.control.set(ControlFlag::GcrSequenceForward);
      if (car->control.has(ControlFlag::GcrSequenceReverse))
        r.control.set(ControlFlag::GcrSequenceReverse);
    }
    r.saves =
        costs.sync_word(w) + costs.controls(car->control) - costs.sync_word(w & ~r.flags) -
        costs.controls(ControlFlags{static_cast<uint8_t>(car->control.bits & ~r.control.bits)});
    out.push_back(std::move(r));
  };
  for (const FlagDef* d : operation_flags()) {
    const uint32_t bit = *d->value;
    if (!has_operation(w, bit)) continue;
    item(bit == sync::kIcacheInvalidate ? (w & 3u) : bit, {},
         bit == sync::kIcacheInvalidate ? sync_word_text(w & 3u) : std::string(d->name));
  }
  for (ControlFlag f : {ControlFlag::TopSelectEnginePfp, ControlFlag::IdleSelectEnginePfp,
                        ControlFlag::TopSelectEngineCe, ControlFlag::IdleSelectEngineCe}) {
    if (!car->control.has(f)) continue;
    ControlFlags cf;
    cf.set(f);
    item(0, cf, std::string(full_name(f)));
  }
  return out;
}

Edit removal_edit(const Removal& r) {
  Edit e;
  e.kind = EditKind::RemoveFlags, e.queue = r.queue, e.cmd = r.cmd, e.flags = r.flags;
  e.control = r.control;
  return e;
}

bool empty_sync(const Command& cmd) {
  const auto* s = std::get_if<SyncCmd>(&cmd.body);
  return s && s->flags == 0 && s->control.bits == 0 && cmd.label.empty();
}

}  // namespace

std::string_view to_string(RedundantResult::Status s) {
  switch (s) {
    case RedundantResult::Status::NotProved:
      return "not-proved";
    case RedundantResult::Status::None:
      return "none";
    case RedundantResult::Status::Found:
      return "found";
    case RedundantResult::Status::Budget:
      return "budget";
    case RedundantResult::Status::NotVerified:
      return "not-verified";
  }
  return "";
}

RedundantResult find_redundant(const Case& c, const std::vector<size_t>& props,
                               const FixOptions& given,
                               const std::vector<std::pair<uint32_t, uint32_t>>& only) {
  const FixOptions opt = in_session(given);
  RedundantResult res;
  res.before = opt.costs.barrier(c);
  res.minimized = c;
  res.origin = identity_origins(c);
  Oracle all(c, opt.search, opt.budget);
  const Outcome& start = all.check({}, props);
  if (!start.pass) {
    res.status = start.budget_exhausted ? RedundantResult::Status::Budget
                                        : RedundantResult::Status::NotProved;
    res.calls = all.calls();
    return res;
  }
  // Each item alone.
  std::vector<Removal> items;
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
      if (!only.empty() && std::find(only.begin(), only.end(), std::make_pair(q, i)) == only.end())
        continue;
      for (Removal& r : items_of(c, q, i, opt.costs)) items.push_back(std::move(r));
    }
  for (const Removal& r : items) {
    const uint32_t id = all.universe().add(removal_edit(r));
    const Outcome& x = all.check({id}, props);
    if (x.budget_exhausted) {
      res.status = RedundantResult::Status::Budget;
      res.calls = all.calls();
      return res;
    }
    if (x.pass) res.alone.push_back(r);
  }
  res.calls = all.calls();
  if (res.alone.empty()) return res;
  // The cheapest subset of them to keep: from the barrier without any, add back the fewest.
  std::vector<Edit> strip;
  for (const Removal& r : res.alone) strip.push_back(removal_edit(r));
  Origins o1;
  const Case stripped = apply(c, strip, &o1);
  Oracle keep(stripped, opt.search, opt.budget > res.calls ? opt.budget - res.calls : 0);
  for (const Removal& r : res.alone) {
    Edit e;
    e.kind = EditKind::AddFlags, e.queue = r.queue, e.cmd = r.cmd, e.flags = r.flags;
    e.control = r.control;
    keep.universe().add(e);
  }
  SearchOptions so;
  so.costs = &opt.costs;
  so.expand = false;
  const SearchResult sr = cheapest(keep, props, so);
  res.calls += keep.calls();
  if (sr.status != SearchResult::Status::Found) {
    res.status = sr.status == SearchResult::Status::Budget ? RedundantResult::Status::Budget
                                                           : RedundantResult::Status::NotVerified;
    res.why = sr.why;
    return res;
  }
  res.exact = sr.exact;
  std::vector<Edit> back;
  for (uint32_t id : sr.edits) back.push_back(keep.universe()[id]);
  Origins o2;
  Case minimized = apply(stripped, back, &o2);
  Origins origin = compose(o1, o2);
  // Syncs left with nothing to do go too, if every property stays proved without them.
  std::vector<Edit> gone;
  for (uint32_t q = 0; q < minimized.queues.size(); ++q)
    for (uint32_t i = 0; i < minimized.queues[q].commands.size(); ++i)
      if (empty_sync(minimized.queues[q].commands[i]) &&
          !empty_sync(c.queues[q].commands[origin[q][i].index])) {
        Edit e;
        e.kind = EditKind::RemoveCommand, e.queue = q, e.cmd = i;
        gone.push_back(e);
      }
  if (!gone.empty()) {
    Origins o3;
    Case without = apply(minimized, gone, &o3);
    Oracle check(without, opt.search, 1);
    if (check.check({}, props).pass) {
      minimized = std::move(without);
      origin = compose(origin, o3);
    }
    res.calls += check.calls();
  }
  res.verification = opt.verify(minimized);
  bool ok = res.verification.problems.empty();
  for (size_t p : props)
    for (const auto* r : {&res.verification.smt, &res.verification.exec})
      if (p < r->results.size() &&
          !std::holds_alternative<properties::Proved>(r->results[p].verdict))
        ok = false;
  res.changes = diff(c, minimized, origin, opt.costs);
  res.saves = -total_cost(res.changes);
  res.minimized = std::move(minimized);
  res.origin = std::move(origin);
  if (!ok) {
    res.status = RedundantResult::Status::NotVerified;
    res.why = res.verification.problems.empty()
                  ? "the smaller barrier is not proved by both engines"
                  : res.verification.problems.front();
    return res;
  }
  res.status = RedundantResult::Status::Found;
  return res;
}

}  // namespace syncproof::synth
