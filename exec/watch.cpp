#include "exec/watch.h"

#include <algorithm>
#include <map>
#include <unordered_set>

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

// A mate role bit: the event is the mate's arrival (its step bits are 0 .. 30).
constexpr uint32_t kArrives = 1u << 31;

uint32_t bits_from(int j) {  // bits j, j+1, ... (j may be -1: all)
  return j < 0 ? ~0u : ~((1u << j) - 1u);
}

// Whether entry k of a quiet list (MustOrder::Quiet) is set; an empty list leaves none out.
bool left_out(const std::vector<char>* list, size_t k) {
  return list && k < list->size() && (*list)[k];
}

}  // namespace

bool is_chain(const Obligation& o) {
  return o.kind == Obligation::Kind::Fresh || o.kind == Obligation::Kind::WriteOrder ||
         o.kind == Obligation::Kind::ReadFirst;
}

std::vector<EventId> watched_events(const LoweredProgram& p, const Obligation& o,
                                    const std::vector<char>* after_read, const EventMap& map,
                                    const properties::MustOrder::Quiet* quiet) {
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
  // Steps share their operation lists (a level's every write-back), and hundreds of line mates
  // share their steps: each list is added once. A frame's whole-program minimization otherwise
  // listed every write-back of the level once per mate (a vector of 134 MB at 50,000 commands).
  std::unordered_set<const void*> lists;
  auto add_step = [&](const Step& s) {
    if (lists.insert(s.ops.id()).second)
      for (uint32_t oi : s.ops) add(p.cache_ops[oi].ev);
  };
  for (const auto* steps : {sh.sa, sh.sb})
    for (const Step& s : *steps) add_step(s);
  if (o.kind == Obligation::Kind::Fresh && o.fresh.gl2_up >= 0) {
    const void* last_steps = nullptr;  // the mates of one path share their steps
    for (size_t k = 0; k < o.fresh.mates.size(); ++k) {
      if (left_out(quiet ? &quiet->mates : nullptr, k)) continue;
      const properties::LineMate& m = o.fresh.mates[k];
      add(p.accesses[m.access].arrive);
      if (m.steps.id() == last_steps) continue;
      last_steps = m.steps.id();
      for (const Step& s : m.steps) add_step(s);
    }
  }
  if (o.kind == Obligation::Kind::Fresh)
    for (size_t k = 0; k < o.fresh.fills.size(); ++k)
      if (!left_out(quiet ? &quiet->fills : nullptr, k)) add(o.fresh.fills[k].ev);
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
                       uint32_t dropped, const EventMap& map,
                       const properties::MustOrder::Quiet* quiet) {
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
  // The line mates of a Fresh obligation's GL2 step (properties::LineMate), on this line.
  std::vector<std::tuple<int32_t, uint32_t, uint32_t>> moves;  // (slot, mate, role bits)
  if (o.kind == Obligation::Kind::Fresh && o.fresh.gl2_up >= 0) {
    w.gl2_up = o.fresh.gl2_up;
    for (size_t k = 0; k < o.fresh.mates.size(); ++k) {
      const properties::LineMate& m = o.fresh.mates[k];
      if (!m.relevant(line) || left_out(quiet ? &quiet->mates : nullptr, k)) continue;
      const auto mi = static_cast<uint32_t>(w.mates.size());
      const EventId arrive = map(p.accesses[m.access].arrive);
      w.mates.push_back({arrive, static_cast<int>(m.steps.size())});
      if (arrive == EventMap::kOutside) continue;  // dirty throughout: no event moves it
      moves.emplace_back(slot_of(arrive), mi, kArrives);
      for (size_t j = 0; j < m.steps.size(); ++j)
        for (uint32_t oi : m.steps[j].ops)
          if (const uint32_t e = map(p.cache_ops[oi].ev);
              e != EventMap::kOutside && p.cache_ops[oi].cov.covers(line))
            moves.emplace_back(slot_of(e), mi, 1u << j);
    }
  }
  w.mate_roles.assign(w.relevant.size(), {});
  for (auto [k, mi, bits] : moves) {
    auto& v = w.mate_roles[k];
    if (!v.empty() && v.back().first == mi)
      v.back().second |= bits;
    else
      v.push_back({mi, bits});
  }
  // The fills of the render back-end step's cache (properties::RbFill): unless one runs outside
  // the graph (at a time nothing says), the rule holds on this line.
  std::vector<EventId> fills;
  if (o.kind == Obligation::Kind::Fresh && properties::fill_rule(p, o.fresh, dropped)) {
    bool outside = false;
    for (size_t k = 0; k < o.fresh.fills.size(); ++k)
      if (const properties::RbFill& f = o.fresh.fills[k];
          f.relevant(line) && !left_out(quiet ? &quiet->fills : nullptr, k)) {
        const EventId e = map(f.ev);
        outside = outside || e == EventMap::kOutside;
        fills.push_back(e);
      }
    if (!outside) {
      w.rb_up = o.fresh.rb_up;
      for (EventId& e : fills) e = static_cast<EventId>(slot_of(e));
    } else {
      fills.clear();
    }
  }
  w.mate_roles.resize(w.relevant.size());
  w.fill_slot.assign(w.relevant.size(), 0);
  for (EventId k : fills) w.fill_slot[k] = 1;
  w.drops_dirty.assign(w.relevant.size(), 0);
  if (w.gl2_up >= 0 && properties::wb_inv_drops_dirty(p, dropped))
    for (uint32_t oi : (*sh.sa)[w.gl2_up].ops)
      if (const uint32_t e = map(p.cache_ops[oi].ev);
          e != EventMap::kOutside && w.slot[e] >= 0 && p.cache_ops[oi].writeback)
        w.drops_dirty[w.slot[e]] = 1;
  return w;
}

Progress ChainWatch::start() const {
  Progress s;
  s.mates.resize(mates.size(), -1);
  for (size_t m = 0; m < mates.size(); ++m)
    if (mates[m].arrive == kNoEvent) s.mates[m] = 0;
  return s;
}

bool ChainWatch::gl2_open(int k, const Progress& s) const {
  if (drops_dirty[k]) return true;
  for (size_t m = 0; m < mates.size(); ++m)
    if (s.mates[m] >= 0 && s.mates[m] < mates[m].steps) return false;  // in GL2, dirty
  return true;
}

Outcome ChainWatch::advance(EventId e, Progress& s) const {
  int k = slot[e];
  if (k < 0) return Outcome::Open;
  const int8_t old_ja = s.ja, old_jb = s.jb;
  if (e == a0 && s.ja < 0) s.ja = 0;
  if (e == b0 && s.jb < 0) s.jb = 0;
  // On the GL2 step the operation carries the data only if no mate holds the line dirty as it
  // runs: judged before it moves any mate (written back by this very operation is not before it).
  if (old_ja >= 0 && old_ja < ka && (roles_a[k] >> old_ja & 1u) &&
      (old_ja != gl2_up || gl2_open(k, s))) {
    s.ja = static_cast<int8_t>(old_ja + 1);
    // The same operation crosses a joining step too (it wrote the line back, then invalidated).
    while (s.ja < ka && (joins_a >> s.ja & 1u) && (roles_a[k] >> s.ja & 1u)) ++s.ja;
  }
  for (auto [m, bits] : mate_roles[k]) {
    int8_t& at = s.mates[m];
    if (at < 0) {
      if (bits & kArrives) at = 0;
    } else if (at < mates[m].steps && (bits >> at & 1u)) {
      ++at;
    }
  }
  if (rb_up >= 0) {
    if (fill_slot[k]) s.stale_fill = 1;
    if (roles_a[k] >> rb_up & 1u) s.stale_fill = 0;  // a covering invalidation of the step
    // Reached the render back-end step with no stale fill: across at once.
    if (s.ja == rb_up && old_ja != rb_up && !s.stale_fill) ++s.ja;
  }
  if (old_jb >= 0 && old_jb < kb && (roles_b[k] >> old_jb & 1u))
    s.jb = static_cast<int8_t>(old_jb + 1);
  if (s.jb == kb && old_jb != kb)
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
//
// A line mate's events (its arrival, the operations that move it to memory) are choices until
// chain A has crossed its GL2 step: an arrival may hold an invalidation shut or be written back
// by the next write-back, and a write-back may clean the line. An operation of the GL2 step that
// a mate holds shut now crosses nothing of chain A: it is urgent when it moves no mate (fired
// now it is wasted, which can only help a violation).
bool ChainWatch::urgent(EventId e, const Progress& s) const {
  int k = slot[e];
  if (k < 0) return true;
  if (!mate_roles[k].empty() && s.ja <= gl2_up) return false;
  // A fill, and an invalidation of the render back-end step, decide before the chain gets there
  // whether it may cross at once.
  if (rb_up >= 0 && s.ja < rb_up && (fill_slot[k] || (roles_a[k] >> rb_up & 1u))) return false;
  const bool a_adv =
      (e == a0 && s.ja < 0) ||
      (s.ja >= 0 && s.ja < ka && (roles_a[k] >> s.ja & 1u) && (s.ja != gl2_up || gl2_open(k, s)));
  if (a_adv) return false;
  const bool b_adv = (e == b0 && s.jb < 0) || (s.jb >= 0 && s.jb < kb && (roles_b[k] >> s.jb & 1u));
  const uint32_t later = roles_b[k] & bits_from(s.jb + 1);
  if (b_adv) return later == 0;
  // Not crossing B's current step: urgent only if it can cross none of B's remaining steps.
  return (roles_b[k] & bits_from(s.jb)) == 0;
}

// The monitor depends on the line only through op.cov.covers(line) for the obligation's
// operations (its line mates' too) and through which mates and render back-end fills are relevant
// there. covers() is constant between consecutive breakpoints (Range: lo, hi+1; Margin: lo,
// lo+span, hi+1-span, hi+1), and so is a mate's or a fill's relevance (lo, hi+1), so every maximal
// run of units with one signature inside [lo, hi] starts at lo or at a breakpoint: checking those
// units (one per distinct signature) decides every unit.
std::vector<uint64_t> line_units(const LoweredProgram& p, const Obligation& o) {
  if (!is_chain(o)) return {};
  Shape sh = shape_of(p, o);
  // One unit: it is its own class (every candidate below but lo lies outside [lo, hi]).
  if (sh.lo == sh.hi) return {sh.lo};
  std::vector<uint32_t> ops;
  for (const auto* steps : {sh.sa, sh.sb})
    for (const Step& s : *steps) ops.insert(ops.end(), s.ops.begin(), s.ops.end());
  // The units where some class may start: lo, and every breakpoint inside (lo, hi].
  std::vector<uint64_t> cand{sh.lo};
  auto breakpoint = [&](uint64_t b) {
    if (b > sh.lo && b <= sh.hi) cand.push_back(b);
  };
  // A unit's class is what covers it and which mates and fills it is relevant to: the same
  // operation or the same range twice adds nothing to it (a read's hundreds of mates share a few
  // step lists and ranges), nor does a range relevant to every unit of [lo, hi] or to none.
  auto splits = [&](uint64_t lo, uint64_t hi) { return lo > sh.lo || hi < sh.hi; };
  // A line mate matters on the units of its GL2 lines, and through its own operations' coverage
  // (which the monitor reads only on those units).
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // mates', then fills'
  std::vector<const void*> lists;                     // the mates' step lists taken
  if (o.kind == Obligation::Kind::Fresh && o.fresh.gl2_up >= 0)
    for (const properties::LineMate& m : o.fresh.mates) {
      if (m.hi < sh.lo || m.lo > sh.hi) continue;
      for (const Step& s : m.steps)
        if (std::find(lists.begin(), lists.end(), s.ops.id()) == lists.end()) {
          lists.push_back(s.ops.id());
          ops.insert(ops.end(), s.ops.begin(), s.ops.end());
        }
      if (splits(m.lo, m.hi) && (ranges.empty() || ranges.back() != std::pair(m.lo, m.hi)))
        ranges.push_back({m.lo, m.hi});
    }
  // A render back-end fill matters on the units of its 256-byte blocks (chain_watch keeps only
  // the fills relevant to the unit): a unit that one fills and another that none does are of
  // different classes.
  if (o.kind == Obligation::Kind::Fresh && o.fresh.rb_up >= 0)
    for (const properties::RbFill& f : o.fresh.fills)
      if (f.hi >= sh.lo && f.lo <= sh.hi && splits(f.lo, f.hi)) ranges.push_back({f.lo, f.hi});
  std::sort(ranges.begin(), ranges.end());
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  for (const auto& [lo, hi] : ranges) breakpoint(lo), breakpoint(hi + 1);
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  for (uint32_t oi : ops) {
    const Coverage& c = p.cache_ops[oi].cov;
    if (c.kind == Coverage::Kind::Range || c.kind == Coverage::Kind::Margin) {
      breakpoint(c.lo), breakpoint(c.hi + 1);
      if (c.kind == Coverage::Kind::Margin)
        breakpoint(c.lo + c.span), breakpoint(c.hi + 1 - c.span);
    }
  }
  std::sort(cand.begin(), cand.end());
  cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
  if (cand.size() == 1) return cand;  // one class
  std::map<std::vector<bool>, uint64_t> by_signature;
  std::vector<uint64_t> out;
  for (uint64_t u : cand) {
    std::vector<bool> sig;
    for (uint32_t oi : ops) sig.push_back(p.cache_ops[oi].cov.covers(u));
    for (const auto& [lo, hi] : ranges) sig.push_back(lo <= u && u <= hi);
    if (by_signature.emplace(sig, u).second) out.push_back(u);
  }
  return out;
}

}  // namespace syncproof::exec
