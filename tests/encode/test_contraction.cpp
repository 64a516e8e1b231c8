// Taking events out of a cone's orders (encode/contraction.h) keeps exactly what the orders say
// about the kept events: under every truth of the assumptions, the same kept events are forced
// apart by the same least distance, and the orders have a cycle exactly when the bounds or a
// "never" say so.
#include <doctest/doctest.h>

#include <optional>
#include <random>

#include "encode/contraction.h"
#include "properties/proof_cone.h"

using namespace syncproof;

namespace {

constexpr int64_t kNone = INT64_MIN;
struct Edge {
  model::EventId from, to;
  int64_t weight;
  uint64_t guards;
};

// Longest distances between all events over the active edges (t(to) >= t(from) + weight), or
// nullopt when they have a cycle (no execution). Floyd-Warshall on a handful of events.
std::optional<std::vector<std::vector<int64_t>>> distances(size_t n, const std::vector<Edge>& es,
                                                           uint64_t holds) {
  std::vector<std::vector<int64_t>> d(n, std::vector<int64_t>(n, kNone));
  for (const Edge& e : es)
    if ((e.guards & ~holds) == 0) d[e.from][e.to] = std::max(d[e.from][e.to], e.weight);
  for (size_t k = 0; k < n; ++k)
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j)
        if (d[i][k] != kNone && d[k][j] != kNone) d[i][j] = std::max(d[i][j], d[i][k] + d[k][j]);
  for (size_t i = 0; i < n; ++i)
    if (d[i][i] != kNone) return std::nullopt;
  return d;
}

// Bits of an assignment of assumptions 0 and 1: bit a when it holds, bit 32 + a when not.
uint64_t holding(unsigned values) {
  uint64_t h = 0;
  for (int a = 0; a < 2; ++a) h |= (values >> a & 1u) ? uint64_t{1} << a : uint64_t{1} << (32 + a);
  return h;
}

}  // namespace

TEST_CASE("a chain through events nothing else mentions becomes one bound") {
  model::LoweredProgram p;
  p.orders = {{0, 1, {}, {}}, {1, 2, {model::AssumptionId{}, true}, {}}, {2, 3, {}, {}}};
  const std::vector<model::EventId> events{0, 1, 2, 3};
  const std::vector<uint8_t> in(4, 1), keep{1, 0, 0, 1};
  const encode::Contracted c = encode::contract(p, events, in, keep);
  REQUIRE(c.bounds.size() == 1);
  CHECK(c.bounds[0].from == 0);
  CHECK(c.bounds[0].to == 3);
  CHECK(c.bounds[0].weight == 3);
  CHECK(c.bounds[0].guards == properties::guard_bit({model::AssumptionId{}, true}));
  CHECK(c.never.empty());
}

TEST_CASE("a cycle through a taken-out event is no execution under its guards") {
  model::LoweredProgram p;
  const model::Guard g{model::AssumptionId{}, false};
  p.orders = {{0, 1, {}, {}}, {1, 0, g, {}}};
  const encode::Contracted c = encode::contract(p, {0, 1}, {1, 1}, {1, 0});
  CHECK(c.bounds.empty());
  CHECK(c.never == std::vector<uint64_t>{properties::guard_bit(g)});
}

TEST_CASE("random orders: the kept events' distances and cycles are the same after contraction") {
  std::mt19937 rng(12345);
  int contracted_some = 0;
  for (int round = 0; round < 400; ++round) {
    const size_t n = 3 + rng() % 7;
    model::LoweredProgram p;
    const size_t m = rng() % (2 * n + 1);
    for (size_t k = 0; k < m; ++k) {
      model::Order o{
          static_cast<model::EventId>(rng() % n), static_cast<model::EventId>(rng() % n), {}, {}};
      if (rng() % 8 == 0 || o.before != o.after) {
        if (rng() % 2) o.guard = {static_cast<model::AssumptionId>(rng() % 2), rng() % 2 == 0};
        p.orders.push_back(o);
      }
    }
    std::vector<model::EventId> events(n);
    for (size_t e = 0; e < n; ++e) events[e] = static_cast<model::EventId>(e);
    std::vector<uint8_t> in(n, 1), keep(n, 0);
    for (size_t e = 0; e < n; ++e) keep[e] = rng() % 3 == 0;
    const encode::Contracted c = encode::contract(p, events, in, keep);
    std::vector<Edge> before, after;
    for (const model::Order& o : p.orders)
      before.push_back({o.before, o.after, 1, properties::guard_bit(o.guard)});
    for (const encode::Bound& b : c.bounds) {
      CHECK(keep[b.from]);
      CHECK(keep[b.to]);
      after.push_back({b.from, b.to, b.weight, b.guards});
    }
    contracted_some += c.bounds.size() < p.orders.size();
    for (unsigned values = 0; values < 4; ++values) {
      const uint64_t h = holding(values);
      const auto d0 = distances(n, before, h);
      auto d1 = distances(n, after, h);
      for (uint64_t g : c.never)
        if ((g & ~h) == 0) d1.reset();
      REQUIRE(d0.has_value() == d1.has_value());
      if (!d0) continue;
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
          if (keep[i] && keep[j]) CHECK((*d0)[i][j] == (*d1)[i][j]);
    }
  }
  CHECK(contracted_some > 100);
}
