#include "exec/replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <numeric>

#include "exec/graph.h"
#include "exec/watch.h"
#include "properties/monitor.h"

namespace syncproof::exec {

using namespace model;
using properties::Obligation;

namespace {

// Tie-break rank: smaller first among events with the same time.
std::vector<int> tie_ranks(const LoweredProgram& p, const Obligation& o, uint64_t line) {
  std::vector<int> rank(p.events.size(), 50);
  if (o.kind == Obligation::Kind::Ordered) {
    for (EventId e : o.ordering.after) rank[e] = 0;
    for (EventId e : o.ordering.before) rank[e] = 200;
    return rank;
  }
  if (!is_chain(o)) return rank;
  ChainWatch w = chain_watch(p, o, line);
  for (size_t s = 0; s < w.relevant.size(); ++s) {
    EventId e = w.relevant[s];
    if (w.roles_b[s])  // chain B (the one that must not win) advances in step order
      rank[e] = 1 + std::countr_zero(w.roles_b[s]);
    else if (w.roles_a[s])  // chain A's: highest first step first, so none extends A
      rank[e] = 100 + (31 - std::countr_zero(w.roles_a[s]));
    else if (w.fill_slot[s])  // a fill before the operations it races
      rank[e] = 90;
    else if (!w.mate_roles[s].empty())  // a mate arrives before, and is written back after
      rank[e] = w.mate_roles[s][0].second >> 31 ? 90 : 150;
  }
  rank[w.b0] = 0;
  rank[w.a0] = 200;
  return rank;
}

std::string where(const LoweredProgram& p, EventId e) {
  const Event& ev = p.events[e];
  return fmt::format("'{}' ({} line {})", ev.what(), p.source->queues[ev.queue].name,
                     p.source->queues[ev.queue].commands[ev.cmd].loc.line);
}

// Why event e cannot fire yet: an order whose `before` has not happened, or a wait rule.
std::string blocker(const LoweredProgram& p, const Runner& r, EventId e) {
  for (const Order& o : p.orders)
    if (o.after == e && !r.fired(o.before))
      return fmt::format("{} happens before {}, which the model orders first ({})", where(p, e),
                         where(p, o.before), rule(o.rule).id);
  return fmt::format("{} completes before any signal or write that can satisfy it", where(p, e));
}

}  // namespace

ReplayResult replay(const LoweredProgram& p, const Obligation& o,
                    const std::vector<long long>& times, uint64_t line) {
  ReplayResult res;
  const size_t n = p.events.size();
  if (times.size() != n) {
    res.problem = fmt::format("the execution gives {} times for {} events", times.size(), n);
    return res;
  }
  std::vector<int> rank = tie_ranks(p, o, line);
  res.order.resize(n);
  std::iota(res.order.begin(), res.order.end(), 0);
  std::sort(res.order.begin(), res.order.end(), [&](EventId a, EventId b) {
    if (times[a] != times[b]) return times[a] < times[b];
    if (rank[a] != rank[b]) return rank[a] < rank[b];
    return a < b;
  });
  Graph g = build_graph(p, WaitMode::Safety);
  Runner r(g);
  for (EventId e : res.order) {
    if (!r.enabled(e)) {
      res.problem = "the execution breaks the lowering: " + blocker(p, r, e);
      return res;
    }
    r.fire(e);
  }
  properties::Times t(n);
  for (size_t i = 0; i < n; ++i) t[res.order[i]] = static_cast<long long>(i + 1);
  if (!properties::monitor(p, o, t, line).violated) {
    res.problem = properties::monitor(p, o, times, line).violated
                      ? "the violation needs events at the same time: no interleaving reproduces it"
                      : "the concrete monitor finds no violation in this execution";
    return res;
  }
  res.ok = true;
  return res;
}

}  // namespace syncproof::exec
