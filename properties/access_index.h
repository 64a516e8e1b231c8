#pragma once
// The accesses of a program bucketed so that no-hazards' pairs and their shadowing writes are
// found without looking at every access (obligation.cpp).
//
// Two accesses can only share a byte when they are in one overlap group (accesses whose byte
// ranges overlap, transitively) and on one plane. Within a bucket (group, plane, queue) they are
// kept in command order, so that "the commands of queue q that API order puts between two
// others" is a range of each bucket: on each queue, from the first command the earlier one is
// before to the last one before the later one (ApiOrder::first_after, before_count).
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/events.h"
#include "properties/api_order.h"

namespace syncproof::properties {

class AccessIndex {
 public:
  AccessIndex(const model::LoweredProgram& p, const ApiOrder& hb);

  // The accesses whose bytes may overlap a's, in index order.
  const std::vector<uint32_t>& group_of(uint32_t a) const { return members_[group_[a]]; }

  // Whether test(m) holds for a write m of `plane` that could cover the bytes x and y share and
  // lie between them in API order. x and y must overlap. Within those bounds every candidate is
  // tested in full, so the answer is that of a scan over every access.
  template <class Test>
  bool any_between(uint32_t x, uint32_t y, model::Plane plane, Test test) const {
    const model::MemAccess& ax = p_.accesses[x];
    const model::MemAccess& ay = p_.accesses[y];
    for (uint32_t q = 0; q < hb_.queues(); ++q) {
      const std::vector<uint32_t>* v = bucket(group_[x], plane, q, kWrites);
      if (!v) continue;
      const uint32_t lo = hb_.first_after(ax.queue, ax.cmd, q);
      const uint32_t hi = hb_.before_count(q, ay.queue, ay.cmd);
      if (lo >= hi) continue;
      for (auto m = from(*v, lo); m != v->end() && p_.accesses[*m].cmd < hi; ++m)
        if (test(*m)) return true;
    }
    return false;
  }

  // Adds to `out` every access x that may form a no-hazards pair with y that needs an
  // obligation: every x API-ordered before y that no write between them shadows for certain, and
  // every x that API order leaves unordered with y and that comes before y in index order (so a
  // race is found from one side only). It may add more (the caller decides each pair in full),
  // never fewer; and it adds each x at most once. (Behind a wait that can never complete, two
  // commands can each be API-ordered before the other: their pair is added from both sides.)
  void partners(uint32_t y, std::vector<uint32_t>& out) const;

 private:
  // Bucket kinds: every access, the writes, and the writes of one path (kPath + its id).
  static constexpr uint32_t kAll = 0, kWrites = 1, kPath = 2;
  const std::vector<uint32_t>* bucket(uint32_t group, model::Plane plane, uint32_t q,
                                      uint32_t kind) const {
    auto it = buckets_.find(key(group, plane, q, kind));
    return it == buckets_.end() ? nullptr : &it->second;
  }
  uint64_t key(uint32_t group, model::Plane plane, uint32_t q, uint32_t kind) const {
    return ((static_cast<uint64_t>(group) * 2 + static_cast<uint64_t>(plane)) * nq_ + q) *
               (kPath + paths_) +
           kind;
  }
  // The first access of v (in command order) whose command is at least `cmd`.
  std::vector<uint32_t>::const_iterator from(const std::vector<uint32_t>& v, uint32_t cmd) const {
    return std::partition_point(v.begin(), v.end(),
                                [&](uint32_t i) { return p_.accesses[i].cmd < cmd; });
  }
  // floor[q]: on each queue q, how many commands are API-ordered before a write that shadows
  // every pair (x, y) with x among them (except, when y is a write, writes x of another path).
  void shadow_floors(uint32_t y, std::vector<uint32_t>& floor) const;

  const model::LoweredProgram& p_;
  const ApiOrder& hb_;
  uint32_t nq_ = 0, paths_ = 0;
  std::vector<uint32_t> group_, path_;
  std::vector<std::vector<uint32_t>> members_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> buckets_;
};

}  // namespace syncproof::properties
