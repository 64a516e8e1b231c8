#include "synth/changes.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/flags.h"
#include "properties/trace.h"
#include "synth/flag_ops.h"
#include "synth/search.h"

namespace syncproof::synth {

using namespace model;

namespace {

std::vector<std::string> split_names(const std::string& words) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= words.size()) {
    size_t j = words.find(" | ", i);
    if (j == std::string::npos) j = words.size();
    out.push_back(words.substr(i, j - i));
    i = j + 3;
  }
  return out;
}

std::string api_name(const Command& c) {
  if (const auto car = carrier(c)) return std::string(to_string(car->api));
  return "";
}

uint32_t value_of(const std::string& name, uint32_t fallback) {
  const FlagDef* d = find_any_flag(name);
  return d && d->value ? *d->value : fallback;
}

std::string signed_cost(int c) {
  return c >= 0 ? fmt::format("+{}", c) : fmt::format("{}", c);
}

// A command of `c` as the "why" of a step names it: a wait with its fence or label and value,
// anything else by its API and label; with its line when it has one.
std::string step_end(const Case& c, uint32_t q, uint32_t i) {
  const Command& cmd = c.queues[q].commands[i];
  std::string s = std::holds_alternative<WaitFenceCmd>(cmd.body) ||
                          std::holds_alternative<WaitValueCmd>(cmd.body)
                      ? command_source(c, cmd, false)
                      : properties::command_text(c, q, i);
  if (cmd.loc.line) s += fmt::format(" (line {})", cmd.loc.line);
  return s;
}

}  // namespace

std::string step_why(const Case& fixed, uint32_t q, uint32_t k) {
  const auto& cmds = fixed.queues[q].commands;
  const std::string before =
      k > 0 ? step_end(fixed, q, k - 1) : "the start of queue " + fixed.queues[q].name;
  const std::string after =
      k + 1 < cmds.size() ? step_end(fixed, q, k + 1) : "the end of queue " + fixed.queues[q].name;
  return fmt::format("the ME step that orders {} before {}; no operation is needed", before, after);
}

bool bare_sync(const Command& c) {
  const auto* s = std::get_if<SyncCmd>(&c.body);
  return s && s->flags == 0 && s->control.bits == 0;
}

std::vector<Change> diff(const Case& orig, const Case& fixed, const Origins& origin,
                         const CostModel& costs) {
  std::vector<Change> out;
  for (uint32_t q = 0; q < fixed.queues.size(); ++q) {
    const QueueType qt = fixed.queues[q].type;
    std::vector<char> kept(orig.queues[q].commands.size(), 0);
    for (uint32_t k = 0; k < fixed.queues[q].commands.size(); ++k) {
      const Origin& o = origin[q][k];
      const Command& now = fixed.queues[q].commands[k];
      if (o.fresh) {
        Change ch;
        ch.kind = Change::Kind::Insert, ch.queue = q, ch.cmd = o.index, ch.inserted = now;
        ch.cost = costs.of(now, qt, &fixed);
        if (bare_sync(now)) ch.why = step_why(fixed, q, k);
        out.push_back(std::move(ch));
        continue;
      }
      kept[o.index] = 1;
      const Command& was = orig.queues[q].commands[o.index];
      const auto a = carrier(was), b = carrier(now);
      if (!a || !b) continue;
      Change ch;
      ch.kind = Change::Kind::Flags, ch.queue = q, ch.cmd = o.index;
      ch.add = b->flags & ~a->flags, ch.remove = a->flags & ~b->flags;
      ch.add_control.bits = b->control.bits & static_cast<uint8_t>(~a->control.bits);
      ch.remove_control.bits = a->control.bits & static_cast<uint8_t>(~b->control.bits);
      if (!ch.add && !ch.remove && !ch.add_control.bits && !ch.remove_control.bits) continue;
      ch.cost = costs.of(now, qt, &fixed) - costs.of(was, qt, &orig);
      out.push_back(std::move(ch));
    }
    for (uint32_t i = 0; i < kept.size(); ++i)
      if (!kept[i]) {
        Change ch;
        ch.kind = Change::Kind::Remove, ch.queue = q, ch.cmd = i;
        ch.cost = -costs.of(orig.queues[q].commands[i], qt, &orig);
        out.push_back(std::move(ch));
      }
  }
  for (size_t i = 0; i < orig.properties.size() && i < fixed.properties.size(); ++i)
    if (orig.properties[i].expect != fixed.properties[i].expect) {
      Change ch;
      ch.kind = Change::Kind::Expect, ch.property = i;
      out.push_back(std::move(ch));
    }
  std::stable_sort(out.begin(), out.end(), [&](const Change& x, const Change& y) {
    auto line = [&](const Change& c) -> uint32_t {
      if (c.kind == Change::Kind::Expect) return orig.properties[c.property].loc.line;
      const auto& cmds = orig.queues[c.queue].commands;
      if (c.cmd < cmds.size()) return cmds[c.cmd].loc.line;
      return cmds.empty() ? 0 : cmds.back().loc.line + 1;
    };
    return line(x) < line(y);
  });
  return out;
}

int total_cost(const std::vector<Change>& changes) {
  int sum = 0;
  for (const Change& c : changes) sum += c.cost;
  return sum;
}

std::vector<std::string> describe(const Case& orig, const std::vector<Change>& changes,
                                  const CostModel& costs) {
  std::vector<std::string> out;
  for (const Change& c : changes) {
    if (c.kind == Change::Kind::Expect) {
      const Property& p = orig.properties[c.property];
      out.push_back(fmt::format("{}:{}: prove {} (it is proved with the fix)", orig.file,
                                p.loc.line, property_words(orig, p)));
      continue;
    }
    const auto& cmds = orig.queues[c.queue].commands;
    if (c.kind == Change::Kind::Insert) {
      const std::string text = command_source(orig, c.inserted, true);
      if (c.cmd < cmds.size())
        out.push_back(
            fmt::format("{}:{}: insert {} before {} ({})", orig.file, cmds[c.cmd].loc.line, text,
                        properties::command_text(orig, c.queue, c.cmd), signed_cost(c.cost)));
      else
        out.push_back(fmt::format(
            "{}:{}: insert {} after {} ({})", orig.file, cmds.empty() ? 0 : cmds.back().loc.line,
            text,
            cmds.empty() ? std::string("the start of queue ") + orig.queues[c.queue].name
                         : properties::command_text(orig, c.queue, c.cmd - 1),
            signed_cost(c.cost)));
      if (!c.why.empty()) out.back() += "; why: " + c.why;
      continue;
    }
    const Command& cmd = cmds[c.cmd];
    const std::string api = api_name(cmd);
    if (c.kind == Change::Kind::Remove) {
      const bool barrier = std::holds_alternative<BarrierCmd>(cmd.body);
      out.push_back(fmt::format(
          "{}:{}: remove {} ({}) ({})", orig.file, cmd.loc.line,
          barrier ? barrier_source(orig, std::get<BarrierCmd>(cmd.body))
                  : properties::command_text(orig, c.queue, c.cmd),
          barrier ? "cheaper Xbox sync calls do its work" : "nothing is left for it to do",
          signed_cost(c.cost)));
      continue;
    }
    auto line = [&](const std::string& verb, const std::string& name, const char* prep, int cost) {
      out.push_back(fmt::format("{}:{}: {} {} {} {} ({})", orig.file, cmd.loc.line, verb, name,
                                prep, api, signed_cost(cost)));
    };
    if (c.remove)
      for (const std::string& n : split_names(sync_word_text(c.remove)))
        line("remove", n, "from", -costs.sync_word(value_of(n, c.remove)));
    for (int i = 0; i < kControlFlagCount; ++i) {
      const auto f = static_cast<ControlFlag>(i);
      if (c.remove_control.has(f))
        line("remove", std::string(full_name(f)), "from", -costs.control(f));
    }
    if (c.add)
      for (const std::string& n : split_names(sync_word_text(c.add)))
        line("add", n, "to", costs.sync_word(value_of(n, c.add)));
    for (int i = 0; i < kControlFlagCount; ++i) {
      const auto f = static_cast<ControlFlag>(i);
      if (c.add_control.has(f)) line("add", std::string(full_name(f)), "to", costs.control(f));
    }
  }
  return out;
}

}  // namespace syncproof::synth
