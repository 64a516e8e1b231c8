#include "properties/slice.h"

#include <algorithm>
#include <deque>

#include "properties/api_order.h"
#include "properties/must_order.h"
#include "properties/trace.h"

namespace syncproof::properties {

using namespace model;

namespace {

// A rule that orders its wait after one of its candidates (the others let it complete at once).
bool orders(const WaitRule& r) {
  return !(r.initial.can_sat || r.candidates.empty());
}

// Completes the events of `part` in an order the program allows, every event outside `part` with
// a time below `start` counting as done: an event once everything ordered before it is done and,
// for each rule of its wait, a candidate is. Gives them times start, start + 1, ...; false when
// some cannot complete.
bool complete(const LoweredProgram& p, const Slice& s, Part part, long long start,
              const std::vector<std::vector<uint32_t>>& succ,
              const std::vector<std::vector<uint32_t>>& feeds, Times* t) {
  const size_t n = p.events.size();
  std::vector<uint32_t> missing(n, 0);
  std::vector<uint8_t> rule_done(p.waits.size(), 1);
  auto done = [&](EventId e) { return s.part[e] != part && (*t)[e] >= 0 && (*t)[e] < start; };
  for (const Order& o : p.orders)
    if (s.part[o.after] == part && !done(o.before)) ++missing[o.after];
  for (uint32_t w = 0; w < p.waits.size(); ++w) {
    const WaitRule& r = p.waits[w];
    if (s.part[r.wait] != part || !orders(r)) continue;
    if (std::any_of(r.candidates.begin(), r.candidates.end(), done)) continue;
    rule_done[w] = 0, ++missing[r.wait];
  }
  std::deque<EventId> ready;
  for (EventId e = 0; e < n; ++e)
    if (s.part[e] == part && !missing[e]) ready.push_back(e);
  long long next = start;
  size_t placed = 0;
  while (!ready.empty()) {
    const EventId e = ready.front();
    ready.pop_front();
    (*t)[e] = next++, ++placed;
    for (uint32_t v : succ[e])
      if (s.part[v] == part && --missing[v] == 0) ready.push_back(v);
    for (uint32_t w : feeds[e])
      if (!rule_done[w] && s.part[p.waits[w].wait] == part) {
        rule_done[w] = 1;
        if (--missing[p.waits[w].wait] == 0) ready.push_back(p.waits[w].wait);
      }
  }
  const size_t want = static_cast<size_t>(std::count(s.part.begin(), s.part.end(), part));
  return placed == want;
}

// A completion order of the program (an event completes once everything ordered before it has
// and, for each rule of its wait, a candidate has), never completing a `blocked` event: each
// event's place in it, UINT32_MAX for those that never complete.
std::vector<uint32_t> completion(const LoweredProgram& p,
                                 const std::vector<std::vector<uint32_t>>& succ,
                                 const std::vector<uint8_t>& blocked) {
  const size_t n = p.events.size();
  std::vector<uint32_t> missing(n, 0), pos(n, UINT32_MAX);
  std::vector<std::vector<uint32_t>> rules_of(n);
  for (const Order& ord : p.orders) ++missing[ord.after];
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (orders(p.waits[w])) {
      ++missing[p.waits[w].wait];
      for (EventId c : p.waits[w].candidates) rules_of[c].push_back(w);
    }
  std::vector<uint8_t> rule_done(p.waits.size(), 0);
  std::deque<EventId> ready;
  for (EventId e = 0; e < n; ++e)
    if (!missing[e] && !blocked[e]) ready.push_back(e);
  for (uint32_t next = 0; !ready.empty(); ++next) {
    const EventId e = ready.front();
    ready.pop_front();
    pos[e] = next;
    auto one_less = [&](EventId v) {
      if (--missing[v] == 0 && !blocked[v]) ready.push_back(v);
    };
    for (uint32_t v : succ[e]) one_less(v);
    for (uint32_t w : rules_of[e])
      if (!rule_done[w]) rule_done[w] = 1, one_less(p.waits[w].wait);
  }
  return pos;
}

}  // namespace

std::optional<Slice> counterexample_slice(const LoweredProgram& p, const Obligation& o,
                                          const ApiOrder& hb) {
  if (!all_waits_monotone(p)) return std::nullopt;
  const size_t n = p.events.size();
  std::vector<std::vector<uint32_t>> succ(n), pred(n), needs(n);
  for (const Order& ord : p.orders) succ[ord.before].push_back(ord.after);
  for (const Order& ord : p.orders) pred[ord.after].push_back(ord.before);
  for (const WaitRule& r : p.waits)
    if (orders(r))
      for (EventId c : r.candidates) needs[r.wait].push_back(c);
  const std::vector<EventId> keys = focus_events(p, o);
  // Before: what can complete while no key event does.
  std::vector<uint8_t> key(n, 0);
  for (EventId k : keys) key[k] = 1;
  const std::vector<uint32_t> without_keys = completion(p, succ, key);
  // One execution of the whole program, for choosing candidates below.
  const std::vector<uint32_t> pos = completion(p, succ, std::vector<uint8_t>(n, 0));
  auto before = [&](EventId e) { return without_keys[e] != UINT32_MAX; };
  // In: also before some key, through orders and, for a wait, the candidates that landed before
  // it in that execution (one of which the slice's model must use: After candidates do not
  // count there; more only make the slice bigger).
  std::vector<uint8_t> down(n, 0);
  std::vector<EventId> todo;
  for (EventId k : keys)
    if (!down[k]) down[k] = 1, todo.push_back(k);
  while (!todo.empty()) {
    const EventId e = todo.back();
    todo.pop_back();
    auto add = [&](EventId v) {
      if (!down[v]) down[v] = 1, todo.push_back(v);
    };
    for (uint32_t v : pred[e]) add(v);
    for (uint32_t v : needs[e])
      if (pos[v] < pos[e]) add(v);
  }
  Slice s;
  s.part.assign(n, Part::Before);
  for (EventId e = 0; e < n; ++e)
    if (!before(e)) s.part[e] = down[e] ? Part::In : Part::After;
  // A cache operation of the obligation's steps that could run Before but that API order puts
  // neither before the write nor after the reader: where it runs relative to the write is the
  // model's to choose, as in the whole program (the explanation of a violation depends on it),
  // so it is In, with what follows it among the Before events (those must stay after it).
  const MemAccess* first = nullptr;
  const MemAccess* last = nullptr;
  const std::vector<Step>* steps = nullptr;
  if (o.kind == Obligation::Kind::Fresh)
    first = &p.accesses[o.fresh.write], last = &p.accesses[o.fresh.read], steps = &o.fresh.steps;
  if (o.kind == Obligation::Kind::WriteOrder)
    first = &p.accesses[o.waw.first], last = &p.accesses[o.waw.second], steps = &o.waw.first_steps;
  if (steps) {
    auto api_before = [&](uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) {
      return (qa == qb && a < b) || hb.before(qa, a, qb, b);
    };
    std::vector<EventId> pull;
    for (const Step& st : *steps)
      for (uint32_t oi : st.ops) {
        const EventId e = p.cache_ops[oi].ev;
        const Event& ev = p.events[e];
        if (s.part[e] != Part::Before || api_before(ev.queue, ev.cmd, first->queue, first->cmd) ||
            api_before(last->queue, last->cmd, ev.queue, ev.cmd))
          continue;
        s.part[e] = Part::In, pull.push_back(e);
      }
    // A Before wait left with no Before candidate for one of its rules goes with them too
    // (Before must complete first without them).
    std::vector<std::vector<uint32_t>> rules_of(n);
    std::vector<uint32_t> left(p.waits.size(), 0);
    for (uint32_t w = 0; w < p.waits.size(); ++w)
      if (orders(p.waits[w]))
        for (EventId c : p.waits[w].candidates) {
          rules_of[c].push_back(w);
          if (before(c)) ++left[w];
        }
    auto take = [&](EventId v, std::vector<EventId>* more) {
      if (s.part[v] == Part::Before) s.part[v] = Part::In, more->push_back(v);
    };
    while (!pull.empty()) {
      const EventId e = pull.back();
      pull.pop_back();
      for (uint32_t v : succ[e]) take(v, &pull);
      for (uint32_t w : rules_of[e])
        if (--left[w] == 0) take(p.waits[w].wait, &pull);
    }
  }
  s.in = static_cast<size_t>(std::count(s.part.begin(), s.part.end(), Part::In));
  return s;
}

std::optional<Times> extend(const LoweredProgram& p, const Slice& s, const Times& in_times) {
  const size_t n = p.events.size();
  std::vector<std::vector<uint32_t>> succ(n), feeds(n);
  for (const Order& o : p.orders) succ[o.before].push_back(o.after);
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (orders(p.waits[w]))
      for (EventId c : p.waits[w].candidates) feeds[c].push_back(w);
  Times t(n, -1);
  if (!complete(p, s, Part::Before, 1, succ, feeds, &t)) return std::nullopt;
  long long next =
      1 + static_cast<long long>(std::count(s.part.begin(), s.part.end(), Part::Before));
  // The In events keep the model's order and its ties, renumbered densely after Before.
  std::vector<long long> in;
  for (EventId e = 0; e < n; ++e)
    if (s.part[e] == Part::In) in.push_back(in_times[e]);
  std::sort(in.begin(), in.end());
  in.erase(std::unique(in.begin(), in.end()), in.end());
  for (EventId e = 0; e < n; ++e)
    if (s.part[e] == Part::In)
      t[e] = next + (std::lower_bound(in.begin(), in.end(), in_times[e]) - in.begin());
  next += static_cast<long long>(in.size());
  if (!complete(p, s, Part::After, next, succ, feeds, &t)) return std::nullopt;
  // The whole program's constraints, on the whole execution.
  for (const Order& o : p.orders)
    if (!(t[o.before] < t[o.after])) return std::nullopt;
  for (const WaitRule& r : p.waits)
    if (orders(r) && std::none_of(r.candidates.begin(), r.candidates.end(),
                                  [&](EventId c) { return t[c] < t[r.wait]; }))
      return std::nullopt;
  return t;
}

}  // namespace syncproof::properties
