#include "properties/access_index.h"

#include <map>

namespace syncproof::properties {

using namespace model;

namespace {

// How far back from a read or write to look for a write that covers it: a bound on the work per
// access. Not finding one only widens the range of partners tested in full.
constexpr int kLookBack = 32;

uint64_t path_code(const Path& path) {
  uint64_t code = path.size;
  for (int i = 0; i < path.size; ++i) code |= static_cast<uint64_t>(path[i]) << (8 + 8 * i);
  return code;
}

}  // namespace

AccessIndex::AccessIndex(const LoweredProgram& p, const ApiOrder& hb)
    : p_(p), hb_(hb), nq_(hb.queues()) {
  const auto& acc = p.accesses;
  std::vector<uint32_t> by_lo(acc.size());
  for (uint32_t i = 0; i < acc.size(); ++i) by_lo[i] = i;
  std::sort(by_lo.begin(), by_lo.end(),
            [&](uint32_t a, uint32_t b) { return acc[a].blo < acc[b].blo; });
  group_.assign(acc.size(), 0);
  uint64_t end = 0;
  uint32_t g = 0;
  for (size_t i = 0; i < by_lo.size(); ++i) {
    const MemAccess& m = acc[by_lo[i]];
    if (i > 0 && m.blo > end) ++g;
    end = i == 0 ? m.bhi : std::max(end, m.bhi);
    group_[by_lo[i]] = g;
  }
  members_.resize(acc.empty() ? 0 : g + 1);
  std::map<uint64_t, uint32_t> ids;
  path_.resize(acc.size());
  for (uint32_t i = 0; i < acc.size(); ++i) {
    members_[group_[i]].push_back(i);
    path_[i] = ids.emplace(path_code(acc[i].path), static_cast<uint32_t>(ids.size())).first->second;
  }
  paths_ = static_cast<uint32_t>(ids.size());
  for (uint32_t i = 0; i < acc.size(); ++i) {
    const MemAccess& m = acc[i];
    buckets_[key(group_[i], m.plane, m.queue, kAll)].push_back(i);
    if (!m.write) continue;
    buckets_[key(group_[i], m.plane, m.queue, kWrites)].push_back(i);
    buckets_[key(group_[i], m.plane, m.queue, kPath + path_[i])].push_back(i);
  }
  for (auto& [k, v] : buckets_)
    std::stable_sort(v.begin(), v.end(),
                     [&](uint32_t a, uint32_t b) { return acc[a].cmd < acc[b].cmd; });
}

// A write z on y's plane that covers every byte of y and is API-ordered before y (when y is a
// write, with y's path; not a write's second possible path, MemAccess::only_without) shadows every
// pair (x, y) with x API-ordered before z: z covers the bytes x and y share, so obligation.cpp's
// shadowed(x, y) holds for a write x and a read y, and shadowed_write(x, y) for a write y and a
// read x or a write x of y's path. On each queue the latest such z before y is after the most
// commands, so it is the only one looked for.
void AccessIndex::shadow_floors(uint32_t y, std::vector<uint32_t>& floor) const {
  const MemAccess& ay = p_.accesses[y];
  floor.assign(nq_, 0);
  const uint32_t kind = ay.write ? kPath + path_[y] : kWrites;
  // Behind a wait that can never complete, API order holds in both directions, and a command
  // can count itself and the commands after it among its predecessors. API order never puts a
  // command before itself (ApiOrder::before), so on its own queue z and y count only what
  // precedes them in queue order.
  auto preceding = [&](uint32_t q, uint32_t zq, uint32_t zc) {
    const uint32_t n = hb_.before_count(q, zq, zc);
    return q == zq ? std::min(n, zc) : n;
  };
  for (uint32_t qz = 0; qz < nq_; ++qz) {
    const std::vector<uint32_t>* v = bucket(group_[y], ay.plane, qz, kind);
    if (!v) continue;
    auto it = from(*v, preceding(qz, ay.queue, ay.cmd));
    for (int n = 0; n < kLookBack && it != v->begin(); ++n) {
      const MemAccess& z = p_.accesses[*--it];
      // A write's second possible path shadows nothing (obligation.cpp).
      if (z.only_without || z.blo > ay.blo || z.bhi < ay.bhi) continue;
      for (uint32_t q = 0; q < nq_; ++q)
        floor[q] = std::max(floor[q], preceding(q, z.queue, z.cmd));
      break;
    }
  }
}

void AccessIndex::partners(uint32_t y, std::vector<uint32_t>& out) const {
  const MemAccess& ay = p_.accesses[y];
  const uint32_t g = group_[y];
  std::vector<uint32_t> floor;
  shadow_floors(y, floor);
  for (uint32_t q = 0; q < nq_; ++q) {
    // Only a pair with a write in it is a hazard.
    const std::vector<uint32_t>* v = bucket(g, ay.plane, q, ay.write ? kAll : kWrites);
    if (!v) continue;
    // (Behind a wait that can never complete, `after` may be below `before`: a command both
    // before and after y is tested once, as an ordered pair.)
    const uint32_t before = hb_.before_count(q, ay.queue, ay.cmd);
    const uint32_t after = hb_.first_after(ay.queue, ay.cmd, q);
    auto it = from(*v, floor[q]);
    for (; it != v->end() && p_.accesses[*it].cmd < before; ++it) out.push_back(*it);
    for (; it != v->end() && p_.accesses[*it].cmd < after; ++it)
      if (*it < y) out.push_back(*it);
    if (!ay.write || floor[q] == 0) continue;
    // Writes of another path than y's are not shadowed by the floor's write.
    for (uint32_t id = 0; id < paths_; ++id) {
      const std::vector<uint32_t>* w =
          id == path_[y] ? nullptr : bucket(g, ay.plane, q, kPath + id);
      if (!w) continue;
      for (auto m = w->begin(); m != w->end() && p_.accesses[*m].cmd < floor[q]; ++m)
        out.push_back(*m);
    }
  }
}

}  // namespace syncproof::properties
