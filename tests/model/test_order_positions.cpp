// model::order_positions: a topological order of the orders, first ready first placed, with
// what a cycle holds up left unplaced; every order between placed events goes up in it.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "model/events.h"

using namespace syncproof::model;

TEST_CASE("order positions: first ready first placed, a cycle and what follows it unplaced") {
  LoweredProgram p;
  for (int i = 0; i < 7; ++i) p.events.emplace_back(EventKind::MeStep, 0, 0, "e");
  // 0 -> 2 -> 1 and 3 -> 1: 0 and 3 are ready first (in id order), then 2, then 1.
  // 4 -> 5 -> 4 is a cycle, and 6 comes after it.
  for (auto [a, b] :
       std::vector<std::pair<EventId, EventId>>{{0, 2}, {2, 1}, {3, 1}, {4, 5}, {5, 4}, {5, 6}})
    p.orders.push_back({a, b, {}, {}});
  const std::vector<uint32_t> pos = order_positions(p);
  CHECK(pos == std::vector<uint32_t>{0, 3, 2, 1, UINT32_MAX, UINT32_MAX, UINT32_MAX});
  for (const Order& o : p.orders)
    if (pos[o.before] != UINT32_MAX && pos[o.after] != UINT32_MAX)
      CHECK(pos[o.before] < pos[o.after]);
}
