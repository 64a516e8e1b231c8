#include "exec/watch.h"

#include <algorithm>
#include <map>

namespace syncproof::exec {

using namespace model;
using properties::Obligation;
using properties::Step;

namespace {

struct Shape {
  EventId a0, b0;
  const std::vector<Step>* sa;
  const std::vector<Step>* sb;
  uint64_t lo, hi;
};

Shape shape_of(const LoweredProgram& p, const Obligation& o) {
  static const std::vector<Step> kNone;
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      return {p.accesses[o.fresh.write].arrive,
              p.accesses[o.fresh.read].ev,
              &o.fresh.steps,
              &kNone,
              o.fresh.lo,
              o.fresh.hi};
    case Obligation::Kind::WriteOrder:
      return {p.accesses[o.waw.first].arrive,
              p.accesses[o.waw.second].arrive,
              &o.waw.first_steps,
              &kNone,  // the later data's earliest arrival is its first level's (obligation.h)
              o.waw.lo,
              o.waw.hi};
    case Obligation::Kind::ReadFirst:
      return {p.accesses[o.war.read].ev,
              p.accesses[o.war.write].arrive,
              &kNone,
              &kNone,  // the write's earliest arrival is its first level's (obligation.h)
              o.war.lo,
              o.war.hi};
    default:
      return {kNoEvent, kNoEvent, &kNone, &kNone, 0, 0};
  }
}

uint32_t bits_from(int j) {  // bits j, j+1, ... (j may be -1: all)
  return j < 0 ? ~0u : ~((1u << j) - 1u);
}

}  // namespace

bool is_chain(const Obligation& o) {
  return o.kind == Obligation::Kind::Fresh || o.kind == Obligation::Kind::WriteOrder ||
         o.kind == Obligation::Kind::ReadFirst;
}

std::vector<EventId> watched_events(const LoweredProgram& p, const Obligation& o,
                                    const std::vector<char>* after_read, const EventMap& map) {
  std::vector<EventId> out;
  auto add = [&](EventId e) {
    const uint32_t x = map(e);
    if (x != EventMap::kOutside && !(after_read && (*after_read)[x])) out.push_back(x);
  };
  if (o.kind == Obligation::Kind::Ordered) {
    for (EventId e : o.ordering.after) add(e);
    return out;
  }
  if (!is_chain(o)) return {};
  Shape sh = shape_of(p, o);
  out = {map(sh.a0), map(sh.b0)};
  for (const auto* steps : {sh.sa, sh.sb})
    for (const Step& s : *steps)
      for (uint32_t oi : s.ops) add(p.cache_ops[oi].ev);
  return out;
}

EventId decided_by(const LoweredProgram& p, const Obligation& o) {
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      return p.accesses[o.fresh.read].ev;
    case Obligation::Kind::ReadFirst:
      return p.accesses[o.war.read].ev;
    default:
      return kNoEvent;
  }
}

ChainWatch chain_watch(const LoweredProgram& p, const Obligation& o, uint64_t line,
                       uint32_t dropped, const EventMap& map) {
  Shape sh = shape_of(p, o);
  ChainWatch w;
  w.a0 = map(sh.a0), w.b0 = map(sh.b0);
  w.ka = static_cast<int>(sh.sa->size()), w.kb = static_cast<int>(sh.sb->size());
  w.tie_violates = o.kind != Obligation::Kind::ReadFirst;
  w.slot.assign(map.local ? map.n : p.events.size(), -1);
  auto slot_of = [&](EventId e) {
    if (w.slot[e] < 0) {
      w.slot[e] = static_cast<int32_t>(w.relevant.size());
      w.relevant.push_back(e);
      w.roles_a.push_back(0), w.roles_b.push_back(0);
    }
    return w.slot[e];
  };
  slot_of(w.a0), slot_of(w.b0);
  auto add = [&](const std::vector<Step>& steps, std::vector<uint32_t>& roles) {
    for (size_t j = 0; j < steps.size(); ++j)
      for (uint32_t oi : steps[j].ops)
        if (const uint32_t e = map(p.cache_ops[oi].ev);
            e != EventMap::kOutside && p.cache_ops[oi].cov.covers(line)) {
          int s = slot_of(e);
          roles[s] |= 1u << j;
        }
  };
  add(*sh.sa, w.roles_a);
  add(*sh.sb, w.roles_b);
  for (size_t j = 1; j < sh.sa->size(); ++j)
    if (properties::joins_active(p, (*sh.sa)[j], dropped)) w.joins_a |= 1u << j;
  return w;
}

Outcome ChainWatch::advance(EventId e, Progress& s) const {
  int k = slot[e];
  if (k < 0) return Outcome::Open;
  const Progress old = s;
  if (e == a0 && s.ja < 0) s.ja = 0;
  if (e == b0 && s.jb < 0) s.jb = 0;
  if (old.ja >= 0 && old.ja < ka && (roles_a[k] >> old.ja & 1u)) {
    s.ja = static_cast<int8_t>(old.ja + 1);
    // The same operation crosses a joining step too (it wrote the line back, then invalidated).
    while (s.ja < ka && (joins_a >> s.ja & 1u) && (roles_a[k] >> s.ja & 1u)) ++s.ja;
  }
  if (old.jb >= 0 && old.jb < kb && (roles_b[k] >> old.jb & 1u))
    s.jb = static_cast<int8_t>(old.jb + 1);
  if (s.jb == kb && old.jb != kb)
    return s.ja == ka && !tie_violates ? Outcome::Safe : Outcome::Violated;
  if (s.ja == ka) return Outcome::Safe;
  return Outcome::Open;
}

// Soundness of firing "urgent" events at once (search.cpp relies on it): let e be enabled in
// state S, not advance chain A there, and either cross B's current step and no later step of B,
// or cross no remaining step of B at all. Take any violating continuation σ from S and move e to
// its front (valid: firing never disables, so every event of σ stays enabled). Chain A loses
// nothing: e fired now crosses no step of A, and later it could only have helped A. Chain B
// gains or is unaffected: in the first case e crosses B's current step at the earliest possible
// time, and as it has no later role in B, the operations of B's later steps are unchanged, so
// every later step of B can only come sooner; in the second case B does not see e at all. So
// e·σ' violates too, and branching only on the other events loses nothing. (An operation that
// could cross B's current step or a later one is a choice: using it now may waste it for the
// later step, as when it is the only operation of that step.)
bool ChainWatch::urgent(EventId e, const Progress& s) const {
  int k = slot[e];
  if (k < 0) return true;
  const bool a_adv = (e == a0 && s.ja < 0) || (s.ja >= 0 && s.ja < ka && (roles_a[k] >> s.ja & 1u));
  if (a_adv) return false;
  const bool b_adv = (e == b0 && s.jb < 0) || (s.jb >= 0 && s.jb < kb && (roles_b[k] >> s.jb & 1u));
  const uint32_t later = roles_b[k] & bits_from(s.jb + 1);
  if (b_adv) return later == 0;
  // Not crossing B's current step: urgent only if it can cross none of B's remaining steps.
  return (roles_b[k] & bits_from(s.jb)) == 0;
}

// The monitor depends on the line only through op.cov.covers(line) for the obligation's
// operations. covers() is constant between consecutive breakpoints (Range: lo, hi+1; Margin: lo,
// lo+span, hi+1-span, hi+1), so every maximal run of units with one signature inside [lo, hi] starts at lo
// or at a breakpoint: checking those units (one per distinct signature) decides every unit.
std::vector<uint64_t> line_units(const LoweredProgram& p, const Obligation& o) {
  if (!is_chain(o)) return {};
  Shape sh = shape_of(p, o);
  std::vector<uint32_t> ops;
  for (const auto* steps : {sh.sa, sh.sb})
    for (const Step& s : *steps) ops.insert(ops.end(), s.ops.begin(), s.ops.end());
  std::vector<uint64_t> cand{sh.lo};
  for (uint32_t oi : ops) {
    const Coverage& c = p.cache_ops[oi].cov;
    if (c.kind == Coverage::Kind::Range || c.kind == Coverage::Kind::Margin) {
      for (uint64_t b : {c.lo, c.hi + 1}) cand.push_back(b);
      if (c.kind == Coverage::Kind::Margin)
        for (uint64_t b : {c.lo + c.span, c.hi + 1 - c.span}) cand.push_back(b);
    }
  }
  std::sort(cand.begin(), cand.end());
  cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
  std::map<std::vector<bool>, uint64_t> by_signature;
  std::vector<uint64_t> out;
  for (uint64_t u : cand) {
    if (u < sh.lo || u > sh.hi) continue;
    std::vector<bool> sig;
    for (uint32_t oi : ops) sig.push_back(p.cache_ops[oi].cov.covers(u));
    if (by_signature.emplace(sig, u).second) out.push_back(u);
  }
  return out;
}

}  // namespace syncproof::exec
