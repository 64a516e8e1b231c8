#include "synth/edit.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "model/flags.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

bool same_edit_body(const CommandBody& a, const CommandBody& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<WaitValueCmd>(&a)) {
    const auto& y = std::get<WaitValueCmd>(b);
    return x->is64 == y.is64 && x->label == y.label && x->address == y.address && x->cmp == y.cmp &&
           x->value == y.value;
  }
  if (const auto* x = std::get_if<WaitFenceCmd>(&a)) {
    const auto& y = std::get<WaitFenceCmd>(b);
    return x->xbox == y.xbox && x->fence == y.fence && x->value == y.value && x->flags == y.flags;
  }
  if (const auto* x = std::get_if<BarrierCmd>(&a)) return same_barrier(*x, std::get<BarrierCmd>(b));
  return true;  // an edit that is not a wait leaves its body at the default: nothing to compare
}

// Where a new command goes among the others at its point: release, wait, standard barrier,
// acquire.
int slot(const Edit& e) {
  if (e.kind == EditKind::NewWait) return 1;
  if (e.kind == EditKind::NewBarrier) return 2;
  return e.api == SyncApi::SyncBottomOfPipeX ? 0 : 3;
}

bool is_new(const Edit& e) {
  return e.kind == EditKind::NewSync || e.kind == EditKind::NewWait ||
         e.kind == EditKind::NewBarrier;
}

struct Point {
  uint32_t queue, before;
  int slot;
  uint8_t variant;
  uint32_t wait;  // NewWait: index among the distinct waits at the point
  auto key() const { return std::tie(queue, before, slot, variant, wait); }
  bool operator<(const Point& o) const { return key() < o.key(); }
};

// The new commands of an edit set, by point, in the order they go in.
std::map<Point, Command> build_new(const std::vector<const Edit*>& edits) {
  std::map<Point, Command> out;
  std::vector<std::tuple<uint32_t, uint32_t, CommandBody>> waits;  // distinct (queue, before, body)
  for (const Edit* e : edits) {
    if (e->kind == EditKind::NewSync) {
      Point p{e->queue, e->cmd, slot(*e), e->variant, 0};
      auto [it, fresh] = out.try_emplace(p);
      if (fresh) it->second.body = SyncCmd{e->api, 0, {}, {}, {}};
      auto& s = std::get<SyncCmd>(it->second.body);
      s.flags |= e->flags;
      s.control.bits |= e->control.bits;
    } else if (e->kind == EditKind::NewWait || e->kind == EditKind::NewBarrier) {
      uint32_t n = 0;
      for (; n < waits.size(); ++n) {
        const auto& [q, b, body] = waits[n];
        if (q == e->queue && b == e->cmd && same_edit_body(body, e->wait)) break;
      }
      if (n == waits.size()) waits.emplace_back(e->queue, e->cmd, e->wait);
      Point p{e->queue, e->cmd, slot(*e), 0, n};
      out.try_emplace(p).first->second.body = e->wait;
    }
  }
  return out;
}

void modify(Command& cmd, const Edit& e) {
  auto car = carrier(cmd);
  if (!car) return;
  switch (e.kind) {
    case EditKind::AddFlags:
      *car->flags |= e.flags;
      if (car->control) car->control->bits |= e.control.bits;
      break;
    case EditKind::SetControl:
      if (car->control) car->control->bits = (car->control->bits & ~e.clear.bits) | e.control.bits;
      break;
    case EditKind::RemoveFlags:
      *car->flags &= ~e.flags;
      if (car->control) car->control->bits &= static_cast<uint8_t>(~e.control.bits);
      break;
    default:
      break;
  }
}

std::string number(uint64_t v) {
  return v < 0x10000 ? fmt::format("{}", v) : fmt::format("0x{:X}", v);
}

}  // namespace

std::string_view to_string(Style s) {
  return s == Style::X ? "x" : s == Style::Standard ? "standard" : "any";
}

std::optional<Style> find_style(std::string_view name) {
  for (Style s : {Style::X, Style::Standard, Style::Any})
    if (to_string(s) == name) return s;
  return std::nullopt;
}

std::vector<const Edit*> pointers(const std::vector<Edit>& edits) {
  std::vector<const Edit*> out;
  for (const Edit& e : edits) out.push_back(&e);
  return out;
}

bool same_edit(const Edit& a, const Edit& b) {
  return a.kind == b.kind && a.queue == b.queue && a.cmd == b.cmd && a.api == b.api &&
         a.flags == b.flags && a.control.bits == b.control.bits && a.clear.bits == b.clear.bits &&
         a.variant == b.variant && same_edit_body(a.wait, b.wait);
}

Origins identity_origins(const Case& c) {
  Origins o(c.queues.size());
  for (size_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) o[q].push_back({i, false});
  return o;
}

Origins compose(const Origins& a_from_o, const Origins& b_from_a) {
  Origins out(b_from_a.size());
  for (size_t q = 0; q < b_from_a.size(); ++q)
    for (const Origin& x : b_from_a[q]) {
      if (!x.fresh) {
        out[q].push_back(a_from_o[q][x.index]);
        continue;
      }
      // Fresh in b, before a's command x.index: before that command's own origin point.
      if (x.index < a_from_o[q].size())
        out[q].push_back({a_from_o[q][x.index].index, true});
      else {
        uint32_t end = 0;  // after the last command of o
        for (const Origin& y : a_from_o[q])
          if (!y.fresh)
            end = std::max(end, y.index + 1);
          else
            end = std::max(end, y.index);
        out[q].push_back({end, true});
      }
    }
  return out;
}

Case apply(const Case& base, const std::vector<Edit>& edits, Origins* origin) {
  Case v = base;
  std::vector<std::vector<char>> removed(v.queues.size());
  for (size_t q = 0; q < v.queues.size(); ++q) removed[q].assign(v.queues[q].commands.size(), 0);
  for (const Edit& e : edits) {
    if (is_new(e)) continue;
    if (e.queue >= v.queues.size() || e.cmd >= v.queues[e.queue].commands.size()) continue;
    if (e.kind == EditKind::RemoveCommand)
      removed[e.queue][e.cmd] = 1;
    else
      modify(v.queues[e.queue].commands[e.cmd], e);
  }
  const auto fresh = build_new(pointers(edits));
  if (origin) origin->assign(v.queues.size(), {});
  for (uint32_t q = 0; q < v.queues.size(); ++q) {
    std::vector<Command> out;
    auto& cmds = v.queues[q].commands;
    auto it = fresh.lower_bound(Point{q, 0, 0, 0, 0});
    for (uint32_t i = 0; i <= cmds.size(); ++i) {
      for (; it != fresh.end() && it->first.queue == q && it->first.before == i; ++it) {
        out.push_back(it->second);
        if (origin) (*origin)[q].push_back({i, true});
      }
      if (i < cmds.size() && !removed[q][i]) {
        out.push_back(std::move(cmds[i]));
        if (origin) (*origin)[q].push_back({i, false});
      }
    }
    cmds = std::move(out);
  }
  return v;
}

int added_cost(const Case& base, const std::vector<const Edit*>& edits, const CostModel& costs) {
  int sum = 0;
  std::map<std::pair<uint32_t, uint32_t>, Command> changed;
  for (const Edit* e : edits) {
    if (is_new(*e)) continue;
    const Command& orig = base.queues[e->queue].commands[e->cmd];
    auto [it, fresh] = changed.try_emplace({e->queue, e->cmd}, orig);
    if (e->kind == EditKind::RemoveCommand)
      it->second.body = WorkCmd{};  // costs nothing
    else
      modify(it->second, *e);
  }
  for (const auto& [at, cmd] : changed) {
    const QueueType qt = base.queues[at.first].type;
    sum +=
        costs.of(cmd, qt, &base) - costs.of(base.queues[at.first].commands[at.second], qt, &base);
  }
  for (const auto& [p, cmd] : build_new(edits))
    sum += costs.of(cmd, base.queues[p.queue].type, &base);
  return sum;
}

std::vector<NewCommand> new_commands(const Case& /*base*/, const std::vector<Edit>& edits) {
  std::vector<NewCommand> out;
  for (auto& [p, cmd] : build_new(pointers(edits))) out.push_back({p.queue, p.before, cmd});
  return out;
}

std::string sync_word_text(uint32_t word, bool prefix) {
  std::vector<std::string> names;
  uint32_t known = 0;
  for (const FlagDef& d : all_flags()) {
    if (d.family != FlagFamily::Sync || !d.value || !*d.value) continue;
    const uint32_t v = *d.value;
    bool take = false;
    if (d.kind == FlagKind::Bit) {
      take = (word & v) == v;
    } else if (d.kind == FlagKind::Field) {
      for (SyncField f : {SyncField::Icache, SyncField::Gl1Range, SyncField::Gl2Range}) {
        if ((v & ~field_mask(f)) != 0) continue;
        const uint8_t fv = field_value(f, word);
        take = fv && fv == field_value(f, v) && field_constant_name(f, fv) == d.name;
        break;
      }
    }
    if (!take) continue;
    known |= v;
    names.emplace_back(prefix ? std::string(d.name) : short_flag_name(d.name));
  }
  if (uint32_t rest = word & ~known) names.push_back(fmt::format("0x{:X}", rest));
  if (names.empty()) return prefix ? "D3D12XBOX_SYNC_FLAG_NONE" : "NONE";
  return fmt::format("{}", fmt::join(names, " | "));
}

std::string control_word_text(ControlFlags f, bool prefix) {
  std::vector<std::string> names;
  for (int i = 0; i < kControlFlagCount; ++i) {
    const auto c = static_cast<ControlFlag>(i);
    if (f.has(c))
      names.emplace_back(prefix ? std::string(full_name(c)) : short_flag_name(full_name(c)));
  }
  if (names.empty()) return prefix ? "D3D12XBOX_SYNC_CONTROL_FLAG_NONE" : "NONE";
  return fmt::format("{}", fmt::join(names, " | "));
}

std::string command_source(const Case& c, const Command& cmd, bool prefix) {
  if (const auto* s = std::get_if<SyncCmd>(&cmd.body))
    return fmt::format("{}({}, {}, 0, D3D12XBOX_FLUSH_RANGE_ALL)", to_string(s->api),
                       sync_word_text(s->flags, prefix), control_word_text(s->control, prefix));
  if (const auto* w = std::get_if<WaitFenceCmd>(&cmd.body)) {
    std::string s = fmt::format("{}({}, {}", w->xbox ? "WaitX" : "Wait", c.fences[w->fence].name,
                                number(w->value));
    if (w->flags) s += ", " + sync_word_text(w->flags, prefix);
    return s + ")";
  }
  if (const auto* b = std::get_if<BarrierCmd>(&cmd.body)) return barrier_source(c, *b);
  if (const auto* w = std::get_if<WaitValueCmd>(&cmd.body)) {
    const std::string dest =
        w->label ? c.labels[*w->label].name : fmt::format("0x{:X}", w->address);
    return fmt::format("{}({}, {}{}, {})", w->is64 ? "Wait64BitValueX" : "Wait32BitValueX", dest,
                       prefix ? "D3D12_COMPARISON_FUNC_" : "", to_string(w->cmp), number(w->value));
  }
  return "";
}

}  // namespace syncproof::synth
