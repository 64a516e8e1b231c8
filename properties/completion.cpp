#include "properties/completion.h"

#include <algorithm>
#include <vector>

#include "util/csr.h"

namespace syncproof::properties {

using namespace model;

bool all_waits_monotone(const LoweredProgram& p, bool deadlock_rules) {
  return std::all_of(p.waits.begin(), p.waits.end(), [&](const WaitRule& w) {
    return deadlock_rules ? w.deadlock_monotone() : w.monotone;
  });
}

bool all_can_complete(const LoweredProgram& p, bool deadlock_rules) {
  const size_t n = p.events.size();
  std::vector<uint32_t> missing(n, 0);                 // orders still to complete before the event
  std::vector<std::pair<uint32_t, EventId>> waits_on;  // (candidate, its wait)
  std::vector<uint8_t> wait_needs(n, 0);  // the event is a wait still needing a candidate
  for (const Order& o : p.orders) ++missing[o.after];
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    // Safety: a wait whose initial poll may pass may complete at any time; deadlock freedom:
    // only one whose initial poll must pass can be relied on to complete without a write.
    const bool exempt = deadlock_rules ? !r.initial.can_fail : r.initial.can_sat;
    if (exempt) continue;
    wait_needs[r.wait] = 1;
    const std::vector<EventId>& cands = deadlock_rules ? r.must_candidates() : r.candidates;
    // Writers the orders land in event order (WaitRule::chained): each candidate completes only
    // after the first one did, so that one alone releases the wait as early (a frame's waits
    // each list most signals of their fence).
    if (r.chained && !cands.empty())
      waits_on.push_back({*std::min_element(cands.begin(), cands.end()), r.wait});
    else
      for (EventId c : cands) waits_on.push_back({c, r.wait});
  }
  // By event, in one array each (a vector per event was two heap blocks an event, and this runs
  // on every lowering of a case the SMT engine checks: up to four at a 50,000-command frame).
  util::Csr<EventId> released(n, waits_on);
  std::vector<uint32_t> succ_start, succ;
  util::csr_of(
      n, p.orders.size(), [&](size_t i) { return p.orders[i].before; },
      [&](size_t i) { return p.orders[i].after; }, &succ_start, &succ);
  std::vector<EventId> ready;
  for (EventId e = 0; e < n; ++e)
    if (!missing[e] && !wait_needs[e]) ready.push_back(e);
  std::vector<uint8_t> done(n, 0);
  size_t completed = 0;
  while (!ready.empty()) {
    EventId e = ready.back();
    ready.pop_back();
    if (done[e]) continue;
    done[e] = 1, ++completed;
    for (uint32_t i = succ_start[e]; i < succ_start[e + 1]; ++i)
      if (--missing[succ[i]] == 0 && !wait_needs[succ[i]]) ready.push_back(succ[i]);
    for (EventId w : released[e])
      if (wait_needs[w]) {
        wait_needs[w] = 0;
        if (!missing[w]) ready.push_back(w);
      }
  }
  return completed == n;
}

}  // namespace syncproof::properties
