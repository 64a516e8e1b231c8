#include "properties/proof_cone.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <unordered_map>

namespace syncproof::properties {

using namespace model;

namespace {

// The events of `members` (each once, flagged in `in`) in increasing order, their flags cleared.
// Where they are dense in their range (a cone is mostly a window of the frame), read off the
// flags eight at a time; else sorted.
std::vector<EventId> sorted(const util::Stack<EventId>& members, std::vector<uint8_t>& in) {
  std::vector<EventId> out(members.begin(), members.end());
  if (out.empty()) return out;
  const auto [lo, hi] = std::minmax_element(out.begin(), out.end());
  const size_t first = *lo, last = *hi;
  if (last - first >= 16 * out.size()) {
    // A radix sort, a byte of (e - first) a pass: a few hundred events, where std::sort took
    // 4% of the executor at 10,000 commands.
    for (EventId e : out) in[e] = 0;
    std::vector<EventId> other(out.size());
    for (size_t shift = 0; (last - first) >> shift; shift += 8) {
      std::array<uint32_t, 257> at{};
      for (EventId e : out) ++at[((e - first) >> shift & 0xff) + 1];
      for (size_t b = 1; b < at.size(); ++b) at[b] += at[b - 1];
      for (EventId e : out) other[at[(e - first) >> shift & 0xff]++] = e;
      out.swap(other);
    }
    return out;
  }
  size_t k = 0;
  for (size_t e = first; e <= last;) {
    if (uint64_t word = 0; e + 8 <= last + 1) {
      std::memcpy(&word, &in[e], 8);
      if (!word) {
        e += 8;
        continue;
      }
    }
    if (in[e]) out[k++] = static_cast<EventId>(e), in[e] = 0;
    ++e;
  }
  return out;
}

}  // namespace

std::shared_ptr<const ConeMaker::Shape> ConeMaker::shape_of(const LoweredProgram& p) {
  auto out = std::make_shared<Shape>();
  Shape& sh = *out;
  const size_t n = p.events.size();
  {
    std::vector<std::pair<uint32_t, uint32_t>> from, after, before;
    from.reserve(p.orders.size()), after.reserve(p.orders.size()), before.reserve(p.orders.size());
    for (uint32_t i = 0; i < p.orders.size(); ++i) {
      const Order& o = p.orders[i];
      from.push_back({o.before, i}), after.push_back({o.before, o.after});
      before.push_back({o.after, o.before});
    }
    sh.succ = util::Csr<uint32_t>(n, from);
    sh.after = util::Csr<EventId>(n, after);
    sh.before_ev = util::Csr<EventId>(n, before);
  }
  // A position in the orders' order; events of a cycle, which no execution completes, come
  // last (UINT32_MAX), so a search bounded by position only looks further.
  sh.topo = order_positions(p);
  {
    std::vector<std::pair<uint32_t, uint32_t>> at;
    for (uint32_t w = 0; w < p.waits.size(); ++w) at.push_back({p.waits[w].wait, w});
    sh.rules_at = util::Csr<uint32_t>(n, at);
  }
  // The writer lists of the waits, by writer event.
  std::set<const void*> listed;
  std::vector<std::pair<uint32_t, std::pair<const void*, uint32_t>>> writer_of;
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const auto& list = p.waits[w].word.writers;
    if (listed.insert(list.id()).second)
      for (uint32_t k = 0; k < list.size(); ++k) writer_of.push_back({list[k].ev, {list.id(), k}});
  }
  sh.writer_of = util::Csr<std::pair<const void*, uint32_t>>(n, writer_of);
  return out;
}

ConeMaker::ConeMaker(const LoweredProgram& p, uint64_t usable)
    : ConeMaker(p, shape_of(p), usable) {}

ConeMaker::ConeMaker(const ConeMaker& base, uint64_t usable)
    : ConeMaker(base.p_, base.shape_, usable) {}

ConeMaker::ConeMaker(const LoweredProgram& p, std::shared_ptr<const Shape> shape, uint64_t usable)
    : p_(p),
      usable_(usable),
      shape_(std::move(shape)),
      succ_(shape_->succ),
      after_(shape_->after),
      before_ev_(shape_->before_ev),
      topo_(shape_->topo),
      rules_at_(shape_->rules_at),
      writer_of_(shape_->writer_of) {
  const size_t n = p.events.size();
  std::deque<EventId> ready;
  std::vector<std::pair<uint32_t, uint32_t>> waits_of;  // (candidate, rule)
  find_essentials(&waits_of);
  waits_of_ = util::Csr<uint32_t>(n, waits_of);
  reach_pos_.assign(n, UINT32_MAX);
  std::vector<uint32_t> deg(n, 0);
  for (const Order& o : p.orders) ++deg[o.after];
  for (uint32_t w = 0; w < p.waits.size(); ++w) deg[p.waits[w].wait] += essential_[w].size();
  for (EventId e = 0; e < n; ++e)
    if (!deg[e]) ready.push_back(e);
  auto release = [&](EventId x) {
    if (--deg[x] == 0) ready.push_back(x);
  };
  for (uint32_t next = 0; !ready.empty(); ++next) {
    const EventId e = ready.front();
    ready.pop_front();
    reach_pos_[e] = next;
    for (EventId x : after_[e]) release(x);
    for (uint32_t w : waits_of_[e]) release(p.waits[w].wait);
  }
  before_.assign(n, 0);
  in_.assign(n, 0);
  // How many writers of each list are the candidates of each wait (counted by writer: a writer
  // is one event; candidate_flags).
  candidate_count_.assign(p.waits.size(), 0);
  candidate_flags_.resize(p.waits.size());
}

// Per wait, per queue, its candidates in that order: one the previous one precedes is not
// essential (and by induction every non-essential one follows an essential one).
//
// A frame's waits on one fence list most of its signals (2.9 million candidates in all at 50,000
// commands), and for ever higher values ever shorter tails of the same sorted list: a list that
// is, as it stands, a tail of the last one worked out in full for its word is read off that one
// (its first candidate essential, the others as there: each is compared with the same one
// before it), where each candidate cost a sort and a lookup of the pair before it.
void ConeMaker::find_essentials(std::vector<std::pair<uint32_t, uint32_t>>* waits_of) {
  const LoweredProgram& p = p_;
  essential_.resize(p.waits.size());
  implied_guards_.assign(p.waits.size(), 0);
  struct Full {
    std::vector<EventId> seq;      // sorted candidates
    std::vector<uint32_t> kept;    // indices (past the first) of the essential ones, increasing
    std::vector<uint64_t> guards;  // guards[i]: of the implied ones at index i and past it
  };
  std::unordered_map<const void*, Full> last;  // by word (its writers' list)
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const std::vector<EventId>& raw = p.waits[w].candidates;
    auto it = last.find(p.waits[w].word.writers.id());
    if (it != last.end() && !raw.empty() && raw.size() <= it->second.seq.size() &&
        std::equal(raw.begin(), raw.end(), it->second.seq.end() - raw.size())) {
      const Full& f = it->second;
      const size_t s = f.seq.size() - raw.size();
      essential_[w].push_back(f.seq[s]);
      for (auto k = std::upper_bound(f.kept.begin(), f.kept.end(), s); k != f.kept.end(); ++k)
        essential_[w].push_back(f.seq[*k]);
      implied_guards_[w] = f.guards[s + 1];  // already in all_implied_
      for (EventId c : essential_[w]) waits_of->push_back({c, w});
      continue;
    }
    Full f;
    f.seq = raw;
    std::sort(f.seq.begin(), f.seq.end(), [&](EventId a, EventId b) {
      const Event &ea = p.events[a], &eb = p.events[b];
      if (ea.queue != eb.queue) return ea.queue < eb.queue;
      return topo_[a] != topo_[b] ? topo_[a] < topo_[b] : a < b;
    });
    const std::vector<EventId>& cands = f.seq;
    std::vector<uint64_t> implied(cands.size() + 1, 0);
    for (size_t i = 0; i < cands.size(); ++i) {
      if (i > 0 && p.events[cands[i - 1]].queue == p.events[cands[i]].queue)
        if (auto g = before(cands[i - 1], cands[i])) {
          implied_guards_[w] |= *g;
          all_implied_ |= *g;
          implied[i] = *g;
          continue;
        }
      essential_[w].push_back(cands[i]);
      waits_of->push_back({cands[i], w});
      if (i > 0) f.kept.push_back(static_cast<uint32_t>(i));
    }
    for (size_t i = cands.size(); i-- > 0;) implied[i] |= implied[i + 1];
    f.guards = std::move(implied);
    if (!raw.empty()) last[p.waits[w].word.writers.id()] = std::move(f);
  }
}

ConeMaker::Inside ConeMaker::inside(const std::vector<EventId>& events) const {
  Inside out;
  for (EventId e : events)
    for (uint32_t w : rules_at_[e]) out.waits.push_back(w);
  for (uint32_t w : out.waits) out.writers.try_emplace(p_.waits[w].word.writers.id());
  for (EventId e : events)
    for (const auto& [list, k] : writer_of_[e])
      if (auto it = out.writers.find(list); it != out.writers.end()) it->second.push_back(k);
  for (auto& [list, ks] : out.writers) std::sort(ks.begin(), ks.end());
  return out;
}

const std::vector<uint8_t>& ConeMaker::candidate_flags(uint32_t w) const {
  std::vector<uint8_t>& f = candidate_flags_[w];
  if (f.empty() && !p_.waits[w].word.writers.empty()) {
    const WaitRule& r = p_.waits[w];
    f.assign(r.word.writers.size(), 0);
    // By event, marked and cleared again: a fence wait lists most signals of its fence, so a
    // sorted copy per wait made this grow with the square of a frame.
    if (marks_.empty()) marks_.assign(p_.events.size(), 0);
    for (EventId e : r.candidates) marks_[e] = 1;
    for (uint32_t k = 0; k < r.word.writers.size(); ++k)
      if (marks_[r.word.writers[k].ev]) f[k] = 1, ++candidate_count_[w];
    for (EventId e : r.candidates) marks_[e] = 0;
  }
  return f;
}

uint64_t guard_bit(const Guard& g) {
  return g.id ? uint64_t{1} << (static_cast<int>(*g.id) + (g.when ? 0 : 32)) : 0;
}

std::optional<uint64_t> ConeMaker::before(EventId a, EventId b) const {
  if (a == b || topo_[a] >= topo_[b]) return std::nullopt;
  auto [it, fresh] = before_memo_.try_emplace((uint64_t{a} << 32) | b, std::nullopt);
  if (!fresh) return it->second;
  // First through orders no assumption guards, then through any, with the guards of the path
  // that first reached each event.
  // seen_ is all UINT64_MAX between calls: only what a search touched is reset. (Two program-
  // sized arrays a search, filled anew, were 2.5% of the executor's time at 50,000 commands.)
  std::vector<uint64_t>& seen = seen_;
  if (seen.empty()) seen.assign(p_.events.size(), UINT64_MAX);
  std::vector<EventId> touched;
  auto reset = [&] {
    for (EventId e : touched) seen[e] = UINT64_MAX;
    touched.clear();
  };
  for (const bool guarded : {false, true}) {
    std::vector<EventId> todo{a};
    seen[a] = 0, touched.push_back(a);
    while (!todo.empty()) {
      const EventId e = todo.back();
      todo.pop_back();
      for (uint32_t oi : succ_[e]) {
        const Order& o = p_.orders[oi];
        if (o.guard.id && (!guarded || (guard_bit(o.guard) & ~usable_) != 0)) continue;
        if (seen[o.after] != UINT64_MAX || topo_[o.after] > topo_[b]) continue;
        seen[o.after] = seen[e] | guard_bit(o.guard), touched.push_back(o.after);
        if (o.after == b) {
          it->second = seen[b];
          reset();
          return it->second;
        }
        todo.push_back(o.after);
      }
    }
    reset();
  }
  return std::nullopt;
}

Cone ConeMaker::whole() const {
  Cone c;
  const size_t n = p_.events.size();
  c.events.resize(n);
  for (EventId e = 0; e < n; ++e) c.events[e] = e;
  for (uint32_t w = 0; w < p_.waits.size(); ++w) c.rules.push_back({w, 0});
  c.in.assign(n, 1);
  c.keep_wait.assign(p_.waits.size(), 1);
  c.wait_guards.assign(p_.waits.size(), 0);
  c.short_candidates.assign(p_.waits.size(), {});
  for (uint32_t w = 0; w < p_.waits.size(); ++w)
    if (p_.waits[w].monotone && implied_guards_[w] == 0) c.short_candidates[w] = essential_[w];
  c.size = n;
  return c;
}

std::optional<Cone> ConeMaker::cone(const Obligation& o, bool dense,
                                    const std::vector<char>* unkeyed, Inside* inside_out) const {
  using K = Obligation::Kind;
  std::vector<EventId> early, late;
  auto write_events = [&](uint32_t a, std::vector<EventId>& v) {
    v.push_back(p_.accesses[a].ev);
    if (p_.accesses[a].arrive != kNoEvent) v.push_back(p_.accesses[a].arrive);
  };
  switch (o.kind) {
    case K::Fresh:
      write_events(o.fresh.write, early), late.push_back(p_.accesses[o.fresh.read].ev);
      // A line mate's arrival and its way to memory decide whether the GL2 step is open.
      for (size_t k = 0; k < o.fresh.mates.size(); ++k)
        if (!unkeyed || k >= unkeyed->size() || !(*unkeyed)[k])
          write_events(o.fresh.mates[k].access, early);
      break;
    case K::Ordered:
      early = o.ordering.before, late = o.ordering.after;
      break;
    case K::WriteOrder:
      write_events(o.waw.first, early), write_events(o.waw.second, late);
      break;
    case K::ReadFirst:
      early.push_back(p_.accesses[o.war.read].ev), write_events(o.war.write, late);
      break;
    case K::Race:
      return std::nullopt;
  }
  const size_t n = p_.events.size();
  // Before a later key event: through orders, and a wait through its essential candidates. Only
  // events at or past the earliest key event's position can be after one (reach_pos_).
  uint32_t low = UINT32_MAX;
  for (EventId e : early) low = std::min(low, reach_pos_[e]);
  util::Stack<EventId>& todo = todo_;
  util::Stack<EventId>& touched = touched_;
  todo.clear(), touched.clear();
  auto mark_before = [&](EventId x) {
    if (!before_[x] && reach_pos_[x] >= low) before_[x] = 1, todo.push(x), touched.push(x);
  };
  for (EventId e : late) mark_before(e);
  while (!todo.empty()) {
    const EventId e = todo.pop();
    for (EventId x : before_ev_[e]) mark_before(x);
    for (uint32_t w : rules_at_[e])
      for (EventId x : essential_[w]) mark_before(x);
  }
  // ... and after an earlier one (among those): the other way round.
  Cone c;
  std::vector<uint8_t>& in = in_;  // all 0 between calls: reset from `members` below
  util::Stack<EventId>& members = members_;
  members.clear();
  auto mark_in = [&](EventId x) {
    if (!in[x]) in[x] = 1, todo.push(x), members.push(x);
  };
  for (EventId e : early) mark_in(e);
  while (!todo.empty()) {
    const EventId e = todo.pop();
    for (EventId x : after_[e])
      if (before_[x]) mark_in(x);
    for (uint32_t w : waits_of_[e])
      if (before_[p_.waits[w].wait]) mark_in(p_.waits[w].wait);
  }
  for (EventId x : touched) before_[x] = 0;
  for (EventId e : late)
    if (!in[e]) in[e] = 1, members.push(e);
  // The essential candidates of the waits in S, and which rules stay.
  // In rule order; a candidate that joins and is itself a wait brings its rules in if they come
  // later in that order (as one pass over the rules in order would meet them).
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> pending;
  for (EventId e : members)
    for (uint32_t w : rules_at_[e]) pending.push(w);
  std::vector<uint32_t> kept;  // monotone rules whose essential candidates are in
  while (!pending.empty()) {
    const uint32_t w = pending.top();
    pending.pop();
    if (!p_.waits[w].monotone || (!kept.empty() && kept.back() == w)) continue;
    for (EventId x : essential_[w])
      if (!in[x]) {
        in[x] = 1, members.push(x);
        for (uint32_t w2 : rules_at_[x])
          if (w2 > w) pending.push(w2);
      }
    kept.push_back(w);  // in increasing order
  }
  c.events = sorted(members, in);
  c.size = c.events.size();
  std::vector<uint32_t> essential_only;
  Inside held = inside(c.events);
  c.rules = rules_over(c.events, held, &kept, &essential_only);
  if (inside_out) *inside_out = std::move(held);
  if (dense) {
    c.in.assign(n, 0);
    for (EventId e : c.events) c.in[e] = 1;
    c.keep_wait.assign(p_.waits.size(), 0);
    c.wait_guards.assign(p_.waits.size(), 0);
    for (const auto& [w, g] : c.rules) c.keep_wait[w] = 1, c.wait_guards[w] = g;
    c.short_candidates.assign(p_.waits.size(), {});
    for (uint32_t w : essential_only) c.short_candidates[w] = essential_[w];
  }
  return c;
}

std::vector<std::pair<uint32_t, uint64_t>> ConeMaker::rules_over(
    const std::vector<EventId>& events, const Inside& in, const std::vector<uint32_t>* kept,
    std::vector<uint32_t>* essential_only, bool* left_out) const {
  // A rule that leaves out a candidate rests on the orders that put it after another one; a
  // monotone rule stays only with its essential candidates in S (those of `kept`, for which
  // cone() put them there), a wait decided by its value only with all of its writers. Both are
  // counted from the writers in S (a fence's writer list holds every signal of it).
  std::vector<uint32_t> waits = in.waits;
  std::sort(waits.begin(), waits.end());
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (uint32_t w : waits) {
    const WaitRule& r = p_.waits[w];
    const std::vector<uint32_t>& ks = in.writers.at(r.word.writers.id());
    if (r.monotone) {
      const bool in = kept
                          ? std::binary_search(kept->begin(), kept->end(), w)
                          : std::all_of(essential_[w].begin(), essential_[w].end(), [&](EventId x) {
                              return std::binary_search(events.begin(), events.end(), x);
                            });
      if (!in) {
        if (left_out) *left_out = true;
        continue;
      }
      const std::vector<uint8_t>& cand = candidate_flags(w);
      const size_t inside = static_cast<size_t>(
          std::count_if(ks.begin(), ks.end(), [&](uint32_t k) { return cand[k] != 0; }));
      const bool outside = inside < candidate_count_[w];
      out.push_back({w, outside ? implied_guards_[w] : 0});
      if (essential_only && (outside || implied_guards_[w] == 0)) essential_only->push_back(w);
    } else if (ks.size() == r.word.writers.size()) {
      out.push_back({w, 0});
    }
  }
  return out;
}

}  // namespace syncproof::properties
