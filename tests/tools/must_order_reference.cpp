#include "tests/tools/must_order_reference.h"

#include <algorithm>
#include <deque>

namespace syncproof::testing {

using namespace model;
using namespace properties;

namespace {
constexpr uint32_t kNoParent = UINT32_MAX;
constexpr uint32_t kViaWait = UINT32_MAX - 1;
constexpr size_t kCandidatesPerStep = 8;  // beyond this the solver decides (no loss of soundness)
}  // namespace

ReferenceMustOrder::ReferenceMustOrder(const LoweredProgram& p, uint32_t forbidden)
    : p_(p),
      forbidden_(forbidden),
      out_(p.events.size()),
      waits_of_(p.events.size()),
      exempt_(p.waits.size()),
      needed_(p.waits.size()),
      after_(p.waits.size()) {
  auto bit = [](AssumptionId a) { return uint32_t{1} << static_cast<int>(a); };
  for (uint32_t i = 0; i < p.orders.size(); ++i)
    if (!(p.orders[i].guard.id && (forbidden & bit(*p.orders[i].guard.id))))
      out_[p.orders[i].before].push_back(i);
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    const uint32_t rests =
        r.value_depends | (r.zero_satisfies ? 0 : bit(AssumptionId::InitialZero));
    exempt_[w] = r.initial.can_sat || r.candidates.empty() || (rests & forbidden);
    if (!exempt_[w]) {
      needed_[w] = r.candidates;
      std::sort(needed_[w].begin(), needed_[w].end());
      needed_[w].erase(std::unique(needed_[w].begin(), needed_[w].end()), needed_[w].end());
    }
  }
  // A wait completes at a poll that saw one of its candidates land, so not one the wait is
  // before in every execution: those are dropped from its rule, with the guards of the paths that
  // put them after it, until no more are (each drop can only let the searches reach more).
  for (bool changed = true; changed;) {
    changed = false;
    for (auto& v : waits_of_) v.clear();
    for (uint32_t w = 0; w < p.waits.size(); ++w)
      for (EventId c : needed_[w]) waits_of_[c].push_back(w);
    memo_.clear();
    // Every drop of a round is decided on the searches of the round before.
    std::vector<std::vector<EventId>> next(p.waits.size());
    for (uint32_t w = 0; w < p.waits.size(); ++w)
      for (EventId c : needed_[w])
        if (reaches(p.waits[w].wait, c))
          guards_on_path(p.waits[w].wait, c, &after_[w]), changed = true;
        else
          next[w].push_back(c);
    for (uint32_t w = 0; w < p.waits.size(); ++w) {
      // A wait before all of its candidates never completes: its rule is not used.
      if (next[w].empty() && !needed_[w].empty()) exempt_[w] = 1;
      needed_[w] = std::move(next[w]);
    }
  }
  for (auto& v : waits_of_) v.clear();
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    for (EventId c : needed_[w]) waits_of_[c].push_back(w);
  memo_.clear();
}

// 0-1 BFS from `src`: guarded orders cost 1, so the path found to each event uses as few
// assumption-guarded orders as the search can find. A wait is reached once every candidate is
// reached (or is `src`): then it is after `src` in every execution.
const ReferenceMustOrder::Reach& ReferenceMustOrder::from(EventId src) {
  auto it = memo_.find(src);
  if (it != memo_.end()) return it->second;
  Reach r;
  r.seen.assign(p_.events.size(), 0);
  r.parent_edge.assign(p_.events.size(), kNoParent);
  std::vector<uint32_t> count(p_.waits.size(), 0);
  std::deque<EventId> q{src};
  std::vector<uint8_t> done(p_.events.size(), 0);
  while (!q.empty()) {
    EventId u = q.front();
    q.pop_front();
    if (done[u]) continue;
    done[u] = 1;
    for (uint32_t oi : out_[u]) {
      EventId v = p_.orders[oi].after;
      if (r.seen[v]) continue;
      r.seen[v] = 1;
      r.parent_edge[v] = oi;
      if (p_.orders[oi].guard.id)
        q.push_back(v);
      else
        q.push_front(v);
    }
    for (uint32_t w : waits_of_[u]) {
      if (++count[w] != needed_[w].size()) continue;
      EventId v = p_.waits[w].wait;
      if (!r.seen[v]) r.seen[v] = 1, r.parent_edge[v] = kViaWait, q.push_back(v);
    }
  }
  return memo_.emplace(src, std::move(r)).first->second;
}

void ReferenceMustOrder::guards_on_path(EventId a, EventId b, std::set<AssumptionId>* out) {
  const Reach& r = from(a);
  std::vector<EventId> todo{b};
  std::vector<uint8_t> visited(p_.events.size(), 0);
  while (!todo.empty()) {
    EventId v = todo.back();
    todo.pop_back();
    if (v == a || visited[v]) continue;
    visited[v] = 1;
    uint32_t pe = r.parent_edge[v];
    if (pe == kViaWait) {
      for (uint32_t wi = 0; wi < p_.waits.size(); ++wi)
        if (const WaitRule& w = p_.waits[wi]; w.wait == v && !exempt_[wi]) {
          if (!w.zero_satisfies) out->insert(AssumptionId::InitialZero);
          // Candidates that a value assumption narrows (model/wait_value.h).
          for (int a = 0; a < kAssumptionCount; ++a)
            if (w.value_depends & (1u << a)) out->insert(static_cast<AssumptionId>(a));
          out->insert(after_[wi].begin(), after_[wi].end());
          for (EventId c : needed_[wi]) todo.push_back(c);
        }
    } else if (pe != kNoParent) {
      if (p_.orders[pe].guard.id) out->insert(*p_.orders[pe].guard.id);
      todo.push_back(p_.orders[pe].before);
    }
  }
}

bool ReferenceMustOrder::covers_all(uint32_t op, uint64_t lo, uint64_t hi) const {
  const Coverage& c = p_.cache_ops[op].cov;
  switch (c.kind) {
    case Coverage::Kind::All:
      return true;
    case Coverage::Kind::Range:
      return c.lo <= lo && hi <= c.hi;
    case Coverage::Kind::Margin:
      // Unit by unit: a margin covers at most four units, so this stops early.
      for (uint64_t u = lo; u <= hi; ++u)
        if (!c.covers(u)) return false;
      return true;
    case Coverage::Kind::Nothing:
      return false;
  }
  return false;
}

// An invalidation of the GL2 step carries the data when it writes back under A-GL2-WB-BEFORE-INV,
// or when every mate touching the lines is surely after it or surely in memory before it.
bool ReferenceMustOrder::gl2_open(const properties::Freshness& f, uint32_t op, uint64_t lo,
                                  uint64_t hi, std::set<AssumptionId>* used) {
  const CacheOp& c = p_.cache_ops[op];
  std::set<AssumptionId> mates;
  bool clean = true;
  const MemAccess& w = p_.accesses[f.write];
  auto same_path = [](const Path& a, const Path& b) {
    if (a.size != b.size) return false;
    for (int i = 0; i < a.size; ++i)
      if (a[i] != b[i]) return false;
    return true;
  };
  for (const properties::LineMate& m : f.mates) {
    if (m.hi < lo || hi < m.lo) continue;
    const EventId arrive = p_.accesses[m.access].arrive;
    // Down the write's own path and before it: in memory no later than the write.
    if (same_path(p_.accesses[m.access].path, w.path) && reaches(arrive, w.arrive)) {
      guards_on_path(arrive, w.arrive, &mates);
      continue;
    }
    if (reaches(c.ev, arrive)) {
      guards_on_path(c.ev, arrive, &mates);
      continue;
    }
    std::vector<EventId> pts;
    const auto end =
        chain(arrive, m.steps.items(), 0, std::max(lo, m.lo), std::min(hi, m.hi), c.ev, &pts);
    if (!end || *end == c.ev) {  // written back by this very operation: not before it
      clean = false;
      break;
    }
    pts.push_back(c.ev);
    for (size_t i = 0; i + 1 < pts.size(); ++i) guards_on_path(pts[i], pts[i + 1], &mates);
  }
  if (clean) {
    used->insert(mates.begin(), mates.end());
    return true;
  }
  if (c.writeback && properties::wb_inv_drops_dirty(p_, forbidden_)) {
    used->insert(AssumptionId::Gl2WbBeforeInv);
    return true;
  }
  return false;
}

std::optional<EventId> ReferenceMustOrder::chain(EventId start, const std::vector<Step>& steps,
                                                 size_t j, uint64_t lo, uint64_t hi, EventId target,
                                                 std::vector<EventId>* points,
                                                 const properties::Freshness* fresh,
                                                 std::set<AssumptionId>* extra) {
  points->push_back(start);
  if (j == steps.size()) {
    if (target == kNoEvent || reaches(start, target)) return start;
    points->pop_back();
    return std::nullopt;
  }
  // A step joining its down step (A-GL2-WB-BEFORE-INV): the operation that crossed that step
  // (the point `start`) crosses this one too. prove() sees the repeated point and reports the
  // assumption.
  if (j > 0 && joins_active(p_, steps[j], forbidden_)) {
    for (uint32_t oi : steps[j].ops)
      if (p_.cache_ops[oi].ev == start && covers_all(oi, lo, hi) &&
          std::find(steps[j - 1].ops.begin(), steps[j - 1].ops.end(), oi) !=
              steps[j - 1].ops.end()) {
        if (auto end = chain(start, steps, j + 1, lo, hi, target, points, fresh, extra)) return end;
        break;
      }
  }
  std::vector<std::pair<EventId, uint32_t>> cands;
  for (uint32_t oi : steps[j].ops)
    if (covers_all(oi, lo, hi) && reaches(start, p_.cache_ops[oi].ev))
      cands.push_back({p_.cache_ops[oi].ev, oi});
  // Operations created closest to the target first: usually the sync right before the reader.
  // Only candidates that can still reach the target count towards the search budget.
  std::sort(cands.begin(), cands.end(), std::greater<>());
  size_t tried = 0;
  for (auto [c, oi] : cands) {
    if (target != kNoEvent && !reaches(c, target)) continue;
    std::set<AssumptionId> bits;
    if (fresh && static_cast<int>(j) == fresh->gl2_up && !gl2_open(*fresh, oi, lo, hi, &bits))
      continue;
    if (auto end = chain(c, steps, j + 1, lo, hi, target, points, fresh, extra)) {
      if (extra) extra->insert(bits.begin(), bits.end());
      return end;
    }
    if (++tried == kCandidatesPerStep) break;
  }
  points->pop_back();
  return std::nullopt;
}

std::optional<std::set<AssumptionId>> ReferenceMustOrder::prove(const Obligation& o) {
  if (o.vacuous(p_, forbidden_)) return std::set<AssumptionId>{*o.only_without};
  std::vector<EventId> points;
  std::set<AssumptionId> used;
  // A chain of covering operations from `start` through `steps`, then on to `target`: proved,
  // with the assumptions guarding the paths between consecutive points.
  auto chain_to =
      [&](EventId start, const std::vector<Step>& steps, uint64_t lo, uint64_t hi, EventId target,
          const properties::Freshness* fresh = nullptr) -> std::optional<std::set<AssumptionId>> {
    if (!chain(start, steps, 0, lo, hi, target, &points, fresh, &used)) return std::nullopt;
    points.push_back(target);
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      if (i > 0 && points[i] == points[i + 1]) used.insert(AssumptionId::Gl2WbBeforeInv);
      guards_on_path(points[i], points[i + 1], &used);
    }
    return used;
  };
  switch (o.kind) {
    case Obligation::Kind::Fresh: {
      const MemAccess& w = p_.accesses[o.fresh.write];
      const MemAccess& r = p_.accesses[o.fresh.read];
      return chain_to(w.arrive, o.fresh.steps, o.fresh.lo, o.fresh.hi, r.ev, &o.fresh);
    }
    case Obligation::Kind::Ordered:
      for (EventId a : o.ordering.before)
        for (EventId b : o.ordering.after) {
          if (!reaches(a, b)) return std::nullopt;
          guards_on_path(a, b, &used);
        }
      return used;
    case Obligation::Kind::WriteOrder: {
      const MemAccess& w1 = p_.accesses[o.waw.first];
      const MemAccess& w2 = p_.accesses[o.waw.second];
      // The first write's data has crossed to the meeting level before the second one arrives
      // anywhere: F(first) <= t(last op) < t(arrive(second)) <= F(second).
      return chain_to(w1.arrive, o.waw.first_steps, o.waw.lo, o.waw.hi, w2.arrive);
    }
    case Obligation::Kind::ReadFirst: {
      // Any chain of the write's data starts after its arrival, so a read before the arrival
      // cannot see it.
      const MemAccess& r = p_.accesses[o.war.read];
      const MemAccess& w = p_.accesses[o.war.write];
      if (!reaches(r.ev, w.arrive)) return std::nullopt;
      guards_on_path(r.ev, w.arrive, &used);
      return used;
    }
    case Obligation::Kind::Race:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace syncproof::testing
