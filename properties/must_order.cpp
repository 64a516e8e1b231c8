#include "properties/must_order.h"

#include <algorithm>
#include <bit>
#include <deque>
#include <queue>

namespace syncproof::properties {

using namespace model;

namespace {
constexpr uint32_t kUnreached = UINT32_MAX;  // in Reach::mask
constexpr size_t kCandidatesPerStep = 8;  // beyond this the solver decides (no loss of soundness)
// The searches kept for reuse, in bytes; past this the memo starts afresh (it only saves work:
// a search finds the same whenever it runs).
constexpr size_t kMemoBytes = size_t{256} << 20;
// How far the search for a candidate implied by another may go; past it the candidate counts as
// essential (a stricter rule: fewer paths, never a wrong one).
constexpr uint32_t kImplyPops = uint32_t{1} << 14;
// Searches without some assumptions, for dropping them from lists; past this many, a list keeps
// what it has (longer, still sufficient). They share the memo's budget.
constexpr size_t kWithout = 32;
// What the searches without some assumptions may take from their queues in all, per event of the
// program (so minimizing lists costs at most linear time); past it they find nothing more and a
// list keeps what it has.
constexpr uint64_t kSparePops = 64;
// Rounds of dropping candidates a wait is before (MustOrder::build).
constexpr int kRounds = 64;

void csr(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
         std::vector<uint32_t>* start, std::vector<uint32_t>* out) {
  start->assign(n + 1, 0);
  for (const auto& e : edges) ++(*start)[e.first + 1];
  for (size_t i = 0; i < n; ++i) (*start)[i + 1] += (*start)[i];
  out->resize(edges.size());
  std::vector<uint32_t> at(start->begin(), start->end() - 1);
  for (const auto& e : edges) (*out)[at[e.first]++] = e.second;  // keeps the edges' order
}

uint32_t bit(AssumptionId a) {
  return uint32_t{1} << static_cast<int>(a);
}

bool fewer(uint32_t a, uint32_t b) {
  return b == kUnreached || std::popcount(a) < std::popcount(b);
}

}  // namespace

MustOrder::MustOrder(const LoweredProgram& p, bool tails)
    : p_(p), tails_(tails), memo_limit_(kMemoBytes) {
  const size_t n = p.events.size();
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
  build();
}

MustOrder::MustOrder(const LoweredProgram& p, uint32_t forbidden, std::vector<uint32_t> pos,
                     size_t memo_bytes, uint64_t* budget, bool tails)
    : p_(p),
      forbidden_(forbidden),
      tails_(tails),
      memo_limit_(memo_bytes),
      budget_(budget),
      pos_(std::move(pos)) {
  build();
}

void MustOrder::build() {
  const LoweredProgram& p = p_;
  const size_t n = p.events.size();
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t i = 0; i < p.orders.size(); ++i) {
    const Guard& g = p.orders[i].guard;
    if (!(g.id && (forbidden_ & bit(*g.id)))) out.push_back({p.orders[i].before, i});
  }
  std::vector<uint32_t> order_of;
  csr(n, out, &out_start_, &order_of);
  out_after_.resize(order_of.size()), out_mask_.resize(order_of.size());
  for (uint32_t i = 0; i < order_of.size(); ++i) {
    const Order& o = p.orders[order_of[i]];
    out_after_[i] = o.after;
    out_mask_[i] = o.guard.id ? bit(*o.guard.id) : 0;
  }
  active_.assign(p.waits.size(), {});
  after_mask_.assign(p.waits.size(), 0);
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    const uint32_t rests =
        r.value_depends | (r.zero_satisfies ? 0 : bit(AssumptionId::InitialZero));
    if (r.initial.can_sat || r.candidates.empty() || (rests & forbidden_)) continue;
    active_[w] = r.candidates;
    auto by_pos = [&](EventId a, EventId b) { return completes_before(a, b); };
    // Usually sorted already (a fence's signals in queue order): checked in linear time.
    if (!std::is_sorted(active_[w].begin(), active_[w].end(), by_pos))
      std::sort(active_[w].begin(), active_[w].end(), by_pos);
    active_[w].erase(std::unique(active_[w].begin(), active_[w].end()), active_[w].end());
  }
  // Rounds of dropping, from each rule caught in a cycle, the candidates its wait is before (see
  // the header). Their searches share a budget, as those of the searches without assumptions do.
  uint64_t round_pops = kSparePops * n;
  uint64_t* const budget = budget_;
  if (!budget_) budget_ = &round_pops;
  for (int round = 0;; ++round) {
    essentials(p);
    search_order(p);
    std::vector<std::pair<uint32_t, uint32_t>> feeds, rules;
    for (uint32_t w = 0; w < p.waits.size(); ++w) {
      if (!rule_used_[w]) continue;
      rules.push_back({p.waits[w].wait, w});
      for (uint32_t i = ess_start_[w]; i < ess_start_[w + 1]; ++i) feeds.push_back({ess_[i], w});
    }
    csr(n, feeds, &feed_start_, &feed_);
    csr(n, rules, &rule_start_, &rule_);
    if (round == kRounds) break;
    bool dropped = false;
    for (uint32_t w = 0; w < p.waits.size(); ++w) {
      if (!cyclic_[w]) continue;
      const EventId v = p.waits[w].wait;
      std::vector<EventId> keep;
      for (EventId c : active_[w])
        if (reaches(v, c))
          after_mask_[w] |= guards(v, c), dropped = true;
        else
          keep.push_back(c);
      active_[w] = std::move(keep);
    }
    memo_.clear(), memo_bytes_ = 0;
    if (!dropped) break;
  }
  budget_ = budget;
}

// Each rule's essential candidates, in completion order: one reached from the previous candidate
// (or the last essential one) along orders is implied, and the guards of that path join the
// rule's assumptions, with those of using the rule at all (the initial value, and the value
// assumptions that narrow the candidates: model/wait_value.h).
void MustOrder::essentials(const LoweredProgram& p) {
  const size_t n = p.events.size();
  std::vector<uint32_t> seen(n, 0), via(n, 0), from_ev(n, 0);
  uint32_t epoch = 0;
  auto imply = [&](EventId x, EventId y) -> uint32_t {
    auto [it, fresh] = implied_.try_emplace((uint64_t{x} << 32) | y, kUnreached);
    if (!fresh) return it->second;
    const uint32_t bound = pos_[y];
    std::deque<EventId> queue{x};
    ++epoch;
    seen[x] = epoch;
    for (uint32_t pops = 0; !queue.empty() && pops < kImplyPops; ++pops) {
      const EventId u = queue.front();
      queue.pop_front();
      if (u == y) {
        uint32_t m = 0;
        for (EventId v = y; v != x; v = from_ev[v]) m |= via[v];
        return it->second = m;
      }
      for (uint32_t i = out_start_[u]; i < out_start_[u + 1]; ++i) {
        const EventId v = out_after_[i];
        if (seen[v] == epoch || (bound != kNever && pos_[v] > bound)) continue;
        seen[v] = epoch, via[v] = out_mask_[i], from_ev[v] = u;
        out_mask_[i] ? queue.push_back(v) : queue.push_front(v);
      }
    }
    return kUnreached;
  };
  // The waits on one fence or word for ever higher values list ever shorter tails of its writers
  // in position order. For a tail whose every candidate is implied by the one before it, the loop
  // below keeps the first and adds the guards of each of those paths: read off per word from the
  // same implications, so that its waits cost their length in a comparison, not in lookups.
  struct Tails {
    std::vector<EventId> seq;     // the word's writers, as active_ sorts a rule's candidates
    std::vector<uint32_t> mask;   // mask[i]: the guards of seq[i] ~> seq[i+1] ~> ... (linked)
    std::vector<uint8_t> linked;  // linked[i]: each of those paths exists
    std::unordered_map<EventId, uint32_t> at;  // seq's index of each writer
  };
  std::map<const void*, Tails> tails;
  auto by_pos = [&](EventId a, EventId b) { return completes_before(a, b); };
  auto tails_of = [&](const WaitRule& r) -> const Tails& {
    auto [it, fresh] = tails.try_emplace(r.word.writers.id());
    Tails& t = it->second;
    if (!fresh) return t;
    for (const WaitWriter& x : r.word.writers) t.seq.push_back(x.ev);
    std::sort(t.seq.begin(), t.seq.end(), by_pos);
    t.seq.erase(std::unique(t.seq.begin(), t.seq.end()), t.seq.end());
    const size_t m = t.seq.size();
    t.mask.assign(m, 0), t.linked.assign(m, 1);
    for (size_t i = m; i-- > 0;) {
      t.at.emplace(t.seq[i], static_cast<uint32_t>(i));
      if (i + 1 == m) continue;
      const uint32_t g = imply(t.seq[i], t.seq[i + 1]);
      t.linked[i] = g != kUnreached && t.linked[i + 1];
      t.mask[i] = t.linked[i] ? g | t.mask[i + 1] : 0;
    }
    return t;
  };
  ess_start_.assign(p.waits.size() + 1, 0);
  ess_.clear();
  rule_mask_.assign(p.waits.size(), 0);
  rule_used_.assign(p.waits.size(), 0);
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    ess_start_[w + 1] = ess_start_[w];
    const std::vector<EventId>& cands = active_[w];
    if (cands.empty()) continue;
    uint32_t mask =
        r.value_depends | (r.zero_satisfies ? 0 : bit(AssumptionId::InitialZero)) | after_mask_[w];
    rule_used_[w] = 1;
    if (tails_ && cands.size() > 2) {
      const Tails& t = tails_of(r);
      const auto at = t.at.find(cands[0]);
      if (at != t.at.end() && at->second + cands.size() == t.seq.size() && t.linked[at->second] &&
          std::equal(cands.begin(), cands.end(), t.seq.begin() + at->second)) {
        ess_.push_back(cands[0]), ++ess_start_[w + 1];
        rule_mask_[w] = mask | t.mask[at->second];
        continue;
      }
    }
    EventId last = kNoEvent;
    for (size_t k = 0; k < cands.size(); ++k) {
      uint32_t m = k ? imply(cands[k - 1], cands[k]) : kUnreached;
      if (m == kUnreached && k && last != cands[k - 1]) m = imply(last, cands[k]);
      if (m != kUnreached) {
        mask |= m;
        continue;
      }
      ess_.push_back(cands[k]), ++ess_start_[w + 1], last = cands[k];
    }
    rule_mask_[w] = mask;
  }
}

// A topological order of the orders and of the edges from each rule's essential candidates to its
// wait, taking the ready event that completes first. When nothing is ready, the rules of the first
// blocked wait (every order before it placed) are given up; failing that, an order cycle is
// broken at its first event. Searches use only edges that go forward in this order.
void MustOrder::search_order(const LoweredProgram& p) {
  const size_t n = p.events.size();
  std::vector<uint32_t> preds(n, 0), blocked_rules(n, 0), missing(p.waits.size(), 0);
  for (EventId v : out_after_) ++preds[v];
  std::vector<std::pair<uint32_t, uint32_t>> feeds;
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    if (!rule_used_[w]) continue;
    missing[w] = ess_start_[w + 1] - ess_start_[w];
    ++blocked_rules[p.waits[w].wait];
    for (uint32_t i = ess_start_[w]; i < ess_start_[w + 1]; ++i) feeds.push_back({ess_[i], w});
  }
  std::vector<std::pair<uint32_t, uint32_t>> of_wait;
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (rule_used_[w]) of_wait.push_back({p.waits[w].wait, w});
  std::vector<uint32_t> fs, f, ws, wr;
  csr(n, feeds, &fs, &f);
  csr(n, of_wait, &ws, &wr);
  using Key = std::pair<uint32_t, EventId>;
  auto key = [&](EventId e) { return Key{pos_[e], e}; };
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready, blocked;
  std::vector<uint8_t> placed(n, 0);
  for (EventId e = 0; e < n; ++e)
    if (!preds[e]) (blocked_rules[e] ? blocked : ready).push(key(e));
  spos_.assign(n, 0), at_.clear(), at_.reserve(n);
  std::vector<Key> all;  // for order cycles: every event by key
  size_t next_all = 0;
  auto place = [&](EventId e) {
    placed[e] = 1, spos_[e] = static_cast<uint32_t>(at_.size()), at_.push_back(e);
    for (uint32_t i = out_start_[e]; i < out_start_[e + 1]; ++i) {
      const EventId v = out_after_[i];
      if (!placed[v] && --preds[v] == 0) (blocked_rules[v] ? blocked : ready).push(key(v));
    }
    for (uint32_t i = fs[e]; i < fs[e + 1]; ++i) {
      const uint32_t w = f[i];
      const EventId v = p.waits[w].wait;
      if (!rule_used_[w] || placed[v] || --missing[w]) continue;
      if (--blocked_rules[v] == 0 && !preds[v]) ready.push(key(v));
    }
  };
  cyclic_.assign(p.waits.size(), 0);
  auto give_up_rules = [&](EventId v) {
    for (uint32_t i = ws[v]; i < ws[v + 1]; ++i)
      if (missing[wr[i]]) rule_used_[wr[i]] = 0, cyclic_[wr[i]] = 1;
  };
  while (at_.size() < n) {
    if (!ready.empty()) {
      const EventId e = ready.top().second;
      ready.pop();
      if (!placed[e]) place(e);
      continue;
    }
    if (!blocked.empty()) {
      const EventId e = blocked.top().second;
      blocked.pop();
      if (!placed[e]) give_up_rules(e), place(e);
      continue;
    }
    if (all.empty()) {
      for (EventId e = 0; e < n; ++e) all.push_back(key(e));
      std::sort(all.begin(), all.end());
    }
    while (placed[all[next_all].second]) ++next_all;
    const EventId e = all[next_all].second;
    give_up_rules(e), place(e);
  }
}

// The search from `src` takes events in search order; when it takes one, every edge into it from
// an event the search has reached is in, so its best path is final. A wait's rule holds once each
// essential candidate is reached (or is `src`); the rule's own assumptions join theirs.
void MustOrder::advance(Reach& r, EventId until) {
  const uint32_t limit = spos_[until] - r.base;
  auto grow = [&](uint32_t at) {
    if (at < r.mask.size()) return;
    const size_t size = std::min(std::max<size_t>(at + 1, 2 * r.mask.size()), at_.size() - r.base);
    memo_bytes_ += (size - r.mask.size()) * 5;
    r.mask.resize(size, kUnreached), r.state.resize(size, 0);
  };
  while (!r.queue.empty() && r.queue.top() <= limit) {
    if (budget_) {
      if (*budget_ == 0) return;  // "not reached" from here on: fewer proofs, none wrong
      --*budget_;
    }
    const uint32_t o = r.queue.top();
    r.queue.pop();
    if (r.state[o] == 2) continue;
    r.state[o] = 2, ++pops_;
    const EventId u = at_[r.base + o];
    if (o != 0)
      for (uint32_t i = rule_start_[u]; i < rule_start_[u + 1]; ++i) {
        const uint32_t w = rule_[i];
        uint32_t m = rule_mask_[w];
        for (uint32_t k = ess_start_[w]; k < ess_start_[w + 1] && m != kUnreached; ++k) {
          const uint32_t s = spos_[ess_[k]];
          m = s < r.base || s - r.base >= o || r.mask[s - r.base] == kUnreached
                  ? kUnreached
                  : m | r.mask[s - r.base];
        }
        if (m != kUnreached && fewer(m, r.mask[o])) r.mask[o] = m;
      }
    const uint32_t mu = r.mask[o];
    if (mu == kUnreached) continue;
    auto queue = [&](uint32_t ov) {
      if (r.state[ov] == 0) r.state[ov] = 1, r.queue.push(ov);
    };
    for (uint32_t i = out_start_[u]; i < out_start_[u + 1]; ++i) {
      const uint32_t s = spos_[out_after_[i]];
      if (s <= r.base + o) continue;
      const uint32_t ov = s - r.base;
      grow(ov);
      if (fewer(mu | out_mask_[i], r.mask[ov])) r.mask[ov] = mu | out_mask_[i];
      queue(ov);
    }
    for (uint32_t i = feed_start_[u]; i < feed_start_[u + 1]; ++i) {
      const uint32_t ov = spos_[p_.waits[feed_[i]].wait] - r.base;
      grow(ov);
      queue(ov);
    }
  }
}

MustOrder::Reach& MustOrder::from(EventId src) {
  auto it = memo_.find(src);
  if (it != memo_.end()) return it->second;
  if (memo_bytes_ > memo_limit_) memo_.clear(), memo_bytes_ = 0;
  ++searches_;
  Reach& r = memo_[src];
  r.base = spos_[src], r.mask = {0}, r.state = {1}, r.queue.push(0);
  memo_bytes_ += 64;
  return r;
}

bool MustOrder::reaches(EventId a, EventId b) {
  if (out_of_reach(a, b) || spos_[b] <= spos_[a]) return false;
  Reach& r = from(a);
  advance(r, b);
  const uint32_t ob = spos_[b] - r.base;
  return ob < r.mask.size() && r.mask[ob] != kUnreached;
}

uint32_t MustOrder::guards(EventId a, EventId b) {
  if (a == b) return 0;
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
        if (auto end = chain(start, steps, j + 1, lo, hi, target, points)) return end;
        break;
      }
    }
  }
  std::vector<EventId> cands;
  const uint32_t first = pos_[start] == kNever ? kNever : pos_[start] + 1;
  for (auto it = from_pos(first); it != ops.end(); ++it) {
    const EventId ev = p_.cache_ops[it->second].ev;
    // One at or past the target cannot reach it: the loop below would pass it over uncounted.
    if (target != kNoEvent && out_of_reach(ev, target)) break;
    if (covers_all(it->second, lo, hi) && reaches(start, ev)) cands.push_back(ev);
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

std::optional<uint32_t> MustOrder::paths(const Obligation& o) {
  std::vector<EventId> points;
  uint32_t used = 0;
  auto add = [&](uint32_t mask) { used |= mask; };
  // A chain of covering operations from `start` through `steps`, then on to `target`: proved,
  // with the assumptions guarding the paths between consecutive points.
  auto chain_to = [&](EventId start, const std::vector<Step>& steps, uint64_t lo, uint64_t hi,
                      EventId target) -> std::optional<uint32_t> {
    if (!chain(start, steps, 0, lo, hi, target, &points)) return std::nullopt;
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
      return chain_to(w.arrive, o.fresh.steps, o.fresh.lo, o.fresh.hi, r.ev);
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
      new MustOrder(p_, forbidden, pos_, memo_limit_ / (2 * kWithout), &spare_pops_, tails_));
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
    if (mask & bit(static_cast<AssumptionId>(a))) out.insert(static_cast<AssumptionId>(a));
  return out;
}

}  // namespace syncproof::properties
