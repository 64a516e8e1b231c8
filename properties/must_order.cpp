#include "properties/must_order.h"

#include <algorithm>
#include <bit>
#include <map>
#include <tuple>

namespace syncproof::properties {

using namespace model;

namespace {
constexpr size_t kCandidatesPerStep = 8;  // beyond this the solver decides (no loss of soundness)
// Searches without some assumptions, for dropping them from lists; past this many, a list keeps
// what it has (longer, still sufficient).
constexpr size_t kWithout = 32;
// Each one's memo, in bytes. Their searches share a budget of pops, and a memo that starts afresh
// spends it again: the size is part of what they find, so it stays what it was when it was a
// share of the main search's memo (256 MB / 64).
constexpr size_t kWithoutMemoBytes = size_t{4} << 20;

}  // namespace

namespace {

// std::popcount without the POPCNT instruction, which the portable x86-64 target lacks: there
// GCC calls libgcc's __popcountdi2, and fewer() asked it for 4% of the SMT engine's time on the
// 50,000-command frame.
constexpr int bit_count(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return static_cast<int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static_assert(bit_count(0) == 0 && bit_count(0xFFFFFFFFu) == 32 && bit_count(0x80000001u) == 2);

}  // namespace

inline bool MustOrder::fewer(uint32_t a, uint32_t b) {
  return b == kUnreached || bit_count(a) < bit_count(b);
}

// The search from `src` takes events in search order; when it takes one, every edge into it from
// an event the search has reached is in, so its best path is final. A wait's rule holds once each
// essential candidate is reached (or is `src`); the rule's own assumptions join theirs.
void MustOrder::advance(Reach& r, EventId until) {
  const uint32_t limit = spos_[until] - r.base;
  auto grow = [&](uint32_t at) {
    if (at < r.mask.size()) return;
    const size_t size = std::min(std::max<size_t>(at + 1, 2 * r.mask.size()), at_.size() - r.base);
    // Counted at 5 bytes a position, what the memo's limits were set for (a state byte beside
    // the mask then): when the memo starts afresh decides what a budgeted search finds.
    memo_bytes_ += (size - r.mask.size()) * 5;
    r.mask.resize(size, kUnreached), r.queued.resize((size + 63) / 64, 0);
  };
  for (;;) {
    // The least position queued (at or past r.next).
    size_t w = r.next / 64;
    if (w >= r.queued.size()) return;
    uint64_t word = r.queued[w] & (~uint64_t{0} << (r.next % 64));
    while (word == 0) {
      if (++w == r.queued.size()) {
        r.next = static_cast<uint32_t>(w * 64);
        return;
      }
      word = r.queued[w];
    }
    const auto o = static_cast<uint32_t>(w * 64 + static_cast<size_t>(std::countr_zero(word)));
    r.next = o;
    if (o > limit) return;
    if (budget_) {
      if (*budget_ == 0) return;  // "not reached" from here on: fewer proofs, none wrong
      --*budget_;
    }
    r.queued[w] &= ~(uint64_t{1} << (o % 64));
    r.next = o + 1;
    ++pops_;
    const uint32_t x = r.base + o;
    if (o != 0)
      for (uint32_t i = wait_start_[x]; i < wait_start_[x + 1]; ++i) {
        const uint32_t w = wait_rules_[i];
        uint32_t m = rule_mask_[w];
        for (uint32_t k = ess_start_[w]; k < ess_start_[w + 1] && m != kUnreached; ++k) {
          const uint32_t s = ess_pos_[k];
          m = s < r.base || s - r.base >= o || r.mask[s - r.base] == kUnreached
                  ? kUnreached
                  : m | r.mask[s - r.base];
        }
        if (m != kUnreached && fewer(m, r.mask[o])) r.mask[o] = m;
      }
    const uint32_t mu = r.mask[o];
    if (mu == kUnreached) continue;
    // Every arc goes forward in search order (ov > o): a position is queued again at most,
    // never after it was taken.
    for (uint32_t i = arc_start_[x]; i < arc_start_[x + 1]; ++i) {
      const Arc a = arcs_[i];
      const uint32_t ov = a.to - r.base;
      grow(ov);
      if (a.mask != kFeed && fewer(mu | a.mask, r.mask[ov])) r.mask[ov] = mu | a.mask;
      r.queued[ov / 64] |= uint64_t{1} << (ov % 64);
    }
  }
}

MustOrder::Reach& MustOrder::from(EventId src) {
  auto it = memo_.find(src);
  if (it != memo_.end()) return it->second;
  if (memo_bytes_ > memo_limit_) memo_.clear(), memo_bytes_ = 0;
  ++searches_;
  Reach& r = memo_[src];
  r.base = spos_[src], r.mask = {0}, r.queued = {1}, r.next = 0;
  memo_bytes_ += 64;
  return r;
}

bool MustOrder::free_path(EventId a, EventId b) {
  if (a == b) return true;
  if (starved_ || out_of_reach(a, b) || spos_[b] <= spos_[a]) return false;
  Reach& r = from(a);
  advance(r, b);
  const uint32_t ob = spos_[b] - r.base;
  return ob < r.mask.size() && r.mask[ob] == 0;
}

void MustOrder::build_hubs() {
  hubs_built_ = true;
  const size_t nq = p_.commands.size();
  hubs_.assign(nq, {}), hub_of_.assign(nq, {}), broken_.assign(nq, {});
  for (size_t q = 0; q < nq; ++q) {
    hub_of_[q].assign(p_.commands[q].size(), kNoHub);
    for (size_t k = 0; k < p_.commands[q].size(); ++k) {
      const EventId me = p_.commands[q][k].me;
      if (me == kNoEvent || p_.events[me].queue != q || p_.events[me].cmd != k) continue;
      hub_of_[q][k] = static_cast<uint32_t>(hubs_[q].size());
      hubs_[q].push_back(me);
    }
    // A link is a guard-free order straight from one hub to the next (the ME's queue order), or
    // else a guard-free path the search finds (a wait's resume in between).
    std::vector<uint32_t>& br = broken_[q];
    br.assign(hubs_[q].size(), 0);
    for (size_t i = 0; i + 1 < hubs_[q].size(); ++i) {
      const EventId h = hubs_[q][i], next = hubs_[q][i + 1];
      bool linked = false;
      for (uint32_t e = out_start_[h]; e < out_start_[h + 1] && !linked; ++e)
        linked = out_after_[e] == next && out_mask_[e] == 0;
      if (!linked) linked = free_path(h, next);
      br[i + 1] = br[i] + !linked;
    }
    // The scan below looks hubs up by search position: a queue whose hubs are not in search order
    // (not expected: its ME steps are ordered) gets none.
    for (size_t i = 0; i + 1 < hubs_[q].size(); ++i)
      if (spos_[hubs_[q][i]] >= spos_[hubs_[q][i + 1]]) {
        hubs_[q].clear(), hub_of_[q].assign(hub_of_[q].size(), kNoHub);
        break;
      }
  }
}

// A shortcut for far questions, giving the search's own answer: a ~> b with no guard when a
// reaches some hub (ME step) h_i of b's queue without guards, the hubs h_i .. h_k are chained
// without guards, and h_k, the hub of b's own command, reaches b without guards. Paths compose
// (each edge is a strict order), so the search from a would find a guard-free path to b too, and
// since it keeps the path with the fewest assumptions, it would report exactly no assumption:
// reaches() and guards() answer as the search would, only without walking everything between a
// and b (a line mate far along the frame is otherwise a search across the whole frame, for every
// obligation). Not used in the searches with a budget (build() and without()): there a search
// may stop short where this finds a path, and those answer as before.
bool MustOrder::reach_free(EventId a, EventId b) {
  if (budget_) return false;
  if (!hubs_built_) build_hubs();
  const Event& eb = p_.events[b];
  if (eb.queue >= hubs_.size() || eb.cmd >= hub_of_[eb.queue].size()) return false;
  const uint32_t q = eb.queue, k = hub_of_[q][eb.cmd];
  if (k == kNoHub) return false;
  const std::vector<EventId>& hubs = hubs_[q];
  // Only worth it when a is before b's hub; b itself is usually a few events past it.
  if (spos_[hubs[k]] <= spos_[a] || !free_path(hubs[k], b)) return false;
  if (hub_scan_.size() <= q) hub_scan_.resize(q + 1);
  if (hub_scan_[q].empty()) hub_scan_[q].assign(p_.events.size(), kHubUnscanned);
  uint32_t& s = hub_scan_[q][a];
  if (s == kHubUnscanned) {
    // Hubs are chained, so in search order; the first after a (search order).
    s = static_cast<uint32_t>(
        std::upper_bound(hubs.begin(), hubs.end(), spos_[a],
                         [&](uint32_t at, EventId h) { return at < spos_[h]; }) -
        hubs.begin());
  }
  while (!(s & kHubFound) && s <= k) {
    if (free_path(a, hubs[s]))
      s |= kHubFound;
    else
      ++s;
  }
  const uint32_t next = s & ~kHubFound;
  return (s & kHubFound) && next <= k && broken_[q][next] == broken_[q][k];
}

bool MustOrder::reaches(EventId a, EventId b) {
  if (starved_ || out_of_reach(a, b) || spos_[b] <= spos_[a]) return false;
  if (reach_free(a, b)) return true;
  Reach& r = from(a);
  advance(r, b);
  const uint32_t ob = spos_[b] - r.base;
  return ob < r.mask.size() && r.mask[ob] != kUnreached;
}

uint32_t MustOrder::guards(EventId a, EventId b) {
  if (a == b || reach_free(a, b)) return 0;
  if (starved_) return kUnreached;  // not reached (callers ask only of reached events)
  Reach& r = from(a);
  advance(r, b);
  return r.mask[spos_[b] - r.base];
}

const std::vector<std::pair<uint32_t, uint32_t>>& MustOrder::ops_by_pos(const OpList& ops) {
  auto [it, fresh] = ops_by_pos_.try_emplace(ops.id());
  if (fresh) {
    it->second.first = ops;  // keeps the list, and so its address, alive
    for (uint32_t oi : ops) it->second.second.push_back({pos_[p_.cache_ops[oi].ev], oi});
    std::sort(it->second.second.begin(), it->second.second.end());
  }
  return it->second.second;
}

bool MustOrder::covers_all(uint32_t op, uint64_t lo, uint64_t hi) const {
  return p_.cache_ops[op].cov.covers_all(lo, hi);
}

std::optional<EventId> MustOrder::chain(EventId start, const std::vector<Step>& steps, size_t j,
                                        uint64_t lo, uint64_t hi, EventId target,
                                        std::vector<EventId>* points, const Freshness* fresh,
                                        uint32_t* extra) {
  points->push_back(start);
  if (j == steps.size()) {
    if (target == kNoEvent || reaches(start, target)) return start;
    points->pop_back();
    return std::nullopt;
  }
  // A step joining its down step (A-GL2-WB-BEFORE-INV): the operation that crossed that step
  // (the point `start`) crosses this one too. prove() sees the repeated point and reports the
  // assumption.
  // Only operations that complete after `start` and before `target` can be reached from one and
  // reach the other (out_of_reach), and the step's operations are kept by completion position.
  const std::vector<std::pair<uint32_t, uint32_t>>& ops = ops_by_pos(steps[j].ops);
  auto from_pos = [&](uint32_t pos) {
    return std::lower_bound(ops.begin(), ops.end(), std::pair<uint32_t, uint32_t>{pos, 0});
  };
  if (j > 0 && joins_active(p_, steps[j], forbidden_)) {
    for (auto it = from_pos(pos_[start]); it != ops.end() && it->first == pos_[start]; ++it) {
      const uint32_t oi = it->second;
      if (p_.cache_ops[oi].ev == start && covers_all(oi, lo, hi) &&
          std::find(steps[j - 1].ops.begin(), steps[j - 1].ops.end(), oi) !=
              steps[j - 1].ops.end()) {
        if (auto end = chain(start, steps, j + 1, lo, hi, target, points, fresh, extra)) return end;
        break;
      }
    }
  }
  std::vector<std::pair<EventId, uint32_t>> cands;  // (event, operation)
  const uint32_t first = pos_[start] == kNever ? kNever : pos_[start] + 1;
  for (auto it = from_pos(first); it != ops.end(); ++it) {
    const EventId ev = p_.cache_ops[it->second].ev;
    // One at or past the target cannot reach it: the loop below would pass it over uncounted.
    if (target != kNoEvent && out_of_reach(ev, target)) break;
    if (covers_all(it->second, lo, hi) && reaches(start, ev)) cands.push_back({ev, it->second});
  }
  // Operations created closest to the target first: usually the sync right before the reader.
  // Only candidates that can still reach the target count towards the search budget.
  std::sort(cands.begin(), cands.end(), std::greater<>());
  const bool gl2_step = fresh && static_cast<int>(j) == fresh->gl2_up;
  size_t tried = 0;
  for (auto [c, oi] : cands) {
    if (target != kNoEvent && !reaches(c, target)) continue;
    uint32_t bits = 0;
    if (gl2_step && !gl2_open(*fresh, oi, lo, hi, &bits)) continue;
    if (auto end = chain(c, steps, j + 1, lo, hi, target, points, fresh, extra)) {
      if (extra) *extra |= bits;
      return end;
    }
    if (++tried == kCandidatesPerStep) break;
  }
  points->pop_back();
  return std::nullopt;
}

std::optional<uint32_t> MustOrder::paths(const Obligation& o) {
  if (o.vacuous(p_, forbidden_)) return bit(*o.only_without);
  std::vector<EventId> points;
  uint32_t used = 0;
  auto add = [&](uint32_t mask) { used |= mask; };
  // A chain of covering operations from `start` through `steps`, then on to `target`: proved,
  // with the assumptions guarding the paths between consecutive points.
  auto chain_to = [&](EventId start, const std::vector<Step>& steps, uint64_t lo, uint64_t hi,
                      EventId target, const Freshness* fresh = nullptr) -> std::optional<uint32_t> {
    if (!chain(start, steps, 0, lo, hi, target, &points, fresh, &used)) return std::nullopt;
    points.push_back(target);
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      if (i > 0 && points[i] == points[i + 1]) used |= bit(AssumptionId::Gl2WbBeforeInv);
      add(guards(points[i], points[i + 1]));
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
          add(guards(a, b));
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
      add(guards(r.ev, w.arrive));
      return used;
    }
    case Obligation::Kind::Race:
      return std::nullopt;
  }
  return std::nullopt;
}

MustOrder* MustOrder::without(uint32_t forbidden) {
  auto it = without_.find(forbidden);
  if (it != without_.end()) return it->second.get();
  if (without_.size() == kWithout) return nullptr;
  if (without_.empty()) spare_pops_ = kSparePops * p_.events.size();
  auto m = std::unique_ptr<MustOrder>(
      new MustOrder(p_, forbidden, positions_, edges_, kWithoutMemoBytes, &spare_pops_, tails_));
  return without_.emplace(forbidden, std::move(m)).first->second.get();
}

std::optional<std::set<AssumptionId>> MustOrder::prove(const Obligation& o) {
  const std::optional<uint32_t> used = paths(o);
  if (!used) return std::nullopt;
  return assumption_set(*used);
}

uint32_t MustOrder::minimize(const std::vector<const Obligation*>& obs,
                             std::vector<uint32_t>* masks) {
  uint32_t all = 0;
  for (uint32_t m : *masks) all |= m;
  // A proof found without one assumption may use another one not tried yet: passes until none
  // is dropped (each assumption is dropped at most once). A failed try stops at the first
  // obligation it cannot prove.
  uint32_t dropped = 0, kept = 0;
  for (bool again = true; again;) {
    again = false;
    for (int a = 0; a < kAssumptionCount; ++a) {
      const uint32_t b = bit(static_cast<AssumptionId>(a));
      // Needed once, not tried again: with more dropped, a search has fewer paths.
      if (!(all & b) || (kept & b)) continue;
      MustOrder* m = without(forbidden_ | dropped | b);
      if (!m) continue;
      std::vector<uint32_t> trial = *masks;
      bool ok = true;
      for (size_t i = 0; i < obs.size() && ok; ++i) {
        if (!(trial[i] & b)) continue;
        const std::optional<uint32_t> fewer = m->paths(*obs[i]);
        ok = fewer.has_value();
        if (ok) trial[i] = *fewer;
      }
      if (!ok) {
        kept |= b;
        continue;
      }
      *masks = std::move(trial), dropped |= b, again = true;
      all = 0;
      for (uint32_t mk : *masks) all |= mk;
    }
  }
  return all;
}

std::set<AssumptionId> assumption_set(uint32_t mask) {
  std::set<AssumptionId> out;
  for (int a = 0; a < kAssumptionCount; ++a)
    if (mask & (uint32_t{1} << a)) out.insert(static_cast<AssumptionId>(a));
  return out;
}

}  // namespace syncproof::properties
