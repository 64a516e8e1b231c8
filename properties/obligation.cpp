// Property definitions: how each property of a case decomposes into obligations on pairs of
// accesses. Both engines decide exactly these obligations.
#include "properties/obligation.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <variant>

#include "properties/access_index.h"
#include "properties/api_order.h"
#include "properties/hazard_pairs.h"

namespace syncproof::properties {

using namespace model;
using namespace detail;

const PropertyDef& property_def(PropertyKind k) {
  static const PropertyDef kDefs[] = {
      {PropertyKind::Visible, "P-VISIBLE",
       "every value B reads from what A wrote is A's value or a later one, in every execution"},
      {PropertyKind::Ordered, "P-ORDERED",
       "every memory access of A (and a sync's cache operations and write) is performed before "
       "B's first access or cache operation begins, in every execution"},
      {PropertyKind::NoHazards, "P-NO-HAZARDS",
       "every conflicting pair that API order sequences is synchronized; unordered conflicting "
       "pairs on different queues are races"},
      {PropertyKind::DeadlockFree, "P-DEADLOCK-FREE", "every wait is satisfied in every execution"},
  };
  return kDefs[static_cast<int>(k)];
}

const Command* find_labelled(const Case& c, const std::string& label, uint32_t* q, uint32_t* idx) {
  for (uint32_t qi = 0; qi < c.queues.size(); ++qi)
    for (uint32_t i = 0; i < c.queues[qi].commands.size(); ++i)
      if (c.queues[qi].commands[i].label == label) {
        *q = qi, *idx = i;
        return &c.queues[qi].commands[i];
      }
  return nullptr;
}

namespace {

// A command's events that are one of its memory accesses (for a write, issued and arrived at its
// first cache level) or, unless it is work, one of its cache operations, the value it writes, the
// fence value it signals or, for a wait, the poll that satisfied it (`performed`); or that begin
// one of those (its accesses issued, its cache operations, its write; a wait's polls have no
// event of their own, so none).
std::vector<EventId> memory_events(const LoweredProgram& p, uint32_t q, uint32_t c,
                                   bool performed) {
  const LoweredCommand& lc = p.command(q, c);
  std::vector<EventId> out;
  auto add = [&](EventId e) {
    if (e != kNoEvent && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  };
  for (uint32_t a : lc.accesses) {
    add(p.accesses[a].ev);
    if (performed && p.accesses[a].write) add(p.accesses[a].arrive);
  }
  if (std::holds_alternative<WorkCmd>(p.source->queues[q].commands[c].body)) return out;
  for (EventId e : lc.events) switch (p.events[e].kind) {
      case EventKind::CacheOp:
      case EventKind::ValueWrite:
      case EventKind::Signal:
        add(e);
        break;
      case EventKind::WaitDone:
        if (performed) add(e);
        break;
      default:
        break;
    }
  return out;
}

}  // namespace

std::vector<EventId> performed_events(const LoweredProgram& p, uint32_t q, uint32_t c) {
  return memory_events(p, q, c, true);
}

std::vector<EventId> begin_events(const LoweredProgram& p, uint32_t q, uint32_t c) {
  return memory_events(p, q, c, false);
}

// AccessGroups and OpTable have a name outside this file: ObligationTables keeps OpTables.
namespace detail {

// Some of a program's accesses grouped by the bytes they touch, plane and first level: accesses
// come per resource, so "which of them touch these bytes" looks at one group per resource, not
// at every access. Used for the writes through GL2 (line mates) and the render back-end accesses
// (fills).
class AccessGroups {
 public:
  template <class Keep>
  AccessGroups(const LoweredProgram& p, Keep keep) {
    std::map<std::tuple<uint64_t, uint64_t, Plane, Level>, size_t> at;
    for (uint32_t i = 0; i < p.accesses.size(); ++i) {
      const MemAccess& m = p.accesses[i];
      if (!keep(m)) continue;
      auto [it, fresh] = at.try_emplace({m.blo, m.bhi, m.plane, m.path[0]}, groups_.size());
      if (fresh) groups_.push_back({m.blo, m.bhi, m.plane, m.path[0], {}});
      groups_[it->second].members.push_back(i);
    }
  }
  // Calls f(access) for every kept access of `plane` (and first level `first`, unless
  // Level::Mem) touching a byte of lo..hi.
  template <class F>
  void touching(uint64_t lo, uint64_t hi, Plane plane, Level first, F f) const {
    touching_groups(lo, hi, plane, first, [&](size_t g) {
      for (uint32_t i : groups_[g].members) f(i);
    });
  }
  // The same, a group at a time: f(group index), in the order touching() takes them.
  template <class F>
  void touching_groups(uint64_t lo, uint64_t hi, Plane plane, Level first, F f) const {
    for (size_t i = 0; i < groups_.size(); ++i) {
      const Group& g = groups_[i];
      if (g.plane == plane && (first == Level::Mem || g.first == first) && g.blo <= hi &&
          lo <= g.bhi)
        f(i);
    }
  }
  size_t size() const { return groups_.size(); }
  const std::vector<uint32_t>& members(size_t g) const { return groups_[g].members; }

 private:
  struct Group {
    uint64_t blo, bhi;
    Plane plane;
    Level first;
    std::vector<uint32_t> members;
  };
  std::vector<Group> groups_;
};

// Every write-back (down) or invalidation (up) of each level, made once for a property's
// obligations: their steps share these lists instead of each holding a copy (12.3 million
// indices at 10,000 commands). Also each write through GL2 as a line mate (LineMate), made once:
// a frame that rewrites the same buffers every block gives its reads hundreds of mates each, and
// their down steps were made again for every read. `names_only`: the table serves a list whose
// obligations only their names are read of (obligations_for's list without value assumptions),
// and gives no line mates.
class OpTable {
 public:
  explicit OpTable(const LoweredProgram& p, bool names_only = false)
      : names_only_(names_only),
        gl2_(p, [](const MemAccess& m) { return m.write && m.path.index_of(Level::Gl2) >= 0; }),
        rb_(p, [](const MemAccess& m) { return m.rb; }) {
    std::array<std::array<std::vector<uint32_t>, 2>, kLevelCount> by;
    for (uint32_t i = 0; i < p.cache_ops.size(); ++i) {
      const CacheOp& op = p.cache_ops[i];
      if (op.cov.kind == Coverage::Kind::Nothing) continue;
      if (op.writeback) by[static_cast<size_t>(op.level)][1].push_back(i);
      if (op.invalidate) by[static_cast<size_t>(op.level)][0].push_back(i);
    }
    for (size_t l = 0; l < kLevelCount; ++l)
      for (size_t d = 0; d < 2; ++d) lists_[l][d] = OpList(std::move(by[l][d]));
    if (names_only_) return;
    std::vector<uint32_t> mate_of(p.accesses.size(), UINT32_MAX);  // by access: index in mates_
    std::vector<LineMate> mates;
    std::map<std::vector<Level>, util::SharedList<Step>> by_path;  // the mates' steps, shared
    for (uint32_t i = 0; i < p.accesses.size(); ++i) {
      const MemAccess& x = p.accesses[i];
      if (!x.write || x.path.index_of(Level::Gl2) < 0) continue;
      std::vector<Level> levels;  // its down steps: from its first level to memory
      for (int j = 0; j + 1 < x.path.size; ++j) levels.push_back(x.path[j]);
      auto [it, fresh] = by_path.try_emplace(levels);
      if (fresh) {
        std::vector<Step> steps;
        for (Level l : levels) steps.push_back({l, true, at(l, true)});
        it->second = std::move(steps);
      }
      mate_of[i] = static_cast<uint32_t>(mates.size());
      mates.push_back({i, gl2_first_unit(x.blo), gl2_last_unit(x.bhi), it->second});
    }
    mates_ = std::make_shared<const std::vector<LineMate>>(std::move(mates));
    // Each group of writes through GL2 as a list of mate indices, shared by the reads' lists,
    // and each write by its event, with its place in its group (a bottom-of-pipe value's two).
    for (size_t g = 0; g < gl2_.size(); ++g) {
      std::vector<uint32_t> list;
      for (uint32_t a : gl2_.members(g)) {
        by_event_.push_back({p.accesses[a].ev, g, static_cast<uint32_t>(list.size())});
        list.push_back(mate_of[a]);
      }
      group_mates_.push_back(std::make_shared<const std::vector<uint32_t>>(std::move(list)));
    }
    std::sort(by_event_.begin(), by_event_.end());
  }
  const OpList& at(Level l, bool down) const { return lists_[static_cast<size_t>(l)][down]; }
  const AccessGroups& gl2() const { return gl2_; }  // the writes through GL2
  const AccessGroups& rb() const { return rb_; }    // the render back-end accesses
  bool names_only() const { return names_only_; }
  // An empty list of line mates over the table of every write through GL2.
  MateList no_mates() const { return MateList(mates_); }
  // The writes through GL2 to lo..hi of `plane` but those of event `except`, in the order of
  // gl2().touching(), onto `out`.
  void append_mates(uint64_t lo, uint64_t hi, Plane plane, EventId except, MateList& out) const {
    const auto first = std::lower_bound(by_event_.begin(), by_event_.end(),
                                        std::tuple<EventId, size_t, uint32_t>{except, 0, 0});
    gl2_.touching_groups(lo, hi, plane, Level::Mem, [&](size_t g) {
      const MateList::Indices& list = group_mates_[g];
      uint32_t from = 0;
      for (auto it = first; it != by_event_.end() && std::get<0>(*it) == except; ++it)
        if (std::get<1>(*it) == g) {  // in group order (sorted)
          out.append(list, from, std::get<2>(*it));
          from = std::get<2>(*it) + 1;
        }
      out.append(list, from, static_cast<uint32_t>(list->size()));
    });
  }

 private:
  bool names_only_;
  std::array<std::array<OpList, 2>, kLevelCount> lists_;
  AccessGroups gl2_, rb_;
  MateList::Table mates_;
  std::vector<MateList::Indices> group_mates_;  // by group of gl2_: its mates' indices
  std::vector<std::tuple<EventId, size_t, uint32_t>> by_event_;  // (event, group, place), sorted
};

}  // namespace detail

struct ObligationTables::Parts {
  const LoweredProgram& p;
  std::array<std::optional<OpTable>, 2> op_tables;    // by names_only
  std::array<std::optional<ApiOrder>, 2> orders;      // by value_assumptions
  std::array<std::optional<AccessIndex>, 2> indexes;  // over orders[value_assumptions]
  const OpTable& ops(bool names_only) {
    std::optional<OpTable>& o = op_tables[names_only];
    if (!o) o.emplace(p, names_only);
    return *o;
  }
  const ApiOrder& api(bool value_assumptions) {
    std::optional<ApiOrder>& o = orders[value_assumptions];
    if (!o) o.emplace(p, value_assumptions);
    return *o;
  }
  const AccessIndex& index(bool value_assumptions) {
    std::optional<AccessIndex>& x = indexes[value_assumptions];
    if (!x) x.emplace(p, api(value_assumptions));
    return *x;
  }
};

namespace {

// Where a write's data and a reader's path meet. When GL2 is not coherent between the render
// back-ends and the other clients (target gl2-rb-coherent no, research §2.3), data crossing
// between them must meet in memory: a GL2 write-back, then a GL2 invalidation.
int meeting_index(const LoweredProgram& p, const MemAccess& w, const MemAccess& r, int* in_read) {
  const bool split = !p.config.target.gl2_rb_coherent && w.rb != r.rb &&
                     w.kind != AccessKind::Host && r.kind != AccessKind::Host;
  for (int i = 0; i < w.path.size; ++i) {
    if (split && w.path[i] == Level::Gl2) continue;
    int j = r.path.index_of(w.path[i]);
    if (j >= 0) {
      *in_read = j;
      return i;
    }
  }
  *in_read = r.path.size - 1;
  return w.path.size - 1;
}

std::vector<Step> down_steps(const OpTable& ops, const MemAccess& w, int upto) {
  std::vector<Step> steps;
  for (int i = 0; i < upto; ++i) steps.push_back({w.path[i], true, ops.at(w.path[i], true)});
  return steps;
}

Freshness freshness(const LoweredProgram& p, const OpTable& ops, uint32_t wi, uint32_t ri) {
  const MemAccess& w = p.accesses[wi];
  const MemAccess& r = p.accesses[ri];
  Freshness f{wi, ri, 0, 0, {}, -1, {}, -1, {}};
  overlap(w, r, &f.lo, &f.hi);
  int mr = 0;
  int mw = meeting_index(p, w, r, &mr);
  f.steps = down_steps(ops, w, mw);
  for (int i = mr - 1; i >= 0; --i) {
    const bool joins = !f.steps.empty() && f.steps.back().down && f.steps.back().level == r.path[i];
    if (r.path[i] == Level::Gl2) f.gl2_up = static_cast<int>(f.steps.size());
    if (r.rb && i == 0) f.rb_up = static_cast<int>(f.steps.size());
    f.steps.push_back({r.path[i], false, ops.at(r.path[i], false), joins});
  }
  const uint64_t blo = std::max(w.blo, r.blo), bhi = std::min(w.bhi, r.bhi);
  if (f.gl2_up >= 0 && !ops.names_only()) {
    // The writes through GL2 to the GL2 lines of the bytes both touch (R-GL2-INV-KEEPS-DIRTY),
    // but the write itself (and its other path: a bottom-of-pipe value's two accesses share an
    // event).
    const uint64_t line_lo = blo / kLineBytes * kLineBytes;
    const uint64_t line_hi = bhi / kLineBytes * kLineBytes + (kLineBytes - 1);
    f.mates = ops.no_mates();
    ops.append_mates(line_lo, line_hi, w.plane, w.ev, f.mates);
  }
  if (f.rb_up >= 0) {
    // The render back-end accesses that may fill the reader's cache with the read's 256-byte
    // blocks (R-RB-FILL-ON-ACCESS), but the read itself.
    const uint64_t block_lo = blo / kCoherBytes * kCoherBytes;
    const uint64_t block_hi = bhi / kCoherBytes * kCoherBytes + (kCoherBytes - 1);
    constexpr uint64_t per_block = kCoherBytes / kUnitBytes;
    ops.rb().touching(block_lo, block_hi, r.plane, r.path[0], [&](uint32_t m) {
      const MemAccess& x = p.accesses[m];
      if (x.ev == r.ev) return;
      f.fills.push_back(
          {x.ev, x.blo / kCoherBytes * per_block, (x.bhi / kCoherBytes + 1) * per_block - 1});
    });
  }
  return f;
}

std::string access_name(const LoweredProgram& p, uint32_t a) {
  const MemAccess& m = p.accesses[a];
  const Case& c = *p.source;
  return fmt::format("{} {} line {}{}", m.write ? "write of" : "read of", object_name(c, m),
                     c.queues[m.queue].commands[m.cmd].loc.line,
                     m.only_without ? " (straight to memory)" : "");
}

// An obligation on a path a write takes only without an assumption holds vacuously under it.
void inherit_path(const LoweredProgram& p, Obligation& o, uint32_t a, uint32_t b) {
  if (p.accesses[a].only_without) o.only_without = p.accesses[a].only_without;
  if (p.accesses[b].only_without) o.only_without = p.accesses[b].only_without;
}

// `visible ... on R`: the access is to R, or (a label word) overlaps R's bytes.
bool on_resource(const Case& c, const MemAccess& m, uint32_t r) {
  if (m.resource != kNoObject) return m.resource == r;
  const Resource& res = c.resources[r];
  return m.blo <= res.address + (res.size - 1) && m.bhi >= res.address;
}

Obligation fresh_obligation(const LoweredProgram& p, const OpTable& ops, uint32_t w, uint32_t r) {
  Obligation o{Obligation::Kind::Fresh, {}, freshness(p, ops, w, r), {}, {}, {}, {}, {}};
  o.name = fmt::format("fresh: {} -> {}", access_name(p, w), access_name(p, r));
  inherit_path(p, o, w, r);
  return o;
}

}  // namespace

bool wb_inv_drops_dirty(const LoweredProgram& p, uint32_t dropped) {
  const auto a = AssumptionId::Gl2WbBeforeInv;
  return p.config.assumptions.enabled(a) && !(dropped & (1u << static_cast<int>(a)));
}

bool fill_rule(const LoweredProgram& p, const Freshness& f, uint32_t dropped) {
  const auto a = AssumptionId::RbFillOnAccess;
  return f.rb_up >= 0 && p.config.assumptions.enabled(a) && !(dropped & assumption_bit(a));
}

MateList MateList::own(std::vector<LineMate> mates) {
  MateList l(std::make_shared<const std::vector<LineMate>>(std::move(mates)));
  std::vector<uint32_t> all(l.table_->size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  l.append(std::make_shared<const std::vector<uint32_t>>(std::move(all)), 0,
           static_cast<uint32_t>(l.table_->size()));
  return l;
}

bool joins_active(const LoweredProgram& p, const Step& s, uint32_t dropped) {
  return s.joins && wb_inv_drops_dirty(p, dropped);
}

Freshness freshness(const LoweredProgram& p, uint32_t wi, uint32_t ri) {
  return freshness(p, OpTable(p), wi, ri);
}

namespace {

Obligation write_order_obligation(const LoweredProgram& p, const OpTable& ops, uint32_t x,
                                  uint32_t y, uint64_t lo, uint64_t hi) {
  const MemAccess& ax = p.accesses[x];
  const MemAccess& ay = p.accesses[y];
  Obligation o{Obligation::Kind::WriteOrder, {}, {}, {}, {x, y, lo, hi, {}, {}}, {}, {}, {}};
  o.name = fmt::format("waw: {} -> {}", access_name(p, x), access_name(p, y));
  inherit_path(p, o, x, y);
  int mr = 0;
  int mw = meeting_index(p, ax, ay, &mr);  // ay's path seen as a reader's
  o.waw.first_steps = down_steps(ops, ax, mw);
  o.waw.second_steps = down_steps(ops, ay, mr);
  return o;
}

// The writes a read of A's data may see instead of it because they are older: every other write
// of the same bytes (and plane) that API order does not put after A's write, nor after the read.
// A's data must reach their meeting level after theirs (a WriteOrder obligation), or an older
// value — a dirty line evicted late, a dirty GL2 line a GL2_INVALIDATE keeps — can be what the
// read returns (SEMANTICS.md P-VISIBLE, "older writes").
// `index` (null: a scan of every access) finds the shadowing writes between a candidate and A's
// write (they overlap there).
void older_writes(const LoweredProgram& p, const OpTable& ops, const ApiOrder& hb,
                  const AccessIndex* index, uint32_t w, uint32_t r, std::vector<Obligation>& out) {
  const MemAccess& aw = p.accesses[w];
  const MemAccess& ar = p.accesses[r];
  for (uint32_t x = 0; x < p.accesses.size(); ++x) {
    const MemAccess& ax = p.accesses[x];
    if (!ax.write || ax.plane != aw.plane || (ax.queue == aw.queue && ax.cmd == aw.cmd)) continue;
    if (ax.kind == AccessKind::Label && aw.kind == AccessKind::Label) continue;
    if (hb.before(aw.queue, aw.cmd, ax.queue, ax.cmd) ||
        hb.before(ar.queue, ar.cmd, ax.queue, ax.cmd))
      continue;
    const uint64_t blo = std::max({ax.blo, aw.blo, ar.blo}),
                   bhi = std::min({ax.bhi, aw.bhi, ar.bhi});
    if (blo > bhi || shadowed_write(p, hb, x, w, index)) continue;
    Obligation o = write_order_obligation(p, ops, x, w, blo / kUnitBytes, bhi / kUnitBytes);
    const bool dup = std::any_of(out.begin(), out.end(), [&](const Obligation& e) {
      return e.kind == o.kind && e.waw.first == x && e.waw.second == w && e.waw.lo == o.waw.lo &&
             e.waw.hi == o.waw.hi;
    });
    if (!dup) out.push_back(std::move(o));
  }
}

Obligations visible(const LoweredProgram& p, const Property& prop, bool scan_all,
                    bool value_assumptions, bool names_only, ObligationTables::Parts& t) {
  Obligations out;
  const Case& c = *p.source;
  uint32_t qa, ia, qb, ib;
  if (!find_labelled(c, prop.from, &qa, &ia) || !find_labelled(c, prop.to, &qb, &ib)) {
    out.error = "unknown command label";
    return out;
  }
  const ApiOrder* hb = nullptr;
  const AccessIndex* index = nullptr;
  const OpTable& ops = t.ops(names_only);
  for (uint32_t w : p.command(qa, ia).accesses)
    for (uint32_t r : p.command(qb, ib).accesses) {
      const MemAccess& aw = p.accesses[w];
      const MemAccess& ar = p.accesses[r];
      uint64_t lo, hi;
      if (!aw.write || ar.write || !overlap(aw, ar, &lo, &hi)) continue;
      if (prop.resource && !on_resource(c, aw, *prop.resource)) continue;
      if (prop.resource && !on_resource(c, ar, *prop.resource)) continue;
      out.list.push_back(fresh_obligation(p, ops, w, r));
      if (!hb) hb = &t.api(value_assumptions);
      if (!index && !scan_all) index = &t.index(value_assumptions);
      older_writes(p, ops, *hb, index, w, r, out.list);
    }
  if (hb) out.relies = hb->relies();
  if (out.list.empty())
    out.error = fmt::format("vacuous: {} reads nothing that {} writes{}", prop.to, prop.from,
                            prop.resource ? " on that resource" : "");
  return out;
}

Obligations ordered(const LoweredProgram& p, const Property& prop) {
  Obligations out;
  const Case& c = *p.source;
  uint32_t qa, ia, qb, ib;
  if (!find_labelled(c, prop.from, &qa, &ia) || !find_labelled(c, prop.to, &qb, &ib)) {
    out.error = "unknown command label";
    return out;
  }
  Obligation o{Obligation::Kind::Ordered,
               fmt::format("ordered: {} -> {}", prop.from, prop.to),
               {},
               {},
               {},
               {},
               {},
               {}};
  // P-ORDERED (SEMANTICS.md §6): everything A does to memory is performed before B begins
  // anything it does to memory. A command with nothing of either kind gives no property to
  // check, never a vacuous proof.
  o.ordering.before = performed_events(p, qa, ia);
  o.ordering.after = begin_events(p, qb, ib);
  if (o.ordering.before.empty()) {
    out.error = fmt::format(
        "vacuous: {} performs no memory access, cache operation or write here: there is "
        "nothing of it to order",
        prop.from);
    return out;
  }
  if (o.ordering.after.empty()) {
    out.error = fmt::format(
        "vacuous: {} begins no memory access, cache operation or write here (a wait's polls "
        "are not placed in time): order A before the command after it",
        prop.to);
    return out;
  }
  out.list.push_back(std::move(o));
  return out;
}

Obligation pair_obligation(const LoweredProgram& p, const OpTable& ops, const PairQuestion& q) {
  const uint32_t x = q.x, y = q.y;
  switch (q.kind) {
    case Obligation::Kind::Race: {
      Obligation o{Obligation::Kind::Race, {}, {}, {}, {}, {}, {x, y}, {}};
      o.name = fmt::format("race: {} / {}", access_name(p, x), access_name(p, y));
      return o;
    }
    case Obligation::Kind::Fresh:
      return fresh_obligation(p, ops, x, y);
    case Obligation::Kind::ReadFirst: {
      Obligation o{Obligation::Kind::ReadFirst, {}, {}, {}, {}, {x, y, q.lo, q.hi, {}}, {}, {}};
      o.name = fmt::format("war: {} -> {}", access_name(p, x), access_name(p, y));
      inherit_path(p, o, x, y);
      int mr = 0;
      int mw = meeting_index(p, p.accesses[y], p.accesses[x], &mr);
      o.war.steps = down_steps(ops, p.accesses[y], mw);
      return o;
    }
    default:
      return write_order_obligation(p, ops, x, y, q.lo, q.hi);
  }
}

Obligations no_hazards(const LoweredProgram& p, bool scan_all, bool value_assumptions,
                       bool names_only, size_t limit, ObligationTables::Parts& t) {
  Obligations out;
  const OpTable& ops = t.ops(names_only);
  const ApiOrder& hb = t.api(value_assumptions);
  out.relies = hb.relies();
  const std::vector<PairQuestion> pairs =
      hazard_pairs(p, hb, scan_all, limit, scan_all ? nullptr : &t.index(value_assumptions));
  const size_t size = std::min(pairs.size(), limit == SIZE_MAX ? limit : limit + 1);
  if (names_only) {
    out.names.reserve(size);
    for (size_t i = 0; i < size; ++i) out.names.push_back(pair_obligation(p, ops, pairs[i]).name);
    return out;
  }
  out.list.reserve(size);
  for (size_t i = 0; i < size; ++i) out.list.push_back(pair_obligation(p, ops, pairs[i]));
  return out;
}

// `names_only`: only the obligations' names, in Obligations::names (and for visible, the Fresh
// ones made without line mates).
Obligations obligations_with(const LoweredProgram& p, const Property& prop, bool scan_all,
                             ObligationTables::Parts& t, bool value_assumptions,
                             bool names_only = false, size_t limit = SIZE_MAX) {
  auto only_names = [&](Obligations o) {
    if (names_only) {
      for (Obligation& x : o.list) o.names.push_back(std::move(x.name));
      o.list.clear();
    }
    return o;
  };
  switch (prop.kind) {
    case PropertyKind::Visible:
      return only_names(visible(p, prop, scan_all, value_assumptions, names_only, t));
    case PropertyKind::Ordered:
      return only_names(ordered(p, prop));
    case PropertyKind::NoHazards:
      return no_hazards(p, scan_all, value_assumptions, names_only, limit, t);
    case PropertyKind::DeadlockFree:
      return {};
  }
  return {};
}

}  // namespace

ObligationTables::ObligationTables(const LoweredProgram& p)
    : parts_(std::make_unique<Parts>(Parts{p, {}, {}, {}})) {}
ObligationTables::~ObligationTables() = default;
const LoweredProgram& ObligationTables::program() const {
  return parts_->p;
}

Obligations obligations_for(const LoweredProgram& p, const Property& prop, bool scan_all,
                            ObligationTables* tables) {
  std::optional<ObligationTables> own;
  if (!tables || &tables->program() != &p) tables = &own.emplace(p);
  ObligationTables::Parts& t = *tables->parts_;
  Obligations out = obligations_with(p, prop, scan_all, t, true);
  if (out.relies && out.error.empty()) {
    // Whether the waits that rest on a value assumption changed the list: if they did, the
    // pairs it left out or the order it gave them hold only with those assumptions.
    // Without them, API order orders less, so the list is usually longer: made only until it is
    // (at a 20,000-command frame, a complete one held 3 million races, 839 MB).
    Obligations without = obligations_with(p, prop, scan_all, t, false, true, out.list.size());
    std::vector<std::string_view> names;
    for (const Obligation& o : out.list) names.push_back(o.name);
    std::sort(names.begin(), names.end());
    std::sort(without.names.begin(), without.names.end());
    if (std::equal(names.begin(), names.end(), without.names.begin(), without.names.end()))
      out.relies = 0;
  }
  return out;
}

}  // namespace syncproof::properties
