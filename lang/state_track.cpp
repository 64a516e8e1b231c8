// Resource-state tracking like the D3D12 debug layer's, for resources declared with `state` or
// `layout`, and the pairing of split barriers for every resource. State belongs to the resource:
// it changes at transitions, enhanced barriers and implicit promotions, in command order, and
// flows to other queues along fence and label waits. What a command sees is the state after the
// last change that happens before it; when changes that nothing orders against it would give
// another state, that is said instead of guessing. Resources declared without either keep the
// meaning they always had: they are not tracked.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "lang/parser.h"
#include "model/d3d12.h"

namespace syncproof::lang::detail {

namespace {

namespace d3d12 = model::d3d12;
using d3d12::Family;
using d3d12::kLayout;
using d3d12::kState;

std::string states(uint32_t v) {
  return d3d12::describe(Family::ResourceState, v);
}
std::string layout(uint32_t v) {
  return d3d12::describe(Family::BarrierLayout, v);
}

// The state a tracked resource is in.
struct Tracked {
  uint32_t state = 0;       // legacy D3D12_RESOURCE_STATES
  uint32_t layout = 0;      // textures
  bool enhanced = false;    // the layout was set by an enhanced barrier (or the declaration)
  bool promoted = false;    // `state` is an implicit promotion from COMMON
  uint32_t split_line = 0;  // a legacy split transition begun at this line, not yet ended
  uint32_t line = 0;        // where the state was set (0: the declaration)
  bool operator==(const Tracked& o) const {
    return state == o.state && layout == o.layout && enhanced == o.enhanced &&
           promoted == o.promoted && split_line == o.split_line;
  }
};

struct Change {
  uint32_t queue, cmd;
  Tracked after;
};

// The state a barrier leaves a tracked resource in (what it was before aside).
Tracked after_barrier(const Tracked& cur, const model::BarrierCmd& b, bool texture, uint32_t line) {
  Tracked next = cur;
  next.line = line;
  next.promoted = false;
  next.split_line = 0;
  if (b.kind == model::BarrierKind::Transition) {
    next.state = b.state_after;
    next.enhanced = false;
    if (texture) next.layout = model::state_layout(b.state_after);
    if (model::split_part(b) == model::SplitPart::Begin) next.split_line = line;
  } else {
    next.state = kState.common;
    next.enhanced = true;
    if (texture) next.layout = b.layout_after;
  }
  return next;
}

// Aggregate sync scopes expanded to the bits they stand for (the specification's tables), so
// that "contains" compares scopes, not spellings.
uint32_t expand_sync(uint32_t s) {
  const auto& k = d3d12::kSync;
  if (s & k.all) return ~k.split;
  if (s & k.draw)
    s |= k.index_input | k.vertex_shading | k.pixel_shading | k.depth_stencil | k.render_target;
  if (s & k.all_shading) s |= k.vertex_shading | k.pixel_shading | k.compute_shading;
  if (s & k.non_pixel_shading) s |= k.vertex_shading | k.compute_shading;
  return s;
}

// What the access clause at `loc` spans in its line: up to the next ',' or comment.
uint32_t clause_len(const std::vector<std::string>& lines, model::SrcLoc loc) {
  if (loc.line == 0 || loc.line > lines.size()) return 1;
  const std::string& l = lines[loc.line - 1];
  size_t end = l.find_first_of(",#", loc.col - 1);
  if (end == std::string::npos) end = l.size();
  while (end > loc.col - 1 && (l[end - 1] == ' ' || l[end - 1] == '\t')) --end;
  return static_cast<uint32_t>(std::max<size_t>(1, end - (loc.col - 1)));
}

bool is_read_state(uint32_t s) {
  const uint32_t writes = kState.render_target | kState.unordered_access | kState.depth_write |
                          kState.stream_out | kState.copy_dest | kState.resolve_dest | kState.video;
  return (s & writes) == 0;
}

// "PIXEL_SHADER_RESOURCE", or "DEPTH_WRITE or DEPTH_READ" for a need met by either.
std::string needs_text(uint32_t need) {
  std::vector<std::string> out;
  for (uint32_t bit = 1; bit; bit <<= 1)
    if (need & bit) out.push_back(states(bit));
  return fmt::format("{}", fmt::join(out, " or "));
}

std::string access_words(const model::Access& a, const std::string& res) {
  return fmt::format("{} {} as {}{}", a.write ? "writes" : "reads", res, to_string(a.kind),
                     model::shader_kind(a.kind) ? fmt::format(" in {}", to_string(a.stage)) : "");
}

}  // namespace

// Vector clocks of the commands: clock[q][i][p] is how many commands of queue p happen before
// or at command i of queue q (queue order, plus fence and label waits after the signal or value
// write that satisfies them: the first in its queue; the meet over queues). `order` receives the
// commands in an order that extends happens-before.
void Parser::command_clocks(std::vector<std::vector<std::vector<uint32_t>>>& clock,
                            std::vector<std::pair<uint32_t, uint32_t>>& order) {
  const size_t nq = c_.queues.size();
  clock.assign(nq, {});
  for (size_t q = 0; q < nq; ++q) clock[q].resize(c_.queues[q].commands.size());
  std::vector<size_t> pos(nq, 0);
  // The commands that can satisfy a wait: per queue, the first one.
  auto candidates = [&](const model::Command& cmd) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    const auto* fw = std::get_if<model::WaitFenceCmd>(&cmd.body);
    const auto* vw = std::get_if<model::WaitValueCmd>(&cmd.body);
    if (!fw && !vw) return out;
    for (uint32_t p = 0; p < nq; ++p) {
      const auto& cmds = c_.queues[p].commands;
      for (uint32_t i = 0; i < cmds.size(); ++i) {
        bool hit = false;
        if (const auto* s = std::get_if<model::SignalCmd>(&cmds[i].body); s && fw)
          hit = s->fence == fw->fence && s->value >= fw->value;
        if (const auto* b = std::get_if<model::BopWriteCmd>(&cmds[i].body); b && vw)
          hit = b->address == vw->address && b->source == model::WriteValueSource::Value &&
                model::compare(vw->cmp, b->value, vw->value);
        if (hit) {
          out.push_back({p, i});
          break;
        }
      }
    }
    return out;
  };
  size_t left = 0;
  for (const model::Queue& q : c_.queues) left += q.commands.size();
  bool force = false;
  while (left) {
    bool progress = false;
    for (size_t q = 0; q < nq; ++q) {
      const auto& cmds = c_.queues[q].commands;
      while (pos[q] < cmds.size()) {
        const size_t i = pos[q];
        std::vector<uint32_t> vc = i ? clock[q][i - 1] : std::vector<uint32_t>(nq, 0);
        vc[q] = static_cast<uint32_t>(i + 1);
        const auto cands = candidates(cmds[i]);
        bool ready = true;
        std::vector<uint32_t> meet;
        for (const auto& [p, k] : cands) {
          if (pos[p] <= k) {
            ready = false;
            continue;
          }
          if (meet.empty()) {
            meet = clock[p][k];
          } else {
            for (size_t x = 0; x < nq; ++x) meet[x] = std::min(meet[x], clock[p][k][x]);
          }
        }
        if (!ready && !force) break;
        force = false;
        if (ready)
          for (size_t x = 0; x < nq && !meet.empty(); ++x) vc[x] = std::max(vc[x], meet[x]);
        clock[q][i] = std::move(vc);
        order.push_back({static_cast<uint32_t>(q), static_cast<uint32_t>(i)});
        ++pos[q], --left, progress = true;
      }
    }
    force = !progress;  // every queue waits for another: take the first wait on as it is
  }
}

void Parser::check_states() {
  std::vector<uint32_t> tracked;
  for (uint32_t r = 0; r < c_.resources.size(); ++r)
    if (c_.resources[r].state || c_.resources[r].layout) tracked.push_back(r);
  if (tracked.empty()) return;
  std::vector<std::vector<std::vector<uint32_t>>> clock;
  std::vector<std::pair<uint32_t, uint32_t>> order;
  command_clocks(clock, order);
  auto hb = [&](const Change& e, uint32_t q, uint32_t i) {
    return clock[q][i][e.queue] >= e.cmd + 1 && !(e.queue == q && e.cmd == i);
  };
  std::map<uint32_t, std::vector<Change>> changes;
  std::map<uint32_t, Tracked> initial;
  for (uint32_t r : tracked) {
    const model::Resource& res = c_.resources[r];
    Tracked t;
    t.state = res.state.value_or(kState.common);
    t.layout = res.layout.value_or(model::state_layout(t.state));
    t.enhanced = res.layout.has_value() && !res.state.has_value();
    initial[r] = t;
  }
  // Every barrier's change, known before the commands are taken in order: a change on another
  // queue that nothing orders against a command makes its state unknown there, whether it comes
  // before or after it in the order the commands are taken.
  std::map<uint32_t, std::vector<Change>> barrier_changes;
  for (uint32_t q = 0; q < c_.queues.size(); ++q)
    for (uint32_t i = 0; i < c_.queues[q].commands.size(); ++i) {
      const model::Command& cmd = c_.queues[q].commands[i];
      const auto* b = std::get_if<model::BarrierCmd>(&cmd.body);
      if (!b || !b->resource || !initial.count(*b->resource) ||
          b->kind == model::BarrierKind::Uav || b->kind == model::BarrierKind::Aliasing)
        continue;
      const bool texture = c_.resources[*b->resource].kind == model::ResourceKind::Texture;
      barrier_changes[*b->resource].push_back(
          {q, i, after_barrier(initial[*b->resource], *b, texture, cmd.loc.line)});
    }
  // The last barrier on each resource of each queue: its SYNC_AFTER (sequential barriers).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> last_sync_after;
  auto at = [&](uint32_t line, uint32_t col, uint32_t len, model::Severity s, std::string msg) {
    line_ = line;
    report(s, col, len, std::move(msg));
  };
  // The state of r at command (q, i), or nullopt (and a warning) when it depends on the order of
  // commands nothing orders.
  auto state_at = [&](uint32_t r, uint32_t q, uint32_t i, model::SrcLoc loc, uint32_t len,
                      bool quiet = false) -> std::optional<Tracked> {
    const auto& list = changes[r];
    std::vector<const Change*> last, concurrent;
    for (const Change& e : list) {
      if (!hb(e, q, i)) {
        if (e.queue != q) concurrent.push_back(&e);  // another queue, not ordered
        continue;
      }
      bool maximal = true;
      for (const Change& f : list)
        if (&f != &e && hb(f, q, i) && hb(e, f.queue, f.cmd)) maximal = false;
      if (maximal) last.push_back(&e);
    }
    // The candidates: the last changes before the command (or the declared state), and every
    // change nothing orders against it.
    std::vector<Tracked> states;
    for (const Change* e : last) states.push_back(e->after);
    if (last.empty()) states.push_back(initial[r]);
    for (const Change* e : concurrent) states.push_back(e->after);
    for (const Change& e : barrier_changes[r])
      if (e.queue != q && !hb(e, q, i) && clock[e.queue][e.cmd][q] < i + 1 &&
          std::none_of(concurrent.begin(), concurrent.end(),
                       [&](const Change* x) { return x->queue == e.queue && x->cmd == e.cmd; })) {
        concurrent.push_back(&e);
        states.push_back(e.after);
      }
    for (const Tracked& s : states)
      if (!(s == states.front())) {
        if (quiet) return std::nullopt;
        std::vector<std::string> where;
        for (const Change* x : concurrent)
          where.push_back(fmt::format("line {}", c_.queues[x->queue].commands[x->cmd].loc.line));
        at(loc.line, loc.col, len, model::Severity::Warning,
           fmt::format("the state of {} here depends on the order of {}, which nothing orders "
                       "against this command: its state is not checked",
                       quote(c_.resources[r].name), fmt::format("{}", fmt::join(where, " and "))));
        return std::nullopt;
      }
    return states.front();
  };
  // The last command of each ExecuteCommandLists (`on` block) that is not a queue-level Signal or
  // Wait: where the state decay happens (below).
  std::set<std::pair<uint32_t, uint32_t>> ecl_ends;
  for (const auto& [q, starts] : block_starts_) {
    const auto& cmds = c_.queues[q].commands;
    for (size_t b = 0; b < starts.size(); ++b) {
      const uint32_t end = b + 1 < starts.size() ? starts[b + 1] : cmds.size();
      for (uint32_t i = end; i-- > starts[b];)
        if (!std::holds_alternative<model::SignalCmd>(cmds[i].body) &&
            !std::holds_alternative<model::WaitFenceCmd>(cmds[i].body)) {
          ecl_ends.insert({q, i});
          break;
        }
    }
  }
  // State decay (Microsoft Learn, "Using Resource Barriers to Synchronize Resource States in
  // Direct3D 12", "State decay to common"): when an ExecuteCommandLists completes, buffers and
  // the resources implicitly promoted to a read-only state are back in COMMON. A texture a
  // transition put in a state keeps it. (No simultaneous-access textures and no copy queues in
  // the case language.) Not between the lists of one ExecuteCommandLists.
  auto decay = [&](uint32_t q, uint32_t i) {
    const model::Command& cmd = c_.queues[q].commands[i];
    for (uint32_t r : tracked) {
      const bool texture = c_.resources[r].kind == model::ResourceKind::Texture;
      std::vector<Change>& list = changes[r];
      Change* own = nullptr;  // the change this command made itself
      for (Change& e : list)
        if (e.queue == q && e.cmd == i) own = &e;
      std::optional<Tracked> cur =
          own ? std::optional<Tracked>(own->after) : state_at(r, q, i, cmd.loc, 1, /*quiet=*/true);
      if (!cur || cur->enhanced || cur->split_line || cur->state == kState.common) continue;
      if (texture && !(cur->promoted && is_read_state(cur->state))) continue;
      Tracked next;
      next.state = kState.common;
      next.layout = model::state_layout(kState.common);
      next.line = cmd.loc.line;
      if (own)
        own->after = next;
      else
        list.push_back({q, i, next});
    }
  };
  for (const auto& [q, i] : order) {
    struct Decay {  // after the command, whatever it is
      std::function<void()> run;
      ~Decay() { run(); }
    } at_end{[&, q = q, i = i] {
      if (ecl_ends.count({q, i})) decay(q, i);
    }};
    const model::Command& cmd = c_.queues[q].commands[i];
    if (const auto* w = std::get_if<model::WorkCmd>(&cmd.body)) {
      for (const model::Access& a : w->accesses) {
        if (!initial.count(a.resource)) continue;
        const model::Resource& res = c_.resources[a.resource];
        const uint32_t len = clause_len(c_.lines, a.loc);
        auto cur = state_at(a.resource, q, i, a.loc, len);
        if (!cur) continue;
        const std::string since =
            cur->line ? fmt::format("since line {}", cur->line) : "as declared";
        if (cur->split_line) {
          at(a.loc.line, a.loc.col, len, model::Severity::Warning,
             fmt::format("{} is accessed between the halves of the split transition begun at "
                         "line {}",
                         quote(res.name), cur->split_line));
          continue;
        }
        const bool texture = res.kind == model::ResourceKind::Texture;
        if (cur->enhanced) {
          if (!texture) continue;  // buffers have no layout: any access
          const uint32_t bit = model::access_bit(a.kind, a.write);
          if (bit && !(model::layout_accesses(cur->layout) & bit))
            at(a.loc.line, a.loc.col, len, model::Severity::Warning,
               fmt::format("{} {}, but {} is in layout {} ({}), which does not allow {}", w->api,
                           access_words(a, res.name), quote(res.name), layout(cur->layout), since,
                           d3d12::describe(Family::BarrierAccess, bit)));
          continue;
        }
        const uint32_t need = model::required_state(a.kind, a.stage, a.write);
        if (!need || (cur->state & need)) continue;
        Tracked next = *cur;
        next.line = cmd.loc.line;
        // Implicit promotion from COMMON (buffers: any state but depth; textures: copy and
        // shader-resource states), read states accumulating, one write state.
        const uint32_t tex_promotable = kState.copy_dest | kState.copy_source |
                                        kState.pixel_shader_resource |
                                        kState.non_pixel_shader_resource;
        const bool from_common =
            cur->state == kState.common ||
            (cur->promoted && is_read_state(cur->state) && is_read_state(need));
        const bool promotable = texture ? (need & tex_promotable) == need
                                        : (need & (kState.depth_write | kState.depth_read)) == 0;
        if (from_common && promotable) {
          next.state = cur->state == kState.common ? need : cur->state | need;
          next.promoted = true;
          changes[a.resource].push_back({q, i, next});
          continue;
        }
        at(a.loc.line, a.loc.col, len, model::Severity::Warning,
           fmt::format("{} {}, but {} is in state {} ({}){}: this access needs {}", w->api,
                       access_words(a, res.name), quote(res.name), states(cur->state), since,
                       cur->state == kState.common && texture
                           ? " and a texture is promoted from COMMON only to copy and "
                             "shader-resource states"
                           : "",
                       needs_text(need)));
      }
      continue;
    }
    const auto* b = std::get_if<model::BarrierCmd>(&cmd.body);
    if (!b) continue;
    auto span = [&](size_t k) {
      return k < b->arg_spans.size() ? b->arg_spans[k]
                                     : std::pair<uint32_t, uint32_t>{cmd.loc.col, 1};
    };
    auto warn = [&](size_t k, std::string msg) {
      at(cmd.loc.line, span(k).first, span(k).second, model::Severity::Warning, std::move(msg));
    };
    auto err = [&](size_t k, std::string msg) {
      at(cmd.loc.line, span(k).first, span(k).second, model::Severity::Error, std::move(msg));
    };
    if (!b->resource || !initial.count(*b->resource)) continue;
    if (b->kind == model::BarrierKind::Uav || b->kind == model::BarrierKind::Aliasing) continue;
    const uint32_t r = *b->resource;
    const model::Resource& res = c_.resources[r];
    const model::SrcLoc loc{cmd.loc.line, span(1).first};
    auto cur = state_at(r, q, i, loc, span(1).second);
    if (!cur) continue;
    const std::string since = cur->line ? fmt::format("set at line {}", cur->line) : "as declared";
    const bool texture = res.kind == model::ResourceKind::Texture;
    const Tracked next = after_barrier(*cur, *b, texture, cmd.loc.line);
    const model::SplitPart part = model::split_part(*b);
    if (b->kind == model::BarrierKind::Transition) {
      if (cur->enhanced && cur->layout != kLayout.common)
        warn(1, fmt::format("{} is in layout {} ({}): an enhanced layout must be back in COMMON "
                            "before a legacy ResourceBarrier",
                            quote(res.name), layout(cur->layout), since));
      // An END half: the pairing (check_splits) says whether the halves match.
      if (part != model::SplitPart::End) {
        const uint32_t before = b->state_before;
        const bool matches =
            before == cur->state ||
            (cur->promoted && (before == kState.common || (before & ~cur->state) == 0));
        if (!matches)
          err(2, fmt::format("ResourceBarrier: STATE_BEFORE {} of {} does not match its state "
                             "{} ({})",
                             states(before), quote(res.name), states(cur->state), since));
      }
    } else {
      if (!cur->enhanced && cur->state != kState.common)
        warn(1, fmt::format("{} is in legacy state {} ({}): it must be transitioned to COMMON "
                            "before an enhanced Barrier",
                            quote(res.name), states(cur->state), since));
      const size_t sb_arg = 2;
      auto prev = last_sync_after.find({q, r});
      if (prev != last_sync_after.end() && b->sync_before != d3d12::kSync.split &&
          prev->second.first != d3d12::kSync.none && prev->second.first != d3d12::kSync.split) {
        const uint32_t need = expand_sync(prev->second.first);
        if ((expand_sync(b->sync_before) & need) != need)
          warn(sb_arg,
               fmt::format("SYNC_BEFORE {} does not contain SYNC_AFTER {} of the barrier on {} at "
                           "line {}: a barrier after another on one resource must wait for what "
                           "the first one holds",
                           d3d12::describe(Family::BarrierSync, b->sync_before),
                           d3d12::describe(Family::BarrierSync, prev->second.first),
                           quote(res.name), prev->second.second));
      }
      if (b->kind == model::BarrierKind::Texture) {
        if (part != model::SplitPart::End && b->layout_before != kLayout.undefined &&
            b->layout_before != cur->layout)
          err(6,
              fmt::format("Barrier: LAYOUT_BEFORE {} of {} does not match its layout {} ({})",
                          layout(b->layout_before), quote(res.name), layout(cur->layout), since));
      }
    }
    if (b->kind == model::BarrierKind::Transition)
      last_sync_after.erase({q, r});
    else
      last_sync_after[{q, r}] = {b->sync_after, cmd.loc.line};
    changes[r].push_back({q, i, next});
  }
  line_ = 0;
}

// Split barriers, for every resource: an END half needs a BEGIN half before it on its queue
// (the same resource and states), and a BEGIN half an END.
void Parser::check_splits() {
  struct Open {
    const model::Command* cmd;
    const model::BarrierCmd* b;
  };
  for (const model::Queue& q : c_.queues) {
    std::map<uint64_t, Open> open;
    for (const model::Command& cmd : q.commands) {
      const auto* b = std::get_if<model::BarrierCmd>(&cmd.body);
      if (!b) continue;
      const model::SplitPart part = model::split_part(*b);
      if (part == model::SplitPart::None) continue;
      const uint64_t key = b->resource ? *b->resource : UINT64_MAX;
      const std::string what =
          b->resource ? quote(c_.resources[*b->resource].name) : std::string("the global barrier");
      line_ = cmd.loc.line;
      const auto span = b->arg_spans.empty() ? std::pair<uint32_t, uint32_t>{cmd.loc.col, 1}
                                             : b->arg_spans.front();
      if (part == model::SplitPart::Begin) {
        if (auto it = open.find(key); it != open.end())
          report(model::Severity::Warning, span.first, span.second,
                 fmt::format("a split barrier on {} begun at line {} is not ended before this one "
                             "begins",
                             what, it->second.cmd->loc.line));
        open[key] = {&cmd, b};
        continue;
      }
      auto it = open.find(key);
      if (it == open.end()) {
        report(
            model::Severity::Error, span.first, span.second,
            fmt::format("{} ends a split barrier on {} that no {} before it on queue {} "
                        "begins",
                        model::barrier_api(b->kind), what,
                        b->kind == model::BarrierKind::Transition ? "BEGIN_ONLY"
                                                                  : "Barrier with SYNC_AFTER SPLIT",
                        quote(q.name)));
        continue;
      }
      const model::BarrierCmd& a = *it->second.b;
      const bool same =
          a.kind == b->kind &&
          (a.kind == model::BarrierKind::Transition
               ? a.state_before == b->state_before && a.state_after == b->state_after
               : a.access_before == b->access_before && a.access_after == b->access_after &&
                     a.layout_before == b->layout_before && a.layout_after == b->layout_after);
      if (!same)
        report(model::Severity::Warning, span.first, span.second,
               fmt::format(
                   "the halves of the split barrier on {} (lines {} and {}) differ: they "
                   "must name the same {}",
                   what, it->second.cmd->loc.line, cmd.loc.line,
                   a.kind == model::BarrierKind::Transition ? "states" : "accesses and layouts"));
      open.erase(it);
    }
    for (const auto& [key, o] : open) {
      line_ = o.cmd->loc.line;
      const auto span = o.b->arg_spans.empty() ? std::pair<uint32_t, uint32_t>{o.cmd->loc.col, 1}
                                               : o.b->arg_spans.front();
      report(model::Severity::Warning, span.first, span.second,
             fmt::format("this split barrier on {} is never ended on queue {}: nothing waits "
                         "for its work",
                         o.b->resource ? quote(c_.resources[*o.b->resource].name)
                                       : std::string("the global barrier"),
                         quote(q.name)));
    }
  }
  line_ = 0;
}

}  // namespace syncproof::lang::detail
