#pragma once
// Which pairs of accesses no-hazards asks about (properties/obligation.cpp): two accesses that
// share a byte, one of them a write, not both label words written by value writes, and not
// shadowed by a write API-ordered between them that the pair's obligations follow from. For
// obligation.cpp only.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/events.h"
#include "properties/access_index.h"
#include "properties/api_order.h"
#include "properties/obligation.h"

namespace syncproof::properties::detail {

// The 64-byte units of the bytes both touch (same plane), if they share any byte.
bool overlap(const model::MemAccess& a, const model::MemAccess& b, uint64_t* lo, uint64_t* hi);
// Whether x touches every byte a and b both touch.
bool covers_common(const model::MemAccess& x, const model::MemAccess& a, const model::MemAccess& b);

// A WAR or WAW pair (x, y) needs no obligation when a write z with the same write path sits
// between them in API order and covers their common lines. `index`: look only at the writes it
// gives between them (no_hazards' pairs overlap).
bool shadowed_write(const model::LoweredProgram& p, const ApiOrder& hb, uint32_t x, uint32_t y,
                    const AccessIndex* index = nullptr);

// What no-hazards asks of the pair of accesses a < b (index order): nothing, or one obligation
// on (x, y), x the one API order puts first (for a race, x = a and y = b).
struct PairQuestion {
  Obligation::Kind kind;
  uint32_t x, y;
  uint64_t lo, hi;
};
// The pairs, in index order (a, then b), that need an obligation. scan_all tests every pair of
// accesses; otherwise only the partners the index gives (AccessIndex::partners), which are all
// the pairs the scan keeps, and more. limit: stop once there are more. `index`: the index over
// `hb` (null: made for this call).
std::vector<PairQuestion> hazard_pairs(const model::LoweredProgram& p, const ApiOrder& hb,
                                       bool scan_all, size_t limit,
                                       const AccessIndex* index = nullptr);

}  // namespace syncproof::properties::detail
