// Building the must-happen-before search: the completion order, the orders' adjacency, each wait
// rule's essential candidates and the search order (the header says why each is sound).
#include <algorithm>
#include <deque>
#include <queue>

#include "properties/must_order.h"
#include "util/csr.h"

namespace syncproof::properties {

using namespace model;

namespace {
// How far the search for a candidate implied by another may go; past it the candidate counts as
// essential (a stricter rule: fewer paths, never a wrong one).
constexpr uint32_t kImplyPops = uint32_t{1} << 14;
// Rounds of dropping candidates a wait is before (MustOrder::build).
constexpr int kRounds = 64;

template <class T>
void release(T& x) {
  T().swap(x);
}

using util::csr;  // keeps the edges' order

}  // namespace

MustOrder::MustOrder(const LoweredProgram& p, bool tails, bool chains, size_t memo_bytes)
    : p_(p),
      tails_(tails),
      chains_(chains),
      memo_limit_(memo_bytes),
      positions_(positions_of(p)),
      edges_(edges_of(p)) {
  build();
}

std::shared_ptr<const std::vector<uint32_t>> MustOrder::positions_of(const LoweredProgram& p) {
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
    // Writers the orders land in event order (WaitRule::chained): no candidate completes before
    // the first one, so that one alone completes the rule, at the same place (a frame's waits
    // each list most signals of their fence: 2.9 million pairs at 50,000 commands).
    if (r.chained)
      rule_of.push_back({*std::min_element(r.candidates.begin(), r.candidates.end()), w});
    else
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
  std::vector<uint32_t> pos(n, kNever);
  uint32_t next = 0;
  auto complete_one = [&](EventId v) {
    if (--missing[v] == 0) ready.push({progress(v), v});
  };
  while (!ready.empty()) {
    const EventId e = ready.top().second;
    ready.pop();
    pos[e] = next++;
    for (uint32_t i = succ_start[e]; i < succ_start[e + 1]; ++i) complete_one(succ_to[i]);
    for (uint32_t i = rof_start[e]; i < rof_start[e + 1]; ++i)
      if (!rule_done[rof[i]]) rule_done[rof[i]] = 1, complete_one(p.waits[rof[i]].wait);
  }
  return std::make_shared<const std::vector<uint32_t>>(std::move(pos));
}

MustOrder::MustOrder(const LoweredProgram& p, uint32_t forbidden,
                     std::shared_ptr<const std::vector<uint32_t>> positions,
                     std::shared_ptr<const Edges> edges, size_t memo_bytes, uint64_t* budget,
                     bool tails)
    : p_(p),
      forbidden_(forbidden),
      tails_(tails),
      memo_limit_(memo_bytes),
      budget_(budget),
      positions_(std::move(positions)),
      edges_(std::move(edges)) {
  // Made with no pops left (a property's minimization spent them): every search it could run
  // would stop before taking anything from its queue, and its rounds would drop nothing, so it
  // answers as `starved_` says without the orders, rules and search order build() makes (a pass
  // over the whole program each, 6% of the SMT engine's time at 50,000 commands, for nothing).
  starved_ = budget_ && *budget_ == 0;
  if (!starved_) build();
}

std::shared_ptr<const MustOrder::Edges> MustOrder::edges_of(const LoweredProgram& p) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t i = 0; i < p.orders.size(); ++i) out.push_back({p.orders[i].before, i});
  auto e = std::make_shared<Edges>();
  std::vector<uint32_t> order_of;
  csr(p.events.size(), out, &e->start, &order_of);
  e->after.resize(order_of.size()), e->mask.resize(order_of.size());
  for (uint32_t i = 0; i < order_of.size(); ++i) {
    const Order& o = p.orders[order_of[i]];
    e->after[i] = o.after;
    e->mask[i] = o.guard.id ? bit(*o.guard.id) : 0;
  }
  return e;
}

void MustOrder::build() {
  const LoweredProgram& p = p_;
  const size_t n = p.events.size();
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
    by_position(p);
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
  // What only the rounds read (the searches read ess_, rule_mask_ and the CSRs): let go, since a
  // property's minimization keeps up to kWithout searches, and the candidate lists alone took
  // 110 MB of the SMT engine's peak at 50,000 commands.
  release(active_), release(after_mask_), release(rule_used_), release(cyclic_), release(implied_);
}

void MustOrder::by_position(const LoweredProgram& p) {
  const size_t n = p.events.size();
  // A position's arcs in the order advance() took them by event before (its orders, then the
  // rules it feeds): where two paths have as few assumptions, the first one found stays.
  std::vector<std::pair<uint32_t, Arc>> arcs;
  for (EventId e = 0; e < n; ++e)
    for (uint32_t i = out_start_[e]; i < out_start_[e + 1]; ++i) {
      const uint32_t to = spos_[out_after_[i]];
      // An order back in search order (only in a cycle of orders) is never taken.
      if (!(out_mask_[i] & forbidden_) && to > spos_[e])
        arcs.push_back({spos_[e], Arc{to, out_mask_[i]}});
    }
  std::vector<std::pair<uint32_t, uint32_t>> rules;
  ess_pos_.resize(ess_.size());
  for (uint32_t k = 0; k < ess_.size(); ++k) ess_pos_[k] = spos_[ess_[k]];
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    if (!rule_used_[w]) continue;
    const uint32_t at = spos_[p.waits[w].wait];
    rules.push_back({at, w});
    for (uint32_t k = ess_start_[w]; k < ess_start_[w + 1]; ++k)
      arcs.push_back({ess_pos_[k], Arc{at, kFeed}});
  }
  csr(n, arcs, &arc_start_, &arcs_);  // keeps the entries' order within each list
  csr(n, rules, &wait_start_, &wait_rules_);
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
        if ((out_mask_[i] & forbidden_) || seen[v] == epoch || (bound != kNever && pos_[v] > bound))
          continue;
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
  for (uint32_t i = 0; i < out_after_.size(); ++i)
    if (!(out_mask_[i] & forbidden_)) ++preds[out_after_[i]];
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
      if (out_mask_[i] & forbidden_) continue;
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

}  // namespace syncproof::properties
