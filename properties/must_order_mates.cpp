// The GL2 step's line mates (R-GL2-INV-KEEPS-DIRTY): whether an invalidation of the reader's GL2
// step surely carries the data (gl2_open), and which mates and render back-end fills surely
// change nothing (quiet), by the must-happen-before paths of must_order.cpp. The header says why
// the chains through a neighbour's answer are sound.
#include <algorithm>
#include <tuple>

#include "properties/must_order.h"

namespace syncproof::properties {

using namespace model;

namespace {

bool same_path(const Path& a, const Path& b) {
  if (a.size != b.size) return false;
  for (int i = 0; i < a.size; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

// A path as one number: equal for two paths exactly when same_path() holds (a level a byte).
uint64_t path_key(const Path& p) {
  static_assert(sizeof(Level) == 1 && std::tuple_size_v<decltype(Path::levels)> < 8);
  uint64_t k = p.size;
  for (int i = 0; i < p.size; ++i) k |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * (i + 1));
  return k;
}

}  // namespace

bool MustOrder::gl2_open(const Freshness& f, uint32_t op, uint64_t lo, uint64_t hi,
                         uint32_t* bits) {
  const CacheOp& c = p_.cache_ops[op];
  // Every mate after the operation or in memory before it: no assumption about the operation.
  // Without a budget most mates follow from a neighbour's question (linked_mates_clean()); the
  // budgeted searches (minimize()) ask each one, as they always did.
  uint32_t mates = 0;
  bool clean = true;
  if (!budget_) {
    clean = linked_mates_clean(f, op, lo, hi, &mates);
  } else {
    for (const LineMate& m : f.mates)
      if (m.lo <= hi && lo <= m.hi && !mate_clean(f, m, c.ev, lo, hi, &mates)) {
        clean = false;
        break;
      }
  }
  if (clean) {
    *bits |= mates;
    return true;
  }
  if (c.writeback && wb_inv_drops_dirty(p_, forbidden_)) {
    *bits |= bit(AssumptionId::Gl2WbBeforeInv);
    return true;
  }
  return false;
}

// One mate, on its own: down the write's own path and before it, after the operation, or written
// back to memory before it (the guards of the paths that say so go to `bits`).
bool MustOrder::mate_clean(const Freshness& f, const LineMate& m, EventId op_ev, uint64_t lo,
                           uint64_t hi, uint32_t* bits) {
  const MemAccess& w = p_.accesses[f.write];
  const EventId arrive = p_.accesses[m.access].arrive;
  // Down the write's own path and before it: in memory no later than the write (quiet()).
  if (same_path(p_.accesses[m.access].path, w.path) && reaches(arrive, w.arrive)) {
    *bits |= guards(arrive, w.arrive);
    return true;
  }
  if (reaches(op_ev, arrive)) {
    *bits |= guards(op_ev, arrive);
    return true;
  }
  std::vector<EventId> pts;
  const auto end =
      chain(arrive, m.steps.items(), 0, std::max(lo, m.lo), std::min(hi, m.hi), op_ev, &pts);
  if (!end || *end == op_ev) return false;  // written back by this very operation: not before it
  pts.push_back(op_ev);
  for (size_t i = 0; i + 1 < pts.size(); ++i) *bits |= guards(pts[i], pts[i + 1]);
  return true;
}

void MustOrder::build_mate_links() {
  links_built_ = true;
  mark_.assign(p_.accesses.size(), 0), mark_guards_.assign(p_.accesses.size(), 0);
  next_mate_.assign(p_.accesses.size(), kNoMate);
  prev_mate_.assign(p_.accesses.size(), kNoMate);
  linked_.assign(p_.accesses.size(), kUnknown);
  arrive_.resize(p_.accesses.size()), path_key_.resize(p_.accesses.size());
  arrive_at_.resize(p_.accesses.size());
  for (uint32_t i = 0; i < p_.accesses.size(); ++i) {
    const EventId a = p_.accesses[i].arrive;
    arrive_[i] = a, path_key_[i] = path_key(p_.accesses[i].path);
    arrive_at_[i] = a == kNoEvent ? UINT32_MAX : spos_[a];
  }
  // The writes through GL2 by access group (the bytes, plane and first level they write, as
  // properties/obligation.cpp groups a read's mates): a read's mates hold whole groups.
  std::map<std::tuple<uint64_t, uint64_t, Plane, Level>, uint32_t> last;
  for (uint32_t i = 0; i < p_.accesses.size(); ++i) {
    const MemAccess& x = p_.accesses[i];
    if (!x.write || x.path.index_of(Level::Gl2) < 0 || x.arrive == kNoEvent) continue;
    auto [it, fresh] = last.try_emplace({x.blo, x.bhi, x.plane, x.path[0]}, i);
    if (!fresh) next_mate_[it->second] = i, prev_mate_[i] = it->second, it->second = i;
  }
}

std::optional<uint32_t> MustOrder::after_prev(uint32_t a, uint32_t stamp) {
  const uint32_t prev = prev_mate_[a];
  if (!chains_ || budget_ || prev == kNoMate || mark_[prev] != stamp || !linked(prev))
    return std::nullopt;
  return mark_guards_[prev];
}

bool MustOrder::linked(uint32_t a) {
  if (a == kNoMate || next_mate_[a] == kNoMate) return false;
  if (linked_[a] == kUnknown)
    linked_[a] = free_path(p_.accesses[a].arrive, p_.accesses[next_mate_[a]].arrive) ? 1 : 0;
  return linked_[a] == 1;
}

// The mates of the GL2 step of `f` on units lo..hi for operation `op` (gl2_open), by the chains of
// guard-free links between the arrivals of consecutive writes of one access group (all of a
// group are mates of a read, or none: same bytes). A mate whose question follows from a
// neighbour's is not asked:
//  - After the operation: if the mate's predecessor in its chain was shown to arrive after the
//    operation (op ~> arrive(prev), guards G, already in `bits`), then op ~> arrive(prev) ~>
//    arrive(mate), the second part without guards: the mate arrives after the operation under G,
//    in every execution G allows. It is not in GL2 when the operation runs.
//  - Before the write on the write's own path: if the mate is down the write's own path and its
//    successor in its chain was shown to be in memory no later than the write (that successor's
//    arrival ~> the write's arrival, guards G in `bits`; or the successor is the write itself),
//    then arrive(mate) ~> arrive(successor) ~> arrive(write): the mate arrives before the write,
//    down the same levels, so the same write-backs take it to memory no later (quiet()'s
//    argument), under G.
// Either way the mate is clean when the operation runs in every execution the assumptions already
// collected allow, so leaving its own question out keeps the step's openness sound; the
// collected guards are those of real paths, so the list stays sufficient. Everything else is
// asked as before (mate_clean()). Only in the search without a budget: the budgeted ones
// (minimize) ask every mate, as before.
bool MustOrder::linked_mates_clean(const Freshness& f, uint32_t op, uint64_t lo, uint64_t hi,
                                   uint32_t* bits) {
  if (!links_built_) build_mate_links();
  const EventId op_ev = p_.cache_ops[op].ev;
  const MemAccess& w = p_.accesses[f.write];
  const uint64_t write_path = path_key(w.path);
  // A mate's mark this call: after the operation, or in memory no later than the write.
  const uint32_t after = ++stamp_, before = ++stamp_;
  // A mate arriving past the operation in search order cannot be before the write (which is
  // before the operation), and one arriving before it cannot be after it.
  const uint32_t op_at = spos_[op_ev];
  for (const LineMate& m : f.mates) {
    if (m.hi < lo || hi < m.lo || arrive_at_[m.access] <= op_at) continue;
    const EventId arrive = arrive_[m.access];
    const uint32_t prev = prev_mate_[m.access];
    if (prev != kNoMate && mark_[prev] == after && linked(prev)) {
      mark_[m.access] = after;
      continue;
    }
    if (reaches(op_ev, arrive)) {
      *bits |= guards(op_ev, arrive);
      mark_[m.access] = after;
      continue;
    }
    if (!mate_clean(f, m, op_ev, lo, hi, bits)) return false;
  }
  for (auto it = f.mates.rbegin(); it != f.mates.rend(); ++it) {
    const LineMate& m = *it;
    if (m.hi < lo || hi < m.lo || arrive_at_[m.access] > op_at) continue;
    const EventId arrive = arrive_[m.access];
    const uint32_t next = next_mate_[m.access];
    const bool own_path = path_key_[m.access] == write_path;
    if (own_path && next != kNoMate && (next == f.write || mark_[next] == before) &&
        linked(m.access)) {
      mark_[m.access] = before;
      continue;
    }
    if (own_path && reaches(arrive, w.arrive)) {
      *bits |= guards(arrive, w.arrive);
      mark_[m.access] = before;
      continue;
    }
    if (!mate_clean(f, m, op_ev, lo, hi, bits)) return false;
  }
  return true;
}

MustOrder::Quiet MustOrder::Quiet::without(uint32_t dropped) const {
  Quiet q;
  q.mates.assign(mates.size(), 0), q.mate_guards.assign(mates.size(), 0);
  q.fills.assign(fills.size(), 0), q.fill_guards.assign(fills.size(), 0);
  for (size_t i = 0; i < mates.size(); ++i)
    if (mates[i] && !(mate_guards[i] & dropped))
      q.mates[i] = 1, q.mate_guards[i] = mate_guards[i], q.guards |= mate_guards[i];
  for (size_t i = 0; i < fills.size(); ++i)
    if (fills[i] && !(fill_guards[i] & dropped))
      q.fills[i] = 1, q.fill_guards[i] = fill_guards[i], q.guards |= fill_guards[i];
  return q;
}

MustOrder::Quiet MustOrder::quiet(const Obligation& o) {
  Quiet q;
  if (o.kind != Obligation::Kind::Fresh) return q;
  const Freshness& f = o.fresh;
  const EventId arrive = p_.accesses[f.write].arrive, read = p_.accesses[f.read].ev;
  q.mates.assign(f.mates.size(), 0), q.mate_guards.assign(f.mates.size(), 0);
  q.fills.assign(f.fills.size(), 0), q.fill_guards.assign(f.fills.size(), 0);
  if (f.gl2_up >= 0 && !f.mates.empty()) {
    if (!links_built_) build_mate_links();
    const uint32_t after = ++stamp_;  // a mate's mark this call: arrives after the read
    // The invalidations that could carry the data: neither before the write's arrival (the data
    // is in memory only after it) nor after the read. One that is outside only through orders
    // under assumptions is in the window without them: with each, those assumptions (a mate
    // dirty while it runs is quiet only under them), else 0. Latest first: an invalidation shown
    // before the write's arrival (guards G) answers for an earlier one of its queue that reaches
    // it (guards H: before it, so before the arrival under G and H). A frame's invalidations on a
    // queue the write's is ordered after only under assumptions were otherwise each a search from
    // there to the write. (G and H are a real path's, not always the one a search of its own would
    // pick: a sufficient list, as every list here; see the header.)
    std::vector<std::pair<uint32_t, uint32_t>> window;
    std::vector<std::pair<EventId, uint32_t>> later(p_.commands.size(), {kNoEvent, 0});
    const std::vector<std::pair<uint32_t, uint32_t>>& ops =
        ops_by_pos(f.steps[static_cast<size_t>(f.gl2_up)].ops);
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      const uint32_t oi = it->second;
      const EventId e = p_.cache_ops[oi].ev;
      const Coverage& c = p_.cache_ops[oi].cov;
      bool touches = c.kind != Coverage::Kind::Nothing;
      if (c.kind == Coverage::Kind::Range) touches = c.lo <= f.hi && f.lo <= c.hi;
      if (!touches) continue;
      std::pair<EventId, uint32_t>& next = later[p_.events[e].queue];
      std::optional<uint32_t> before;
      if (chains_ && !budget_ && next.first != kNoEvent && reaches(e, next.first))
        before = guards(e, next.first) | next.second;
      if (!before && reaches(e, arrive)) before = guards(e, arrive);
      if (before) next = {e, *before};
      const bool after = !before && reaches(read, e);
      const uint32_t outside = before ? *before : after ? guards(read, e) : 0;
      if ((!before && !after) || outside != 0) window.push_back({oi, outside});
    }
    // In completion order, so that a mate's way to memory found for one invalidation serves the
    // later ones it precedes.
    std::sort(window.begin(), window.end(), [&](const auto& a, const auto& b) {
      return std::pair(pos_[p_.cache_ops[a.first].ev], a.first) <
             std::pair(pos_[p_.cache_ops[b.first].ev], b.first);
    });
    const MemAccess& w = p_.accesses[f.write];
    const uint64_t own_path = path_key(w.path);
    for (size_t m = 0; m < f.mates.size(); ++m) {
      const LineMate& mate = f.mates[m];
      const EventId x = arrive_[mate.access];
      const uint64_t lo = std::max(f.lo, mate.lo), hi = std::min(f.hi, mate.hi);
      // A mate down the write's own path that arrives before it is written back no later (the
      // same operations, from an earlier start), and an operation carries the data across the
      // GL2 step only after the write's data is in memory (or under A-GL2-WB-BEFORE-INV, which
      // drops dirty lines anyway).
      if (lo <= hi && path_key_[mate.access] == own_path && reaches(x, arrive)) {
        q.mates[m] = 1, q.mate_guards[m] = guards(x, arrive);
        continue;
      }
      // A mate that reaches GL2 only after the read is dirty only after it, when no invalidation
      // can carry the data to the read any more. The previous write of its access group, shown
      // to arrive after the read under guards G this call and linked to it by a guard-free path
      // (linked()), answers for it: read ~> prev ~> x, under G. A read's later mates are whole
      // groups to the end of the frame; without this each was a search from the read that far.
      if (lo <= hi) {
        std::optional<uint32_t> g = after_prev(mate.access, after);
        if (!g && reaches(read, x)) g = guards(read, x);
        if (g) {
          q.mates[m] = 1, q.mate_guards[m] = *g;
          mark_[mate.access] = after, mark_guards_[mate.access] = *g;
          continue;
        }
      }
      uint32_t bits = 0;
      bool ok = lo <= hi;
      EventId written = kNoEvent;  // where a way to memory found so far ends (its guards in bits)
      for (size_t i = 0; ok && i < window.size(); ++i) {
        const auto [op, outside] = window[i];
        const EventId e = p_.cache_ops[op].ev;
        if (reaches(e, x)) {
          bits |= guards(e, x);
          continue;
        }
        if (written != kNoEvent && written != e && reaches(written, e)) {
          bits |= guards(written, e);
          continue;
        }
        std::vector<EventId> pts;
        const auto end = chain(x, mate.steps.items(), 0, lo, hi, e, &pts);
        ok = end && *end != e;
        if (ok) written = *end;
        if (!ok && outside != 0) {  // outside the window under these
          bits |= outside, ok = true;
          continue;
        }
        if (!ok) break;
        pts.push_back(e);
        for (size_t k = 0; k + 1 < pts.size(); ++k) bits |= guards(pts[k], pts[k + 1]);
      }
      if (ok || lo > hi) q.mates[m] = 1, q.mate_guards[m] = lo > hi ? 0 : bits;
    }
  }
  if (f.rb_up >= 0) {
    const Step& s = f.steps[static_cast<size_t>(f.rb_up)];
    for (size_t i = 0; i < f.fills.size(); ++i) {
      const EventId fe = f.fills[i].ev;
      const uint64_t lo = std::max(f.lo, f.fills[i].lo), hi = std::min(f.hi, f.fills[i].hi);
      if (lo > hi) {  // on none of the obligation's lines
        q.fills[i] = 1;
        continue;
      }
      if (reaches(read, fe)) {
        q.fills[i] = 1, q.fill_guards[i] = guards(read, fe);
        continue;
      }
      for (uint32_t oi : s.ops) {
        const EventId e = p_.cache_ops[oi].ev;
        if (covers_all(oi, lo, hi) && reaches(fe, e) && reaches(e, arrive)) {
          q.fills[i] = 1, q.fill_guards[i] = guards(fe, e) | guards(e, arrive);
          break;
        }
      }
    }
  }
  for (uint32_t g : q.mate_guards) q.guards |= g;
  for (uint32_t g : q.fill_guards) q.guards |= g;
  return q;
}

}  // namespace syncproof::properties
