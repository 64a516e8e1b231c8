#include "properties/hazard_pairs.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace syncproof::properties::detail {

using namespace model;

// The 64-byte units of the bytes both touch (same plane), if they share any byte.
bool overlap(const MemAccess& a, const MemAccess& b, uint64_t* lo, uint64_t* hi) {
  const uint64_t blo = std::max(a.blo, b.blo), bhi = std::min(a.bhi, b.bhi);
  *lo = blo / kUnitBytes;
  *hi = bhi / kUnitBytes;
  return blo <= bhi && a.plane == b.plane;
}

// Whether x touches every byte a and b both touch.
bool covers_common(const MemAccess& x, const MemAccess& a, const MemAccess& b) {
  return x.blo <= std::max(a.blo, b.blo) && x.bhi >= std::min(a.bhi, b.bhi);
}

// A WAR or WAW pair (x, y) needs no obligation when a write z with the same write path sits
// between them in API order and covers their common lines: (x, z) and (z, y) imply it, since with
// one path the data of x, z and y meet at the same level.
bool shadowed_write(const LoweredProgram& p, const ApiOrder& hb, uint32_t x, uint32_t y,
                    const AccessIndex* index) {
  const MemAccess& ax = p.accesses[x];
  const MemAccess& ay = p.accesses[y];
  auto same_path = [](const Path& a, const Path& b) {
    if (a.size != b.size) return false;
    for (int i = 0; i < a.size; ++i)
      if (a[i] != b[i]) return false;
    return true;
  };
  auto shadows = [&](uint32_t m) {
    const MemAccess& z = p.accesses[m];
    if (!z.write || m == x || m == y || z.only_without || z.plane != ay.plane ||
        !same_path(z.path, ay.path))
      return false;
    if (ax.write && !same_path(z.path, ax.path)) return false;
    if (!covers_common(z, ax, ay)) return false;
    return hb.before(ax.queue, ax.cmd, z.queue, z.cmd) &&
           hb.before(z.queue, z.cmd, ay.queue, ay.cmd);
  };
  // The index needs the two to overlap (a write can cover the empty common part of two that do
  // not without touching either).
  if (index && std::max(ax.blo, ay.blo) <= std::min(ax.bhi, ay.bhi))
    return index->any_between(x, y, ay.plane, shadows);
  for (uint32_t m = 0; m < p.accesses.size(); ++m)
    if (shadows(m)) return true;
  return false;
}

namespace {

// An earlier write needs no obligation towards a read when a write API-ordered between them
// covers the same lines: the obligations of that write (WAW, then RAW) imply it.
bool shadowed(const LoweredProgram& p, const ApiOrder& hb, uint32_t w, uint32_t r,
              const AccessIndex* index) {
  const MemAccess& aw = p.accesses[w];
  const MemAccess& ar = p.accesses[r];
  auto shadows = [&](uint32_t m) {
    const MemAccess& x = p.accesses[m];
    // A write's second possible path shadows nothing its first does not (and under its
    // assumption its own obligations are vacuous).
    if (!x.write || m == w || x.only_without || x.plane != aw.plane || !covers_common(x, aw, ar))
      return false;
    return hb.before(aw.queue, aw.cmd, x.queue, x.cmd) &&
           hb.before(x.queue, x.cmd, ar.queue, ar.cmd);
  };
  if (index) return index->any_between(w, r, aw.plane, shadows);  // no_hazards' pairs overlap
  for (uint32_t m = 0; m < p.accesses.size(); ++m)
    if (shadows(m)) return true;
  return false;
}

std::optional<PairQuestion> pair_question(const LoweredProgram& p, const ApiOrder& hb,
                                          const AccessIndex* use, uint32_t a, uint32_t b) {
  const auto& acc = p.accesses;
  uint64_t lo, hi;
  if (!(acc[a].write || acc[b].write) || !overlap(acc[a], acc[b], &lo, &hi)) return {};
  if (acc[a].queue == acc[b].queue && acc[a].cmd == acc[b].cmd) return {};
  // Two label words written by bottom-of-pipe value writes are synchronization, not data:
  // what a wait sees of them is P-DEADLOCK-FREE's and the waits' business (R-WAIT-VALUE).
  if (acc[a].kind == AccessKind::Label && acc[b].kind == AccessKind::Label) return {};
  uint32_t x = a, y = b;  // x API-before y
  if (hb.before(acc[b].queue, acc[b].cmd, acc[a].queue, acc[a].cmd)) {
    std::swap(x, y);
  } else if (!hb.before(acc[a].queue, acc[a].cmd, acc[b].queue, acc[b].cmd)) {
    // A write's second possible path races exactly where its first does: one race is enough.
    if (acc[a].only_without || acc[b].only_without) return {};
    return PairQuestion{Obligation::Kind::Race, a, b, lo, hi};
  }
  if (acc[x].write && !acc[y].write) {
    if (shadowed(p, hb, x, y, use)) return {};
    return PairQuestion{Obligation::Kind::Fresh, x, y, lo, hi};
  }
  if (shadowed_write(p, hb, x, y, use)) return {};
  const auto kind = acc[x].write ? Obligation::Kind::WriteOrder : Obligation::Kind::ReadFirst;
  return PairQuestion{kind, x, y, lo, hi};
}

}  // namespace

// The pairs, in index order (a, then b), that need an obligation. scan_all tests every pair of
// accesses; otherwise only the partners the index gives (AccessIndex::partners), which are all
// the pairs the scan keeps, and more. limit: stop once there are more (obligations_for only asks
// whether a list differs then).
std::vector<PairQuestion> hazard_pairs(const LoweredProgram& p, const ApiOrder& hb, bool scan_all,
                                       size_t limit, const AccessIndex* given) {
  const auto& acc = p.accesses;
  std::vector<PairQuestion> out;
  if (scan_all) {
    for (uint32_t a = 0; a < acc.size(); ++a)
      for (uint32_t b = a + 1; b < acc.size() && out.size() <= limit; ++b)
        if (auto q = pair_question(p, hb, nullptr, a, b)) out.push_back(*q);
    return out;
  }
  std::optional<AccessIndex> own;
  const AccessIndex& index = given ? *given : own.emplace(p, hb);
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, PairQuestion>> found;
  std::vector<uint32_t> partners;
  for (uint32_t y = 0; y < acc.size() && found.size() <= limit; ++y) {
    partners.clear();
    index.partners(y, partners);
    for (uint32_t x : partners) {
      const uint32_t a = std::min(x, y), b = std::max(x, y);
      if (auto q = pair_question(p, hb, &index, a, b)) found.push_back({{a, b}, *q});
    }
  }
  std::sort(found.begin(), found.end(),
            [](const auto& l, const auto& r) { return l.first < r.first; });
  found.erase(std::unique(found.begin(), found.end(),
                          [](const auto& l, const auto& r) { return l.first == r.first; }),
              found.end());
  for (const auto& f : found) out.push_back(f.second);
  return out;
}

}  // namespace syncproof::properties::detail
