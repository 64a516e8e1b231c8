#include "properties/slice.h"

#include <algorithm>
#include <deque>

#include "properties/api_order.h"
#include "properties/completion.h"
#include "properties/execution.h"
#include "properties/trace.h"

namespace syncproof::properties {

using namespace model;

namespace {

// A rule that orders its wait after one of its candidates (the others let it complete at once).
bool orders(const WaitRule& r) {
  return !(r.initial.can_sat || r.candidates.empty());
}

}  // namespace

Slicer::Slicer(const LoweredProgram& p)
    : p_(p),
      monotone_(all_waits_monotone(p)),
      succ_(p.events.size()),
      pred_(p.events.size()),
      needs_(p.events.size()),
      rules_of_(p.events.size()) {
  for (const Order& ord : p.orders)
    succ_[ord.before].push_back(ord.after), pred_[ord.after].push_back(ord.before);
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (orders(p.waits[w]))
      for (EventId c : p.waits[w].candidates)
        needs_[p.waits[w].wait].push_back(c), rules_of_[c].push_back(w);
  pos_ = completion(std::vector<uint8_t>(p.events.size(), 0));
}

// A completion order of the program (an event completes once everything ordered before it has
// and, for each rule of its wait, a candidate has), never completing a `blocked` event: each
// event's place in it, UINT32_MAX for those that never complete.
std::vector<uint32_t> Slicer::completion(const std::vector<uint8_t>& blocked) const {
  const size_t n = p_.events.size();
  std::vector<uint32_t> missing(n, 0), pos(n, UINT32_MAX);
  for (const Order& ord : p_.orders) ++missing[ord.after];
  for (const WaitRule& r : p_.waits)
    if (orders(r)) ++missing[r.wait];
  std::vector<uint8_t> rule_done(p_.waits.size(), 0);
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
    for (uint32_t v : succ_[e]) one_less(v);
    for (uint32_t w : rules_of_[e])
      if (!rule_done[w]) rule_done[w] = 1, one_less(p_.waits[w].wait);
  }
  return pos;
}

// Completes the events of `part` in an order the program allows, every event outside `part` with
// a time below `start` counting as done: an event once everything ordered before it is done and,
// for each rule of its wait, a candidate is. Gives them times start, start + 1, ...; false when
// some cannot complete.
bool Slicer::complete(const Slice& s, Part part, long long start, Times* t) const {
  const LoweredProgram& p = p_;
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
    for (uint32_t v : succ_[e])
      if (s.part[v] == part && --missing[v] == 0) ready.push_back(v);
    for (uint32_t w : rules_of_[e])
      if (!rule_done[w] && s.part[p.waits[w].wait] == part) {
        rule_done[w] = 1;
        if (--missing[p.waits[w].wait] == 0) ready.push_back(p.waits[w].wait);
      }
  }
  const size_t want = static_cast<size_t>(std::count(s.part.begin(), s.part.end(), part));
  return placed == want;
}

std::optional<Slice> Slicer::slice(const Obligation& o, const ApiOrder& hb) const {
  const LoweredProgram& p = p_;
  const size_t n = p.events.size();
  const std::vector<EventId> keys = focus_events(p, o);
  // Before: what can complete while no key event does.
  std::vector<uint8_t> key(n, 0);
  for (EventId k : keys) key[k] = 1;
  const std::vector<uint32_t> without_keys = completion(key);
  auto before = [&](EventId e) { return without_keys[e] != UINT32_MAX; };
  // In: also before some key, through orders and, for a wait, the candidates that landed before
  // it in one execution of the whole program (pos_) (one of which the slice's model must use: After
  // candidates do not count there; more only make the slice bigger).
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
    for (uint32_t v : pred_[e]) add(v);
    for (uint32_t v : needs_[e])
      if (pos_[v] < pos_[e]) add(v);
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
    std::vector<uint32_t> left(p.waits.size(), 0);
    for (uint32_t w = 0; w < p.waits.size(); ++w)
      if (orders(p.waits[w]))
        for (EventId c : p.waits[w].candidates) left[w] += before(c);
    auto take = [&](EventId v, std::vector<EventId>* more) {
      if (s.part[v] == Part::Before) s.part[v] = Part::In, more->push_back(v);
    };
    while (!pull.empty()) {
      const EventId e = pull.back();
      pull.pop_back();
      for (uint32_t v : succ_[e]) take(v, &pull);
      for (uint32_t w : rules_of_[e])
        if (--left[w] == 0) take(p.waits[w].wait, &pull);
    }
  }
  // The slice's encoding has the candidate rule only: a wait that is not monotone must not be In.
  // Before or After, the completion of its part treats it by that rule, which it needs (a poll
  // that may pass follows a candidate), and extend() checks its value on the whole execution.
  if (!monotone_)
    for (const WaitRule& r : p.waits)
      if (!r.monotone && s.part[r.wait] == Part::In) return std::nullopt;
  s.in = static_cast<size_t>(std::count(s.part.begin(), s.part.end(), Part::In));
  return s;
}

std::optional<Times> Slicer::extend(const Slice& s, const Times& in_times, uint32_t dropped) const {
  const LoweredProgram& p = p_;
  const size_t n = p.events.size();
  Times t(n, -1);
  if (!complete(s, Part::Before, 1, &t)) return std::nullopt;
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
  if (!complete(s, Part::After, next, &t)) return std::nullopt;
  // The whole program's constraints, on the whole execution: its waits that are not monotone
  // included, which the parts' completion does not look at.
  if (!is_execution(p, t, dropped)) return std::nullopt;
  return t;
}

std::optional<Times> Slicer::execution() const {
  Times t(p_.events.size());
  for (EventId e = 0; e < t.size(); ++e) {
    if (pos_[e] == UINT32_MAX) return std::nullopt;
    t[e] = static_cast<long long>(pos_[e]) + 1;
  }
  if (!is_execution(p_, t)) return std::nullopt;
  return t;
}

}  // namespace syncproof::properties
