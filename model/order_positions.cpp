// A topological order of a lowered program's orders (model/events.h, order_positions).
#include <vector>

#include "model/events.h"
#include "util/csr.h"

namespace syncproof::model {

std::vector<uint32_t> order_positions(const LoweredProgram& p) {
  const size_t n = p.events.size();
  std::vector<std::pair<uint32_t, EventId>> edges;
  edges.reserve(p.orders.size());
  std::vector<uint32_t> preds(n, 0);
  for (const Order& o : p.orders) edges.push_back({o.before, o.after}), ++preds[o.after];
  const util::Csr<EventId> after(n, edges);
  // Kahn's algorithm, first ready first placed, the events in id order to start with.
  std::vector<uint32_t> pos(n, UINT32_MAX);
  std::vector<EventId> ready;
  for (EventId e = 0; e < n; ++e)
    if (!preds[e]) ready.push_back(e);
  for (uint32_t next = 0; next < ready.size(); ++next) {
    pos[ready[next]] = next;
    for (EventId x : after[ready[next]])
      if (--preds[x] == 0) ready.push_back(x);
  }
  return pos;
}

}  // namespace syncproof::model
