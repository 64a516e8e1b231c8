// The happens-before picture of a counterexample in Graphviz DOT: one cluster per queue, a node
// per trace step, a solid edge where the model orders two steps (directly or through events the
// trace leaves out), a dashed edge from a signal to a wait it may satisfy, and a bold red edge for
// the order the property needed and the execution lacks, labelled with what is missing.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "properties/obligation.h"
#include "viz/match.h"
#include "viz/viz.h"

namespace syncproof::viz {

using namespace model;

namespace {

std::string esc(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    out += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
  }
  return out;
}

// Long explanations wrapped for a node label.
std::string wrap(std::string_view s, size_t width = 60) {
  std::string out;
  size_t col = 0;
  for (char ch : s) {
    if (ch == ' ' && col >= width) {
      out += '\n';
      col = 0;
      continue;
    }
    out += ch;
    ++col;
  }
  return out;
}

bool active(const ModelConfig& cfg, const Guard& g) {
  return !g.id || cfg.assumptions.enabled(*g.id) == g.when;
}

}  // namespace

std::string dot_graph(const LoweredProgram& p, const properties::Violated& v, size_t property,
                      const std::string& title) {
  const Case& c = *p.source;
  const std::vector<EventId> events = match_events(p, v);
  std::map<EventId, size_t> node_of;  // shown event -> step index
  for (size_t i = 0; i < events.size(); ++i)
    if (events[i] != kNoEvent) node_of.emplace(events[i], i);

  std::string out = fmt::format(
      "digraph counterexample {{\n  label=\"{}\\n{}\";\n  labelloc=t;\n  rankdir=TB;\n"
      "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
      "  edge [fontname=\"Helvetica\", fontsize=9];\n",
      esc(title), esc(wrap(v.trace.why, 100)));
  for (uint32_t q = 0; q < c.queues.size(); ++q) {
    std::string body;
    for (size_t i = 0; i < v.trace.lines.size(); ++i) {
      const properties::TraceLine& l = v.trace.lines[i];
      if (l.queue != c.queues[q].name) continue;
      body += fmt::format("    s{} [label=\"{}. t={}  line {}\\n{}\\n{}\"];\n", i + 1, i + 1,
                          l.time, l.line, esc(l.command), esc(l.what));
    }
    if (body.empty()) continue;
    out += fmt::format(
        "  subgraph cluster_{} {{\n    label=\"{} ({})\";\n    style=rounded;\n{}  }}\n", q,
        esc(c.queues[q].name), to_string(c.queues[q].type), body);
  }

  // Must-happen-before between shown steps: a search from each step over the active orders that
  // stops at the next shown steps.
  std::vector<std::vector<EventId>> succ(p.events.size());
  for (const Order& o : p.orders)
    if (active(p.config, o.guard)) succ[o.before].push_back(o.after);
  std::set<std::pair<size_t, size_t>> edges;
  for (const auto& [from, i] : node_of) {
    std::vector<EventId> todo = succ[from];
    std::vector<bool> seen(p.events.size(), false);
    while (!todo.empty()) {
      const EventId e = todo.back();
      todo.pop_back();
      if (seen[e]) continue;
      seen[e] = true;
      if (auto it = node_of.find(e); it != node_of.end()) {
        edges.insert({i, it->second});
        continue;
      }
      for (EventId n : succ[e]) todo.push_back(n);
    }
  }
  // Keep only the edges no longer path implies (a transitive reduction): the chain reads better.
  std::map<size_t, std::vector<size_t>> next;
  for (auto [a, b] : edges) next[a].push_back(b);
  const auto reachable_without = [&](size_t a, size_t b) {
    std::vector<size_t> todo;
    for (size_t n : next[a])
      if (n != b) todo.push_back(n);
    std::set<size_t> seen;
    while (!todo.empty()) {
      const size_t x = todo.back();
      todo.pop_back();
      if (x == b) return true;
      if (!seen.insert(x).second) continue;
      for (size_t n : next[x]) todo.push_back(n);
    }
    return false;
  };
  for (auto [a, b] : edges)
    if (!reachable_without(a, b)) out += fmt::format("  s{} -> s{};\n", a + 1, b + 1);
  for (const WaitRule& w : p.waits) {
    auto to = node_of.find(w.wait);
    if (to == node_of.end()) continue;
    for (EventId s : w.candidates)
      if (auto from = node_of.find(s); from != node_of.end())
        out += fmt::format("  s{} -> s{} [style=dashed, label=\"may satisfy\"];\n",
                           from->second + 1, to->second + 1);
  }

  // The order the property needed: between the obligation's two accesses (or, for `ordered`,
  // from the work that must complete to the access that came too early).
  const std::string missing =
      v.trace.blamed.empty() ? std::string("needed")
                             : "needs " + fmt::format("{}", fmt::join(v.trace.blamed, "\\nor "));
  std::vector<std::pair<EventId, EventId>> broken;
  if (v.witness.obligation >= 0) {
    auto obs = properties::obligations_for(p, c.properties.at(property));
    if (static_cast<size_t>(v.witness.obligation) < obs.list.size()) {
      const properties::Obligation& o = obs.list[static_cast<size_t>(v.witness.obligation)];
      const auto acc = [&](uint32_t a) { return p.accesses[a]; };
      switch (o.kind) {
        case properties::Obligation::Kind::Fresh:
          broken.push_back({acc(o.fresh.write).arrive, acc(o.fresh.read).ev});
          break;
        case properties::Obligation::Kind::ReadFirst:
          broken.push_back({acc(o.war.read).ev, acc(o.war.write).arrive});
          break;
        case properties::Obligation::Kind::WriteOrder:
          broken.push_back({acc(o.waw.first).arrive, acc(o.waw.second).arrive});
          break;
        case properties::Obligation::Kind::Race:
          broken.push_back({acc(o.race.a).ev, acc(o.race.b).ev});
          break;
        case properties::Obligation::Kind::Ordered:
          for (EventId a : o.ordering.before)
            for (EventId b : o.ordering.after)
              if (v.witness.times.size() == p.events.size() &&
                  v.witness.times[b] <= v.witness.times[a])
                broken.push_back({a, b});
          break;
      }
    }
  }
  size_t drawn = 0;
  for (auto [a, b] : broken) {
    auto from = node_of.find(a), to = node_of.find(b);
    if (from == node_of.end() || to == node_of.end() || drawn++ >= 4) continue;
    out += fmt::format(
        "  s{} -> s{} [color=red, fontcolor=red, penwidth=2.5, style=bold, constraint=false, "
        "label=\"{}\"];\n",
        from->second + 1, to->second + 1, esc(missing));
  }
  if (drawn == 0 && !v.trace.lines.empty()) {
    // A deadlock (or a chain the trace does not show): the stuck steps, tied to the explanation.
    out += fmt::format("  why [shape=note, color=red, fontcolor=red, label=\"{}\"];\n",
                       esc(wrap(missing + ": " + v.trace.why)));
    for (size_t i = 0; i < v.trace.lines.size(); ++i)
      if (events[i] == kNoEvent) out += fmt::format("  s{} -> why [color=red];\n", i + 1);
  }
  out += "}\n";
  return out;
}

}  // namespace syncproof::viz
