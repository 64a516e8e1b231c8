#pragma once
// The must-order search as a whole-program fixpoint (one full 0-1 breadth-first search per source
// event, memoized for the whole program: O(n) time and memory per source; candidates a wait is
// before dropped from its rule until none is). The reference the search in use
// (properties/must_order.h) is tested against: the same proofs obligation by obligation, and
// property lists sufficient and irredundant for this search (tests/tools/test_must_order.cpp).
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::testing {

class ReferenceMustOrder {
 public:
  // forbidden (bit per AssumptionId): orders guarded by these and wait rules resting on them are
  // not used, as if the assumptions were off.
  explicit ReferenceMustOrder(const model::LoweredProgram& p, uint32_t forbidden = 0);

  // Proved: the assumptions whose guarded orders the paths used. nullopt: no proof found.
  std::optional<std::set<model::AssumptionId>> prove(const properties::Obligation& o);
  // Whether a path a ~> b exists (t(a) < t(b) in every execution the assumptions allow).
  bool reaches(model::EventId a, model::EventId b) { return from(a).seen[b]; }

 private:
  struct Reach {
    std::vector<uint8_t> seen;          // by event
    std::vector<uint32_t> parent_edge;  // order index used to reach it (UINT32_MAX: wait)
  };
  const Reach& from(model::EventId src);
  void guards_on_path(model::EventId a, model::EventId b, std::set<model::AssumptionId>* out);
  bool covers_all(uint32_t op, uint64_t lo, uint64_t hi) const;
  // A chain of covering operations through `steps`, each after the previous point, starting
  // after `start`; returns the last point (start itself when there are no steps).
  // `fresh`: the freshness whose GL2 step takes only an invalidation no line mate holds shut;
  // the assumptions that used go to `extra`.
  std::optional<model::EventId> chain(model::EventId start,
                                      const std::vector<properties::Step>& steps, size_t j,
                                      uint64_t lo, uint64_t hi, model::EventId target,
                                      std::vector<model::EventId>* points,
                                      const properties::Freshness* fresh = nullptr,
                                      std::set<model::AssumptionId>* extra = nullptr);
  bool gl2_open(const properties::Freshness& f, uint32_t op, uint64_t lo, uint64_t hi,
                std::set<model::AssumptionId>* used);

  const model::LoweredProgram& p_;
  uint32_t forbidden_;
  std::vector<std::vector<uint32_t>> out_;            // event -> order indices leaving it
  std::vector<std::vector<uint32_t>> waits_of_;       // candidate event -> wait rules it feeds
  std::vector<uint8_t> exempt_;                       // wait rule -> needs no candidate
  std::vector<std::vector<model::EventId>> needed_;   // wait rule -> candidates not after it
  std::vector<std::set<model::AssumptionId>> after_;  // wait rule -> guards putting the rest after
  std::unordered_map<model::EventId, Reach> memo_;
};

}  // namespace syncproof::testing
