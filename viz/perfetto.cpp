// The trace as Chrome trace-event JSON ("JSON trace format", which ui.perfetto.dev and
// chrome://tracing open): a process per queue, a thread (track) per engine unit, a complete
// ("X") slice per step. One model time unit is shown as one microsecond.
#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "stream/flag_text.h"
#include "viz/match.h"
#include "viz/viz.h"

namespace syncproof::viz {

using json = nlohmann::ordered_json;
using namespace model;

namespace {

// The flags a command was given, for the slice's arguments.
json command_flags(const Command& cmd) {
  return std::visit(
      [](const auto& b) -> json {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, SyncCmd>)
          return {{"SyncFlags", stream::sync_flag_names(b.flags, b.spelled)},
                  {"ControlFlags", stream::control_flag_names(b.control)}};
        else if constexpr (std::is_same_v<T, BopWriteCmd>)
          return {{"SyncFlags", stream::sync_flag_names(b.flags)},
                  {"ControlFlags", stream::control_flag_names(b.control)},
                  {"WriteFlags", stream::write_flag_name(b.source)}};
        else if constexpr (std::is_same_v<T, SignalCmd> || std::is_same_v<T, WaitFenceCmd>)
          return b.xbox ? json{{"SyncFlags", stream::sync_flag_names(b.flags)}} : json::object();
        else if constexpr (std::is_same_v<T, BarrierCmd>)
          return json{{"barrier", std::string(to_string(b.kind))}};
        else if constexpr (std::is_same_v<T, WorkCmd>)
          return b.has_dispatch_flags
                     ? json{{"DispatchFlags", stream::dispatch_flag_names(b.dispatch_flags)}}
                     : json::object();
        else
          return json::object();
      },
      cmd.body);
}

// "[D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE]" at the end of a step: the flag behind a cache operation.
std::string step_flag(const std::string& what) {
  const size_t open = what.rfind(" [");
  return open != std::string::npos && what.back() == ']'
             ? what.substr(open + 2, what.size() - open - 3)
             : "";
}

}  // namespace

std::string perfetto_json(const LoweredProgram& p, const properties::Violated& v,
                          const std::string& title) {
  const Case& c = *p.source;
  const std::vector<EventId> events = match_events(p, v);
  json out = json::array();
  std::map<std::pair<uint32_t, std::string>, int> tracks;  // (queue, unit) -> tid
  const auto track = [&](uint32_t q, const std::string& unit) {
    auto [it, fresh] = tracks.emplace(std::pair{q, unit}, static_cast<int>(tracks.size()) + 1);
    if (fresh) {
      out.push_back({{"ph", "M"},
                     {"pid", q + 1},
                     {"tid", it->second},
                     {"name", "thread_name"},
                     {"args", {{"name", unit}}}});
      out.push_back({{"ph", "M"},
                     {"pid", q + 1},
                     {"tid", it->second},
                     {"name", "thread_sort_index"},
                     {"args", {{"sort_index", it->second}}}});
    }
    return it->second;
  };
  for (uint32_t q = 0; q < c.queues.size(); ++q) {
    out.push_back({{"ph", "M"},
                   {"pid", q + 1},
                   {"name", "process_name"},
                   {"args",
                    {{"name", fmt::format("{} ({} queue)", c.queues[q].name,
                                          to_string(c.queues[q].type))}}}});
    out.push_back({{"ph", "M"},
                   {"pid", q + 1},
                   {"name", "process_sort_index"},
                   {"args", {{"sort_index", q + 1}}}});
  }
  long long last = 0;
  for (size_t i = 0; i < v.trace.lines.size(); ++i) {
    const properties::TraceLine& l = v.trace.lines[i];
    uint32_t q = 0;
    while (q < c.queues.size() && c.queues[q].name != l.queue) ++q;
    if (q == c.queues.size()) continue;
    const EventId e = events[i];
    const std::string unit = e == kNoEvent ? "commands" : unit_of(p, e);
    json args = {{"step", i + 1}, {"line", l.line}, {"command", l.command}, {"what", l.what}};
    if (e != kNoEvent) {
      args["event"] = to_string(p.events[e].kind);
      args["flags"] = command_flags(c.queues[q].commands[p.events[e].cmd]);
    }
    if (const std::string f = step_flag(l.what); !f.empty()) args["cache_flag"] = f;
    out.push_back({{"ph", "X"},
                   {"pid", q + 1},
                   {"tid", track(q, unit)},
                   {"ts", l.time},
                   {"dur", 1},
                   {"cat", e == kNoEvent ? "step" : std::string(to_string(p.events[e].kind))},
                   {"name", fmt::format("{}: {}", l.command, l.what)},
                   {"args", args}});
    last = std::max(last, l.time);
  }
  // The explanation, as a global instant at the end.
  out.push_back({{"ph", "i"},
                 {"s", "g"},
                 {"pid", 0},
                 {"tid", 0},
                 {"ts", last + 1},
                 {"name", "why: " + v.trace.why},
                 {"args", {{"missing", v.trace.blamed}}}});
  json doc = {{"displayTimeUnit", "ns"},
              {"otherData", {{"tool", "syncproof"}, {"property", title}, {"file", c.file}}},
              {"traceEvents", out}};
  return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace syncproof::viz
