#include "synth/candidates.h"

#include "model/barrier.h"
#include "model/d3d12.h"
#include "model/flags.h"
#include "model/validity.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

uint64_t key_of(const Edit& e) {
  return (uint64_t{e.queue} << 48) ^ (uint64_t{e.cmd} << 24) ^ (uint64_t{e.flags} * 31) ^
         (uint64_t{e.control.bits} << 8) ^ static_cast<uint64_t>(e.kind) ^
         (uint64_t{static_cast<uint8_t>(e.api)} << 4) ^ (uint64_t{e.variant} << 2);
}

bool is_wait(const Command& c) {
  return std::holds_alternative<WaitValueCmd>(c.body) ||
         std::holds_alternative<WaitFenceCmd>(c.body);
}
bool is_release(const Command& c) {
  return std::holds_alternative<SignalCmd>(c.body) || std::holds_alternative<BopWriteCmd>(c.body);
}

uint32_t access_cmd(const LoweredProgram& p, uint32_t a, uint32_t* q) {
  *q = p.accesses[a].queue;
  return p.accesses[a].cmd;
}

// Point in `base` for the gap before command k of the variant's queue q (k == size: the end).
uint32_t base_point(const Case& base, const Origins& origin, uint32_t q, uint32_t k) {
  if (k < origin[q].size()) return origin[q][k].index;
  return static_cast<uint32_t>(base.queues[q].commands.size());
}

}  // namespace

uint32_t Universe::add(const Edit& e, bool* added) {
  const uint64_t k = key_of(e);
  auto [lo, hi] = by_key_.equal_range(k);
  for (auto it = lo; it != hi; ++it)
    if (same_edit(edits_[it->second], e)) {
      if (added) *added = false;
      return it->second;
    }
  const auto i = static_cast<uint32_t>(edits_.size());
  edits_.push_back(e);
  by_key_.emplace(k, i);
  if (added) *added = true;
  return i;
}

std::vector<Pair> obligation_pairs(const LoweredProgram& p, const properties::Obligation& o) {
  using K = properties::Obligation::Kind;
  Pair pr{};
  switch (o.kind) {
    case K::Fresh:
      pr.a = access_cmd(p, o.fresh.write, &pr.qa);
      pr.b = access_cmd(p, o.fresh.read, &pr.qb);
      break;
    case K::Ordered: {
      if (o.ordering.before.empty() || o.ordering.after.empty()) return {};
      const Event& x = p.events[o.ordering.before.front()];
      const Event& y = p.events[o.ordering.after.front()];
      pr = {x.queue, x.cmd, y.queue, y.cmd, false};
      break;
    }
    case K::WriteOrder:
      pr.a = access_cmd(p, o.waw.first, &pr.qa);
      pr.b = access_cmd(p, o.waw.second, &pr.qb);
      break;
    case K::ReadFirst:
      pr.a = access_cmd(p, o.war.read, &pr.qa);
      pr.b = access_cmd(p, o.war.write, &pr.qb);
      break;
    case K::Race:
      pr.a = access_cmd(p, o.race.a, &pr.qa);
      pr.b = access_cmd(p, o.race.b, &pr.qb);
      pr.race = true;
      break;
  }
  return {pr};
}

std::vector<Edit> carrier_additions(const Case& base, uint32_t q, uint32_t i) {
  std::vector<Edit> out;
  const Command& cmd = base.queues[q].commands[i];
  const auto car = carrier(cmd);
  if (!car) return out;
  const QueueType qt = base.queues[q].type;
  bool whole = true;
  if (const auto* s = std::get_if<SyncCmd>(&cmd.body)) whole = s->range.all;
  const uint32_t accepted = accepted_sync_flags(car->api, qt);
  auto add = [&](uint32_t flags, ControlFlags control) {
    Edit e;
    e.kind = EditKind::AddFlags, e.queue = q, e.cmd = i, e.flags = flags, e.control = control;
    out.push_back(e);
  };
  for (const FlagDef* d : operation_flags()) {
    const uint32_t bit = *d->value;
    if (bit & sync::kNoEffectInModel) continue;  // it would only carry: nothing to add
    if ((accepted & bit) != bit || !can_add_operation(car->flags, bit)) continue;
    if (!valid_word(car->flags | bit, car->api, qt, whole)) continue;
    add(bit, {});
  }
  const bool sync = car->api == SyncApi::SyncTopOfPipeX || car->api == SyncApi::SyncBottomOfPipeX;
  if (sync && qt == QueueType::Graphics) {
    if (car->api == SyncApi::SyncTopOfPipeX && !car->control.has(ControlFlag::TopSelectEnginePfp)) {
      ControlFlags c;
      c.set(ControlFlag::TopSelectEnginePfp);
      add(0, c);
    }
    if (!car->control.has(ControlFlag::IdleSelectEnginePfp) &&
        (accepted & sync::kIdle) == sync::kIdle) {
      ControlFlags c;
      c.set(ControlFlag::IdleSelectEnginePfp);
      add(car->flags & sync::kIdle ? 0 : sync::kIdle, c);
    }
  }
  // GCR_SEQUENCE_REVERSE where no sequence is given: outer level first, what A-GCR-OUTER-FIRST
  // assumes anyway, so it only removes orders (monotone); only where there are cache operations
  // to sequence (else the linter warns that it modifies nothing).
  ControlFlags rev;
  rev.set(ControlFlag::GcrSequenceReverse);
  if (is_bop_write(car->api) && !car->control.has(ControlFlag::GcrSequenceForward) &&
      !car->control.has(ControlFlag::GcrSequenceReverse) &&
      check_control_effect(rev, car->flags).empty())
    add(0, rev);
  return out;
}

std::vector<Edit> new_sync_candidates(const Case& base, uint32_t q, uint32_t before) {
  std::vector<Edit> out;
  const QueueType qt = base.queues[q].type;
  if (qt == QueueType::Host) return out;
  // The step alone: a SyncTopOfPipeX with no flags is one ME step in queue order (R-TOP-BLOCKS-CP
  // with nothing to wait for), where the step is what a proof needs. Without it the search would
  // reach the step through the cheapest flag on a new sync, an operation used as a carrier.
  {
    Edit e;
    e.kind = EditKind::NewSync, e.queue = q, e.cmd = before, e.api = SyncApi::SyncTopOfPipeX;
    out.push_back(e);
  }
  for (SyncApi api : {SyncApi::SyncBottomOfPipeX, SyncApi::SyncTopOfPipeX}) {
    const uint32_t accepted = accepted_sync_flags(api, qt);
    auto add = [&](uint32_t flags, ControlFlags control, uint8_t variant) {
      Edit e;
      e.kind = EditKind::NewSync, e.queue = q, e.cmd = before, e.api = api;
      e.flags = flags, e.control = control, e.variant = variant;
      out.push_back(e);
    };
    for (const FlagDef* d : operation_flags()) {
      const uint32_t bit = *d->value;
      if (bit & sync::kNoEffectInModel) continue;
      if ((accepted & bit) != bit || !valid_word(bit, api, qt)) continue;
      add(bit, {}, 0);
    }
    if (qt != QueueType::Graphics) continue;
    ControlFlags idle_pfp, cpdma_pfp;
    idle_pfp.set(ControlFlag::IdleSelectEnginePfp);
    cpdma_pfp.set(ControlFlag::CpdmaSelectEnginePfp);
    if ((accepted & sync::kIdle) == sync::kIdle) add(sync::kIdle, idle_pfp, 0);
    if ((accepted & sync::kSyncCpdma) == sync::kSyncCpdma) add(sync::kSyncCpdma, cpdma_pfp, 1);
    if (api == SyncApi::SyncTopOfPipeX) {
      ControlFlags top_pfp;
      top_pfp.set(ControlFlag::TopSelectEnginePfp);
      add(0, top_pfp, 0);
    }
  }
  return out;
}

size_t add_candidates(const Case& base, const Case& variant, const Origins& origin,
                      const properties::ApiOrder& order, const Pair& pr, Universe& out) {
  size_t added = 0;
  auto put = [&](const Edit& e) {
    bool fresh = false;
    out.add(e, &fresh);
    added += fresh;
  };
  // Between the two commands: after the first in API order (or later on its queue) and before
  // the second (or earlier on its queue).
  auto after_first = [&](uint32_t q, uint32_t k) {
    return (q == pr.qa && k >= pr.a) || order.before(pr.qa, pr.a, q, k);
  };
  auto before_second = [&](uint32_t q, uint32_t k) {
    return (q == pr.qb && k <= pr.b) || order.before(q, k, pr.qb, pr.b);
  };
  const bool x = out.style() != Style::Standard;
  if (out.style() != Style::X)
    for (const Edit& e : barrier_candidates(base, variant, origin, pr)) put(e);
  if (!x) return added;
  auto gap = [&](uint32_t q, uint32_t k) {
    for (const Edit& e : new_sync_candidates(base, q, base_point(base, origin, q, k))) put(e);
  };
  for (uint32_t q = 0; q < variant.queues.size(); ++q) {
    const auto& cmds = variant.queues[q].commands;
    for (uint32_t k = 0; k < cmds.size(); ++k) {
      if (!after_first(q, k) || !before_second(q, k)) continue;
      const Origin& o = origin[q][k];
      if (carrier(cmds[k]) && !o.fresh)
        for (const Edit& e : carrier_additions(base, q, o.index)) put(e);
      if (carrier(cmds[k]) && o.fresh) gap(q, k);  // a sync the fix adds: more of the same
      if (is_wait(cmds[k]) && q == pr.qb && k < pr.b) gap(q, k + 1);
      if (is_release(cmds[k]) && q == pr.qa && k > pr.a) gap(q, k);
    }
  }
  gap(pr.qa, pr.a + 1);
  gap(pr.qb, pr.b);
  if (pr.race) {  // the other order
    gap(pr.qb, pr.b + 1);
    gap(pr.qa, pr.a);
  }
  return added;
}

// Standard barriers as fix candidates (`--style standard|any`): for a pair of commands an
// obligation relates, an enhanced global barrier whose SYNC_BEFORE and ACCESS_BEFORE are the
// first command's stages and accesses and whose SYNC_AFTER and ACCESS_AFTER are the second's,
// right after the first and right before the second (on their own queues: a barrier orders
// nothing on another queue). Adding a barrier never proves less (SEMANTICS.md §6), so these are
// monotone candidates like the Xbox flags.
namespace {

struct BarrierSide {
  uint32_t sync = 0, access = 0;
};

BarrierSide side_of(const Command& cmd) {
  BarrierSide s;
  const auto* w = std::get_if<WorkCmd>(&cmd.body);
  if (!w) return s;
  for (const Access& a : w->accesses) {
    s.sync |= stage_sync(a.kind, a.stage);
    s.access |= access_bit(a.kind, a.write);
  }
  return s;
}

// The global barrier for the pair on queue type q, or nothing when the queue cannot name them.
std::optional<BarrierCmd> global_barrier(BarrierSide before, BarrierSide after, QueueType q) {
  if (q == QueueType::Host || !before.access || !after.access) return std::nullopt;
  const uint32_t syncs = queue_syncs(q), accesses = queue_accesses(q);
  BarrierCmd b;
  b.kind = BarrierKind::Global;
  b.sync_before = before.sync & syncs ? before.sync & syncs : d3d12::kSync.all;
  b.sync_after = after.sync & syncs ? after.sync & syncs : d3d12::kSync.all;
  b.access_before = before.access & accesses;
  b.access_after = after.access & accesses;
  if (!b.access_before || !b.access_after) return std::nullopt;
  if (incompatible_accesses(b.access_before, b.sync_before) ||
      incompatible_accesses(b.access_after, b.sync_after))
    return std::nullopt;
  return b;
}

}  // namespace

std::vector<Edit> barrier_candidates(const Case& base, const Case& variant, const Origins& origin,
                                     const Pair& pr) {
  std::vector<Edit> out;
  const BarrierSide a = side_of(variant.queues[pr.qa].commands[pr.a]);
  const BarrierSide b = side_of(variant.queues[pr.qb].commands[pr.b]);
  auto point = [&](uint32_t q, uint32_t k) {
    return k < origin[q].size() ? origin[q][k].index
                                : static_cast<uint32_t>(base.queues[q].commands.size());
  };
  auto add = [&](uint32_t q, uint32_t before) {
    if (auto bar = global_barrier(a, b, base.queues[q].type)) {
      Edit e;
      e.kind = EditKind::NewBarrier, e.queue = q, e.cmd = before, e.wait = *bar;
      out.push_back(e);
    }
  };
  add(pr.qb, point(pr.qb, pr.b));
  if (pr.qa != pr.qb || pr.a + 1 != pr.b) add(pr.qa, point(pr.qa, pr.a + 1));
  return out;
}

}  // namespace syncproof::synth
