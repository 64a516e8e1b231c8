#pragma once
// Shared by the unit tests: one execution's times made the simplest way, as a reference for the
// library's own completion orders and execution checks. Each event completes once everything
// ordered before it has and, for each wait rule whose first poll cannot pass, a candidate has;
// `pick(k)` chooses which of the k events ready completes next (an index below k; 0 takes them
// in the order they became ready). Times 1, 2, ... in completion order; 0 for an event that never
// completes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/events.h"
#include "properties/monitor.h"

namespace syncproof::testing {

template <class Pick>
properties::Times completion_times(const model::LoweredProgram& p, Pick pick) {
  const size_t n = p.events.size();
  std::vector<uint32_t> missing(n, 0);
  std::vector<std::vector<model::EventId>> succ(n);
  std::vector<std::vector<uint32_t>> rules_of(n);
  for (const model::Order& o : p.orders) ++missing[o.after], succ[o.before].push_back(o.after);
  std::vector<uint8_t> rule_done(p.waits.size(), 1);
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (!p.waits[w].initial.can_sat && !p.waits[w].candidates.empty()) {
      rule_done[w] = 0, ++missing[p.waits[w].wait];
      for (model::EventId c : p.waits[w].candidates) rules_of[c].push_back(w);
    }
  std::vector<model::EventId> ready;
  for (model::EventId e = 0; e < n; ++e)
    if (!missing[e]) ready.push_back(e);
  properties::Times t(n, 0);
  for (long long next = 1; !ready.empty(); ++next) {
    const size_t at = pick(ready.size());
    const model::EventId e = ready[at];
    ready.erase(ready.begin() + static_cast<std::ptrdiff_t>(at));
    t[e] = next;
    for (model::EventId v : succ[e])
      if (--missing[v] == 0) ready.push_back(v);
    for (uint32_t w : rules_of[e])
      if (!rule_done[w]) {
        rule_done[w] = 1;
        if (--missing[p.waits[w].wait] == 0) ready.push_back(p.waits[w].wait);
      }
  }
  return t;
}

}  // namespace syncproof::testing
