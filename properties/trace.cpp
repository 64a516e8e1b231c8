// Turning one execution (event times from a solver model or an executor's interleaving) into the
// numbered, time-ordered trace a graphics engineer reads: queue, command with its line, what
// happened.
#include "properties/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace syncproof::properties {

using namespace model;

std::string command_text(const Case& c, uint32_t q, uint32_t i) {
  const Command& cmd = c.queues[q].commands[i];
  std::string name = std::visit(
      [&](const auto& b) -> std::string {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, WorkCmd>)
          return b.api;
        else if constexpr (std::is_same_v<T, SyncCmd>)
          return std::string(to_string(b.api));
        else if constexpr (std::is_same_v<T, BopWriteCmd>)
          return std::string(to_string(b.api));
        else if constexpr (std::is_same_v<T, WaitValueCmd>)
          return b.is64 ? "Wait64BitValueX" : "Wait32BitValueX";
        else if constexpr (std::is_same_v<T, SignalCmd>)
          return b.xbox ? "Signal2X" : "Signal";
        else if constexpr (std::is_same_v<T, BarrierCmd>)
          return fmt::format("{}({})", barrier_api(b.kind), to_string(b.kind));
        else
          return b.xbox ? "WaitX" : "Wait";
      },
      cmd.body);
  if (!cmd.label.empty()) name += " (" + cmd.label + ")";
  return name;
}

Trace build_trace(const LoweredProgram& p, const Times& t, const std::vector<EventId>& focus,
                  const std::vector<uint32_t>& ops,
                  const std::vector<std::pair<uint32_t, uint32_t>>& commands) {
  const Case& c = *p.source;
  std::set<EventId> chosen(focus.begin(), focus.end());
  for (uint32_t o : ops) chosen.insert(p.cache_ops[o].ev);
  std::set<uint32_t> queues;
  for (auto [q, i] : commands) queues.insert(q);
  // Sync, wait and signal steps of the queues involved: they are what the user reasons about.
  for (EventId e = 0; e < p.events.size(); ++e) {
    const Event& ev = p.events[e];
    if (!queues.count(ev.queue) || ev.what() == "(earlier work done)") continue;
    bool sync_cmd = !std::holds_alternative<WorkCmd>(c.queues[ev.queue].commands[ev.cmd].body);
    bool involved =
        std::find(commands.begin(), commands.end(), std::pair{ev.queue, ev.cmd}) != commands.end();
    if (ev.kind == EventKind::PfpStep && !involved) continue;
    if (sync_cmd || (involved && ev.kind != EventKind::CacheOp)) chosen.insert(e);
  }
  std::vector<EventId> order(chosen.begin(), chosen.end());
  std::stable_sort(order.begin(), order.end(), [&](EventId a, EventId b) { return t[a] < t[b]; });
  // Each operation's flag once, by its event in the order of `ops`: an operation that crosses two
  // steps (a GL2 write-back and invalidation on the split path) is listed for each. (Looked up
  // per line, with a search of `ops` for repeats, this was quadratic in a frame's operations: 90
  // ms of a 10,000-command frame's refutation.)
  std::unordered_map<EventId, std::vector<uint32_t>> flags_at;
  std::unordered_set<uint32_t> listed;
  for (uint32_t op : ops)
    if (listed.insert(op).second) flags_at[p.cache_ops[op].ev].push_back(op);
  Trace trace;
  for (EventId e : order) {
    const Event& ev = p.events[e];
    const Command& cmd = c.queues[ev.queue].commands[ev.cmd];
    std::string what = ev.what();
    if (auto it = flags_at.find(e); it != flags_at.end())
      for (uint32_t op : it->second) what += " [" + p.cache_ops[op].flag + "]";
    trace.lines.push_back(
        {t[e], c.queues[ev.queue].name, cmd.loc.line, command_text(c, ev.queue, ev.cmd), what});
  }
  return trace;
}

std::vector<std::pair<uint32_t, uint32_t>> trace_commands(const LoweredProgram& p,
                                                          const Obligation& o) {
  std::vector<uint32_t> accs;
  std::vector<std::pair<uint32_t, uint32_t>> out;
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      accs = {o.fresh.write, o.fresh.read};
      break;
    case Obligation::Kind::WriteOrder:
      accs = {o.waw.first, o.waw.second};
      break;
    case Obligation::Kind::ReadFirst:
      accs = {o.war.read, o.war.write};
      break;
    case Obligation::Kind::Race:
      accs = {o.race.a, o.race.b};
      break;
    case Obligation::Kind::Ordered:
      for (EventId e : o.ordering.before) out.push_back({p.events[e].queue, p.events[e].cmd});
      for (EventId e : o.ordering.after) out.push_back({p.events[e].queue, p.events[e].cmd});
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      return out;
  }
  for (uint32_t a : accs) out.push_back({p.accesses[a].queue, p.accesses[a].cmd});
  return out;
}

std::vector<EventId> focus_events(const LoweredProgram& p, const Obligation& o) {
  std::vector<EventId> v;
  auto acc = [&](uint32_t a) {
    v.push_back(p.accesses[a].ev);
    if (p.accesses[a].arrive != kNoEvent) v.push_back(p.accesses[a].arrive);
  };
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      acc(o.fresh.write), acc(o.fresh.read);
      break;
    case Obligation::Kind::WriteOrder:
      acc(o.waw.first), acc(o.waw.second);
      break;
    case Obligation::Kind::ReadFirst:
      acc(o.war.read), acc(o.war.write);
      break;
    case Obligation::Kind::Race:
      acc(o.race.a), acc(o.race.b);
      break;
    case Obligation::Kind::Ordered:
      v = o.ordering.before;
      v.insert(v.end(), o.ordering.after.begin(), o.ordering.after.end());
      break;
  }
  return v;
}

Trace violation_trace(const LoweredProgram& p, const Obligation& o, const Times& t,
                      const MonitorResult& m) {
  std::vector<EventId> focus = focus_events(p, o);
  focus.insert(focus.end(), m.events.begin(), m.events.end());
  Trace trace = build_trace(p, t, focus, m.cache_ops, trace_commands(p, o));
  trace.why = o.name + ": " + m.why;
  trace.blamed = m.blamed;
  return trace;
}

Trace deadlock_trace(const LoweredProgram& p,
                     const std::vector<std::pair<uint32_t, uint32_t>>& stuck,
                     const std::vector<char>& done) {
  const Case& c = *p.source;
  Trace trace;
  std::vector<std::string> cycle, never, miss;
  std::vector<std::string> never_fence;  // "fence 'f' to 1 or more (gfx line 9)"
  for (auto [q, i] : stuck) {
    const Command& cmd = c.queues[q].commands[i];
    const std::string where = fmt::format("{} line {}", c.queues[q].name, cmd.loc.line);
    // Why this wait may stay blocked (model/wait_value.h): nothing ever satisfies it, a later
    // write can hide the value it waits for, or what satisfies it waits behind a blocked wait.
    const WaitRule* rule = nullptr;
    for (const WaitRule& w : p.waits)
      if (p.events[w.wait].queue == q && p.events[w.wait].cmd == i) rule = &w;
    std::string what = "waits forever: what can satisfy it only comes after a blocked wait";
    const bool some_landed =
        rule && std::any_of(rule->candidates.begin(), rule->candidates.end(),
                            [&](EventId e) { return e < done.size() && done[e]; });
    if (rule && rule->candidates.empty() && rule->is_fence) {
      // A fence wait completes once the fence's value reaches its value: say it with fences.
      what = fmt::format("waits forever: nothing signals fence '{}' to {} or more",
                         c.fences[rule->object].name, rule->value);
      never_fence.push_back(fmt::format("fence '{}' to {} or more, as the wait at {} needs",
                                        c.fences[rule->object].name, rule->value, where));
    } else if (rule && rule->candidates.empty()) {
      what = "waits forever: no write of the word it polls satisfies it";
      never.push_back(where);
    } else if (rule && !rule->monotone && some_landed) {
      what = "may wait forever: a later write can replace the value it waits for before it polls";
      miss.push_back(where);
    } else {
      cycle.push_back(where);
    }
    trace.lines.push_back({static_cast<long long>(trace.lines.size() + 1), c.queues[q].name,
                           cmd.loc.line, command_text(c, q, i), what});
  }
  std::vector<std::string> why;
  if (!never_fence.empty())
    why.push_back(fmt::format(
        "nothing signals {} (a fence wait completes once a signal has set the fence to its "
        "value or more)",
        fmt::join(never_fence, " and ")));
  if (!never.empty())
    why.push_back(fmt::format(
        "nothing ever writes a value that satisfies the wait at {} as it reads the word (a "
        "32-bit wait reads the 4 bytes at its Destination; parts compose little-endian)",
        fmt::join(never, " and ")));
  if (!miss.empty())
    why.push_back(fmt::format(
        "the wait at {} reads the word when it polls, and a later write can overwrite the value "
        "it waits for before it does",
        fmt::join(miss, " and ")));
  if (!cycle.empty())
    why.push_back(fmt::format(
        "the waits at {} can never be satisfied: each waits for work that only runs after a wait "
        "that is itself blocked",
        fmt::join(cycle, " and ")));
  trace.why = fmt::format("{}", fmt::join(why, "; "));
  if (!never_fence.empty())
    trace.blamed.push_back(
        "a signal (Signal or Signal2X) of the fence to the value the wait needs");
  if (!never.empty()) trace.blamed.push_back("a write of a value that satisfies the wait");
  if (!miss.empty())
    trace.blamed.push_back(
        "a value the later writes keep satisfying (a counter and GREATER_EQUAL), or a wait "
        "ordered before the overwrite");
  if (!cycle.empty()) trace.blamed.push_back("a signal that does not depend on the waiting queue");
  return trace;
}

}  // namespace syncproof::properties
