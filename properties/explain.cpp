#include "properties/explain.h"

#include <fmt/format.h>

#include <optional>

#include "model/flags.h"
#include "model/validity.h"

namespace syncproof::properties {

using namespace model;

namespace {

// The sync API and SyncFlags word of a command that takes SyncFlags, if it is one.
struct SyncView {
  SyncApi api;
  uint32_t flags;
};
std::optional<SyncView> sync_view(const Command& cmd) {
  if (const auto* s = std::get_if<SyncCmd>(&cmd.body)) return SyncView{s->api, s->flags};
  if (const auto* b = std::get_if<BopWriteCmd>(&cmd.body)) return SyncView{b->api, b->flags};
  if (const auto* s = std::get_if<SignalCmd>(&cmd.body); s && s->xbox)
    return SyncView{SyncApi::Signal2X, s->flags};
  if (const auto* w = std::get_if<WaitFenceCmd>(&cmd.body); w && w->xbox)
    return SyncView{SyncApi::WaitX, w->flags};
  return std::nullopt;
}

bool accepts(SyncApi api, QueueType q, uint32_t bits) {
  return (accepted_sync_flags(api, q) & bits) == bits;
}

// The queue and the range of command indices [lo, hi) to look in, nearest first.
struct Window {
  uint32_t queue, lo, hi;
  bool backwards;  // nearest is the last one
};

Window window(At w, At r, Side side) {
  const auto after_w = static_cast<uint32_t>(w.cmd + 1);
  if (side == Side::Consumer) return {r.queue, r.queue == w.queue ? after_w : 0u, r.cmd, true};
  return {w.queue, after_w, w.queue == r.queue ? r.cmd : UINT32_MAX, false};
}

const FlagDef* sync_flag(const std::string& name) {
  const FlagDef* d = find_any_flag(name);
  return d && d->family == FlagFamily::Sync && d->value ? d : nullptr;
}

}  // namespace

std::string where(const LoweredProgram& p, At at) {
  return fmt::format("{}:{}", p.source->file, p.source->queues[at.queue].commands[at.cmd].loc.line);
}

std::string place_flag(const LoweredProgram& p, const std::string& flag, Side side, At from,
                       At to) {
  const FlagDef* d = sync_flag(flag);
  if (!d) return flag;
  const Case& c = *p.source;
  const Window win = window(from, to, side);
  const Queue& q = c.queues[win.queue];
  if (q.type == QueueType::Host) return flag;  // the CPU has no sync to carry it
  const uint32_t bits = *d->value;
  const uint32_t hi = std::min<uint32_t>(win.hi, static_cast<uint32_t>(q.commands.size()));
  for (uint32_t k = 0; win.lo + k < hi; ++k) {
    const uint32_t i = win.backwards ? hi - 1 - k : win.lo + k;
    const auto v = sync_view(q.commands[i]);
    if (!v || !accepts(v->api, q.type, bits) || (v->flags & bits) == bits) continue;
    return fmt::format("{} on {} at {}", flag, to_string(v->api), where(p, {win.queue, i}));
  }
  // None: a new sync, of the kind that takes the flag (bottom of pipe on the producer's side).
  const bool bop = side != Side::Consumer && accepts(SyncApi::SyncBottomOfPipeX, q.type, bits);
  const bool top = accepts(SyncApi::SyncTopOfPipeX, q.type, bits);
  const SyncApi api = bop || !top ? SyncApi::SyncBottomOfPipeX : SyncApi::SyncTopOfPipeX;
  if (side == Side::Consumer)
    return fmt::format("{} in a new {} before {}", flag, to_string(api), where(p, to));
  return fmt::format("{} in a new {} after {}", flag, to_string(api), where(p, from));
}

std::vector<std::string> place_flags(const LoweredProgram& p, const std::vector<std::string>& flags,
                                     Side side, At from, At to) {
  std::vector<std::string> out;
  for (const std::string& f : flags) out.push_back(place_flag(p, f, side, from, to));
  return out;
}

std::string on_or_after(const LoweredProgram& p, const std::string& flag, At at) {
  const FlagDef* d = sync_flag(flag);
  const Queue& q = p.source->queues[at.queue];
  if (d) {
    const auto v = sync_view(q.commands[at.cmd]);
    if (v && accepts(v->api, q.type, *d->value) && (v->flags & *d->value) != *d->value)
      return fmt::format("{} on {} at {}", flag, to_string(v->api), where(p, at));
  }
  return fmt::format("{} in a sync after {}", flag, where(p, at));
}

}  // namespace syncproof::properties
