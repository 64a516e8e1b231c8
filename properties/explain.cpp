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

namespace {

// Whether some command of a queue of type `q` accepts the flag (a sync flag or a control flag):
// the linter rejects it everywhere else.
bool queue_accepts(const FlagDef& d, QueueType q) {
  if (q == QueueType::Host) return false;
  for (SyncApi api : {SyncApi::SyncTopOfPipeX, SyncApi::SyncBottomOfPipeX}) {
    if (d.family == FlagFamily::Sync && d.value && accepts(api, q, *d.value)) return true;
    if (const auto cf = control_flag_from_def(d)) {
      ControlFlags f;
      f.set(*cf);
      if (check_control_flags(f, api, q).empty()) return true;
    }
  }
  return false;
}

}  // namespace

std::string place_flag(const LoweredProgram& p, const std::string& flag, Side side, At from,
                       At to) {
  const Case& c = *p.source;
  // A flag the linter rejects on the queue that would carry it is never advice: a hold of the
  // reader's engine (PFP_SYNC_ME, the PFP selects) goes on the reader's queue, and on a queue
  // without that engine it is no alternative at all ("" : dropped by place_flags).
  if (const FlagDef* any = find_any_flag(flag);
      any && (sync_flag(flag) || control_flag_from_def(*any))) {
    const Window w0 = window(from, to, side);
    if (!queue_accepts(*any, c.queues[w0.queue].type)) {
      if (side == Side::Consumer || !queue_accepts(*any, c.queues[to.queue].type)) return "";
      side = Side::Consumer;
    }
  }
  const FlagDef* d = sync_flag(flag);
  if (!d) return flag;
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
  for (const std::string& f : flags)
    if (std::string placed = place_flag(p, f, side, from, to); !placed.empty())
      out.push_back(std::move(placed));
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

namespace {

// The command of `c` at source line `line` of its file (one command a line), if any.
std::optional<At> command_at_line(const Case& c, unsigned line) {
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i)
      if (c.queues[q].commands[i].loc.line == line) return At{q, i};
  return std::nullopt;
}

std::optional<SyncApi> api_named(std::string_view name) {
  for (SyncApi a :
       {SyncApi::SyncTopOfPipeX, SyncApi::SyncBottomOfPipeX, SyncApi::Signal2X, SyncApi::WaitX,
        SyncApi::Write32BitValueBottomOfPipe2X, SyncApi::Write64BitValueBottomOfPipe2X})
    if (to_string(a) == name) return a;
  return std::nullopt;
}

}  // namespace

std::optional<Remedy> remedy_of(const Case& c, std::string_view text) {
  const size_t sp = text.find(' ');
  if (sp == std::string_view::npos) return std::nullopt;
  const FlagDef* d = sync_flag(std::string(text.substr(0, sp)));
  if (!d) return std::nullopt;
  std::string_view rest = text.substr(sp + 1);
  // "on API at FILE:LINE", "in a new API before|after FILE:LINE", "in a sync after FILE:LINE".
  auto line_after = [&](std::string_view s) -> std::optional<At> {
    const std::string head = c.file + ":";
    if (s.substr(0, head.size()) != head) return std::nullopt;
    unsigned n = 0;
    size_t k = head.size();
    for (; k < s.size() && s[k] >= '0' && s[k] <= '9'; ++k) n = n * 10 + unsigned(s[k] - '0');
    if (k == head.size()) return std::nullopt;
    return command_at_line(c, n);
  };
  auto take = [&](std::string_view prefix) {
    if (rest.substr(0, prefix.size()) != prefix) return false;
    rest.remove_prefix(prefix.size());
    return true;
  };
  Remedy r;
  r.flags = *d->value;
  if (take("on ")) {
    const size_t k = rest.find(" at ");
    if (k == std::string_view::npos) return std::nullopt;
    const auto at = line_after(rest.substr(k + 4));
    if (!at) return std::nullopt;
    r.kind = Remedy::Kind::AddFlags, r.queue = at->queue, r.cmd = at->cmd;
    return r;
  }
  r.kind = Remedy::Kind::NewSync;
  if (take("in a sync after ")) {
    const auto at = line_after(rest);
    if (!at) return std::nullopt;
    // The sync kind that takes the flag: IDLE at the bottom of the pipe (where it waits for the
    // pipelined operations before it), anything else at the top (it holds the ME until done).
    const QueueType qt = c.queues[at->queue].type;
    const bool bop = r.flags == sync::kIdle ? accepts(SyncApi::SyncBottomOfPipeX, qt, r.flags)
                                            : !accepts(SyncApi::SyncTopOfPipeX, qt, r.flags);
    r.api = bop ? SyncApi::SyncBottomOfPipeX : SyncApi::SyncTopOfPipeX;
    r.queue = at->queue, r.cmd = at->cmd + 1;
    return r;
  }
  if (!take("in a new ")) return std::nullopt;
  const size_t k = rest.find(' ');
  if (k == std::string_view::npos) return std::nullopt;
  const auto api = api_named(rest.substr(0, k));
  if (!api) return std::nullopt;
  r.api = *api;
  rest.remove_prefix(k + 1);
  const bool before = take("before ");
  if (!before && !take("after ")) return std::nullopt;
  const auto at = line_after(rest);
  if (!at) return std::nullopt;
  r.queue = at->queue, r.cmd = before ? at->cmd : at->cmd + 1;
  return r;
}

}  // namespace syncproof::properties
