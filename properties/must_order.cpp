#include "properties/must_order.h"

#include <algorithm>
#include <deque>
#include <queue>

namespace syncproof::properties {

using namespace model;

namespace {
constexpr uint32_t kNoParent = UINT32_MAX;
constexpr uint32_t kViaWait = UINT32_MAX - 1;
constexpr uint32_t kGuarded = uint32_t{1} << 31;  // in out_: the order has a guard
constexpr size_t kCandidatesPerStep = 8;  // beyond this the solver decides (no loss of soundness)
// The searches kept for reuse, in bytes; past this the memo starts afresh (it only saves work:
// a search finds the same whenever it runs).
constexpr size_t kMemoBytes = size_t{256} << 20;

void csr(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
         std::vector<uint32_t>* start, std::vector<uint32_t>* out) {
  start->assign(n + 1, 0);
  for (const auto& e : edges) ++(*start)[e.first + 1];
  for (size_t i = 0; i < n; ++i) (*start)[i + 1] += (*start)[i];
  out->resize(edges.size());
  std::vector<uint32_t> at(start->begin(), start->end() - 1);
  for (const auto& e : edges) (*out)[at[e.first]++] = e.second;  // keeps the edges' order
}

}  // namespace

MustOrder::MustOrder(const LoweredProgram& p) : p_(p) {
  const size_t n = p.events.size();
  std::vector<std::pair<uint32_t, uint32_t>> out, feeds, rules;
  for (uint32_t i = 0; i < p.orders.size(); ++i) out.push_back({p.orders[i].before, i});
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    rules.push_back({r.wait, w});
    if (!(r.initial.can_sat || r.candidates.empty()))
      for (EventId c : r.candidates) feeds.push_back({c, w});
  }
  csr(n, out, &out_start_, &out_);
  out_after_.resize(out_.size());
  for (uint32_t i = 0; i < out_.size(); ++i) {
    out_after_[i] = p.orders[out_[i]].after;
    if (p.orders[out_[i]].guard.id) out_[i] |= kGuarded;
  }
  for (const WaitRule& r : p.waits)
    need_.push_back(static_cast<uint32_t>(r.candidates.size())), wait_of_.push_back(r.wait);
  csr(n, feeds, &feed_start_, &feed_);
  csr(n, rules, &rule_start_, &rule_);
  visited_.assign(n, 0);
  // Positions: the order in which events complete when an event completes once everything
  // ordered before it has and, for each wait rule it has that orders anything, one of the rule's
  // candidates has (taking the ready event least far along its queue). Whatever a search from a
  // reaches completes after a there (a wait after the candidate its rule waited for, and that one
  // is a or reached from a), and whatever it reaches from an event that never completes never
  // completes either; so an event that completes no later than a is out of a's reach.
  std::vector<uint32_t> missing(n, 0);
  for (const Order& o : p.orders) ++missing[o.after];
  std::vector<std::pair<uint32_t, uint32_t>> succ, rule_of;
  for (const Order& o : p.orders) succ.push_back({o.before, o.after});
  std::vector<uint8_t> rule_done(p.waits.size(), 1);
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    if (r.initial.can_sat || r.candidates.empty()) continue;
    ++missing[r.wait], rule_done[w] = 0;
    for (EventId c : r.candidates) rule_of.push_back({c, w});
  }
  std::vector<uint32_t> succ_start, succ_to, rof_start, rof;
  csr(n, succ, &succ_start, &succ_to);
  csr(n, rule_of, &rof_start, &rof);
  auto progress = [&](EventId e) {
    const Event& ev = p.events[e];
    const size_t len = ev.queue < p.commands.size() ? p.commands[ev.queue].size() : 0;
    return len ? (uint64_t{ev.cmd} << 32) / len : 0;
  };
  using Key = std::pair<uint64_t, EventId>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  for (EventId e = 0; e < n; ++e)
    if (!missing[e]) ready.push({progress(e), e});
  pos_.assign(n, kNever);
  uint32_t next = 0;
  auto complete_one = [&](EventId v) {
    if (--missing[v] == 0) ready.push({progress(v), v});
  };
  while (!ready.empty()) {
    const EventId e = ready.top().second;
    ready.pop();
    pos_[e] = next++;
    for (uint32_t i = succ_start[e]; i < succ_start[e + 1]; ++i) complete_one(succ_to[i]);
    for (uint32_t i = rof_start[e]; i < rof_start[e + 1]; ++i)
      if (!rule_done[rof[i]]) rule_done[rof[i]] = 1, complete_one(p.waits[rof[i]].wait);
  }
}

// 0-1 BFS from `src`: guarded orders cost 1, so the path found to each event uses as few
// assumption-guarded orders as the search can find. A wait is reached once every candidate is
// reached (or is `src`): then it is after `src` in every execution. Run lazily: an event's parent
// is final once it is found, so the search stops as soon as the event asked about is found, and
// goes on from there when asked about one it has not found yet.
MustOrder::Reach::Reach(EventId src, size_t events, size_t waits)
    : parent(events, kNoParent), count(waits, 0), queue{src}, src(src) {}

void MustOrder::advance(Reach& r, EventId until) {
  while (r.parent[until] == kNoParent && !r.queue.empty()) {
    EventId u = r.queue.front();
    r.queue.pop_front();
    // An event is queued once, when found; only the source can be queued again (on a cycle).
    if (u == r.src) {
      if (r.src_done) continue;
      r.src_done = true;
    }
    for (uint32_t i = out_start_[u]; i < out_start_[u + 1]; ++i) {
      const EventId v = out_after_[i];
      if (r.parent[v] != kNoParent) continue;
      r.parent[v] = out_[i] & ~kGuarded;
      if (out_[i] & kGuarded)
        r.queue.push_back(v);
      else
        r.queue.push_front(v);
    }
    for (uint32_t i = feed_start_[u]; i < feed_start_[u + 1]; ++i) {
      const uint32_t w = feed_[i];
      if (need_[w] > 1 && ++r.count[w] != need_[w]) continue;
      const EventId v = wait_of_[w];
      if (r.parent[v] == kNoParent) r.parent[v] = kViaWait, r.queue.push_back(v);
    }
  }
}

MustOrder::Reach& MustOrder::from(EventId src) {
  auto it = memo_.find(src);
  if (it != memo_.end()) return it->second;
  const size_t size = (p_.events.size() + p_.waits.size()) * 4;
  if (memo_bytes_ + size > kMemoBytes) memo_.clear(), memo_bytes_ = 0;
  memo_bytes_ += size;
  ++searches_;
  return memo_.try_emplace(src, src, p_.events.size(), p_.waits.size()).first->second;
}

bool MustOrder::reaches(EventId a, EventId b) {
  if (out_of_reach(a, b)) return false;
  Reach& r = from(a);
  advance(r, b);
  return r.parent[b] != kNoParent;
}

void MustOrder::guards_on_path(EventId a, EventId b, std::set<AssumptionId>* out) {
  Reach& r = from(a);
  if (++epoch_ == 0) std::fill(visited_.begin(), visited_.end(), 0), epoch_ = 1;
  std::vector<EventId> todo{b};
  while (!todo.empty()) {
    EventId v = todo.back();
    todo.pop_back();
    if (v == a || visited_[v] == epoch_) continue;
    visited_[v] = epoch_;
    advance(r, v);
    uint32_t pe = r.parent[v];
    if (pe == kViaWait) {
      for (uint32_t i = rule_start_[v]; i < rule_start_[v + 1]; ++i) {
        const WaitRule& w = p_.waits[rule_[i]];
        if (!w.zero_satisfies) out->insert(AssumptionId::InitialZero);
        // Candidates that a value assumption narrows (model/wait_value.h).
        for (int a = 0; a < kAssumptionCount; ++a)
          if (w.value_depends & (1u << a)) out->insert(static_cast<AssumptionId>(a));
        for (EventId c : w.candidates) todo.push_back(c);
      }
    } else if (pe != kNoParent) {
      if (p_.orders[pe].guard.id) out->insert(*p_.orders[pe].guard.id);
      todo.push_back(p_.orders[pe].before);
    }
  }
}

bool MustOrder::covers_all(uint32_t op, uint64_t lo, uint64_t hi) const {
  const Coverage& c = p_.cache_ops[op].cov;
  switch (c.kind) {
    case Coverage::Kind::All:
      return true;
    case Coverage::Kind::Range:
      return c.lo <= lo && hi <= c.hi;
    case Coverage::Kind::Margin:
      return hi - lo <= 1 && (lo == c.lo || lo == c.hi) && (hi == c.lo || hi == c.hi);
    case Coverage::Kind::Nothing:
      return false;
  }
  return false;
}

std::optional<EventId> MustOrder::chain(EventId start, const std::vector<Step>& steps, size_t j,
                                        uint64_t lo, uint64_t hi, EventId target,
                                        std::vector<EventId>* points) {
  points->push_back(start);
  if (j == steps.size()) {
    if (target == kNoEvent || reaches(start, target)) return start;
    points->pop_back();
    return std::nullopt;
  }
  // A step joining its down step (A-GL2-WB-BEFORE-INV): the operation that crossed that step
  // (the point `start`) crosses this one too. prove() sees the repeated point and reports the
  // assumption.
  if (j > 0 && joins_active(p_, steps[j])) {
    for (uint32_t oi : steps[j].ops)
      if (p_.cache_ops[oi].ev == start && covers_all(oi, lo, hi) &&
          std::find(steps[j - 1].ops.begin(), steps[j - 1].ops.end(), oi) !=
              steps[j - 1].ops.end()) {
        if (auto end = chain(start, steps, j + 1, lo, hi, target, points)) return end;
        break;
      }
  }
  std::vector<EventId> cands;
  for (uint32_t oi : steps[j].ops) {
    const EventId ev = p_.cache_ops[oi].ev;
    // One at or past the target cannot reach it: the loop below would pass it over uncounted.
    if (target != kNoEvent && out_of_reach(ev, target)) continue;
    if (covers_all(oi, lo, hi) && reaches(start, ev)) cands.push_back(ev);
  }
  // Operations created closest to the target first: usually the sync right before the reader.
  // Only candidates that can still reach the target count towards the search budget.
  std::sort(cands.begin(), cands.end(), std::greater<>());
  size_t tried = 0;
  for (EventId c : cands) {
    if (target != kNoEvent && !reaches(c, target)) continue;
    if (auto end = chain(c, steps, j + 1, lo, hi, target, points)) return end;
    if (++tried == kCandidatesPerStep) break;
  }
  points->pop_back();
  return std::nullopt;
}

std::optional<std::set<AssumptionId>> MustOrder::prove(const Obligation& o) {
  std::vector<EventId> points;
  std::set<AssumptionId> used;
  // A chain of covering operations from `start` through `steps`, then on to `target`: proved,
  // with the assumptions guarding the paths between consecutive points.
  auto chain_to = [&](EventId start, const std::vector<Step>& steps, uint64_t lo, uint64_t hi,
                      EventId target) -> std::optional<std::set<AssumptionId>> {
    if (!chain(start, steps, 0, lo, hi, target, &points)) return std::nullopt;
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
      return chain_to(w.arrive, o.fresh.steps, o.fresh.lo, o.fresh.hi, r.ev);
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

bool all_waits_monotone(const LoweredProgram& p, bool deadlock_rules) {
  return std::all_of(p.waits.begin(), p.waits.end(), [&](const WaitRule& w) {
    return deadlock_rules ? w.deadlock_monotone() : w.monotone;
  });
}

bool all_can_complete(const LoweredProgram& p, bool deadlock_rules) {
  const size_t n = p.events.size();
  std::vector<uint32_t> missing(n, 0);  // orders still to complete before the event
  std::vector<std::vector<uint32_t>> waits_on(n);
  std::vector<uint8_t> wait_needs(n, 0);  // the event is a wait still needing a candidate
  for (const Order& o : p.orders) ++missing[o.after];
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    // Safety: a wait whose initial poll may pass may complete at any time; deadlock freedom:
    // only one whose initial poll must pass can be relied on to complete without a write.
    const bool exempt = deadlock_rules ? !r.initial.can_fail : r.initial.can_sat;
    if (exempt) continue;
    wait_needs[r.wait] = 1;
    for (EventId c : deadlock_rules ? r.must_candidates : r.candidates)
      waits_on[c].push_back(r.wait);
  }
  std::vector<std::vector<EventId>> succ(n);
  for (const Order& o : p.orders) succ[o.before].push_back(o.after);
  std::vector<EventId> ready;
  for (EventId e = 0; e < n; ++e)
    if (!missing[e] && !wait_needs[e]) ready.push_back(e);
  std::vector<uint8_t> done(n, 0);
  size_t completed = 0;
  while (!ready.empty()) {
    EventId e = ready.back();
    ready.pop_back();
    if (done[e]) continue;
    done[e] = 1, ++completed;
    for (EventId v : succ[e])
      if (--missing[v] == 0 && !wait_needs[v]) ready.push_back(v);
    for (EventId w : waits_on[e])
      if (wait_needs[w]) {
        wait_needs[w] = 0;
        if (!missing[w]) ready.push_back(w);
      }
  }
  return completed == n;
}

}  // namespace syncproof::properties
