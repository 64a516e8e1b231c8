#pragma once
// Properties, each with a stable ID and one definition in two forms side by side:
//  - the decomposition into obligations (shared by both engines, this file),
//  - the concrete monitor that decides an obligation on one execution (monitor.h), and
//  - the symbolic form that asks the solver for a violating execution (encode/obligations.cpp),
//    which encodes exactly the negation of what the monitor checks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/events.h"
#include "util/shared_list.h"

namespace syncproof::properties {

struct PropertyDef {
  model::PropertyKind kind;
  const char* id;           // stable: P-VISIBLE, P-ORDERED, P-NO-HAZARDS, P-DEADLOCK-FREE
  const char* description;  // one line
};
const PropertyDef& property_def(model::PropertyKind k);

// One step of a write's data towards a read: the data moves across `level` when one of `ops`
// (indices into LoweredProgram::cache_ops) covering the line happens after the previous step.
// Down steps write back a level towards memory; up steps invalidate a level towards the reader.
//
// Arrival windows (SEMANTICS.md §4, "Write-back caches evict"): every level a write's data
// crosses on the way down (CB, DB, their metadata caches, stream-out, GL2) is write-back, and a
// dirty line may leave it at any time after it arrived: the data crosses a down step at a free
// time in (arrival at the level, first covering write-back after that]. So
//  - the LATEST a write's data can reach a level is the chain of first covering write-backs
//    (properties::follow_chain; never, if a step has none);
//  - the EARLIEST is right after it reached its first level (its `arrive` event), whatever the
//    operations: an eviction can take it all the way down at once.
// A read that must see a write (Fresh) reckons with the latest arrival — freshness is monotone
// in the arrival time, so the latest end of each window is the worst case; a write that must not
// be seen yet (ReadFirst) or not be overtaken (WriteOrder, the later write) with the earliest.
// The operations of a step, shared (read-only) by every step of a property's obligations that
// uses the same list: every write-back (or invalidation) of one level.
using OpList = util::SharedList<uint32_t>;

struct Step {
  model::Level level;
  bool down;
  OpList ops;
  // An up step right after a down step across the same level (GL2 on the split RB/TC path):
  // under A-GL2-WB-BEFORE-INV the write-back+invalidate operation that crossed the down step
  // crosses this one at the same moment (it writes each line back before invalidating it).
  bool joins = false;
};
// Whether an up step that `joins` its down step may be crossed by the same operation.
bool joins_active(const model::LoweredProgram& p, const Step& s, uint32_t dropped = 0);

// Whether an operation that writes GL2 back and invalidates it in one drops a dirty line too
// (A-GL2-WB-BEFORE-INV: it writes each line back before it invalidates it).
bool wb_inv_drops_dirty(const model::LoweredProgram& p, uint32_t dropped = 0);

// A write through GL2 to a byte of a GL2 line the read's bytes lie in (SEMANTICS.md §4,
// R-GL2-INV-KEEPS-DIRTY): a GL2 invalidation without write-back keeps a line that is dirty, and
// with it the line's stale copy of the read's bytes. So a bare invalidation carries the data
// across the reader's GL2 step only when, as it runs, every such write has not reached GL2 yet
// (its earliest arrival: its `arrive` event) or has been written back to memory (the latest end
// of its window, properties::follow_chain over `steps`).
struct LineMate {
  uint32_t access;  // index into LoweredProgram::accesses
  uint64_t lo, hi;  // the 64-byte units of the GL2 lines it touches, inclusive
  // Its down steps from its first level to memory, shared by the mates of one path (and by a
  // cone's restriction of them, exec/cone.cpp): a read has hundreds of mates.
  util::SharedList<Step> steps;
  bool relevant(uint64_t unit) const { return lo <= unit && unit <= hi; }
};

// A read's line mates: indices into one table of every write through GL2, made once per
// property's obligations (properties/obligation.cpp, OpTable). A frame that rewrites the same
// buffers every block gives each read hundreds of mates, so a copy per read grew with the square
// of the frame (1.5 GB at 50,000 commands); an index per read does not hold the mates' steps. The
// indices come as runs of lists the table's maker shares (the writes of one range of bytes, in
// order), so a read holds a few runs, not an index per mate (44 MB at 50,000 commands).
class MateList {
 public:
  using Table = std::shared_ptr<const std::vector<LineMate>>;
  using Indices = std::shared_ptr<const std::vector<uint32_t>>;  // indices into the table
  MateList() = default;
  explicit MateList(Table table) : table_(std::move(table)) {}
  // A list of its own: the mates as given, in that order (exec's cones restrict their steps).
  static MateList own(std::vector<LineMate> mates);

  // Appends mates (*list)[from] .. (*list)[to - 1] of the table.
  void append(const Indices& list, uint32_t from, uint32_t to) {
    if (from >= to) return;
    runs_.push_back({list, from, to - from, size_});
    size_ += to - from;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const LineMate& operator[](size_t i) const {
    const auto r = std::upper_bound(runs_.begin(), runs_.end(), i,
                                    [](size_t x, const Run& run) { return x < run.start; }) -
                   1;
    return at(*r, i);
  }

  // Sequential: walks the runs (operator[] searches them).
  class Iterator {
   public:
    using iterator_category = std::bidirectional_iterator_tag;
    using value_type = LineMate;
    using difference_type = std::ptrdiff_t;
    using pointer = const LineMate*;
    using reference = const LineMate&;
    Iterator(const MateList* l, size_t i, size_t run) : l_(l), i_(i), run_(run) {}
    reference operator*() const { return l_->at(l_->runs_[run_], i_); }
    pointer operator->() const { return &**this; }
    Iterator& operator++() {
      if (++i_ == l_->runs_[run_].start + l_->runs_[run_].n && run_ + 1 < l_->runs_.size()) ++run_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    Iterator& operator--() {
      if (--i_ < l_->runs_[run_].start) --run_;  // from end(), run_ is the last run already
      return *this;
    }
    Iterator operator--(int) {
      Iterator before = *this;
      --*this;
      return before;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    const MateList* l_;
    size_t i_, run_;
  };
  Iterator begin() const { return {this, 0, 0}; }
  Iterator end() const { return {this, size_, runs_.empty() ? 0 : runs_.size() - 1}; }
  std::reverse_iterator<Iterator> rbegin() const { return std::reverse_iterator<Iterator>(end()); }
  std::reverse_iterator<Iterator> rend() const { return std::reverse_iterator<Iterator>(begin()); }

 private:
  struct Run {
    Indices list;
    uint32_t from, n;  // (*list)[from] .. (*list)[from + n - 1]
    size_t start;      // the list's index of the first
  };
  const LineMate& at(const Run& r, size_t i) const {
    return (*table_)[(*r.list)[r.from + (i - r.start)]];
  }
  Table table_;
  std::vector<Run> runs_;
  size_t size_ = 0;
};

// A render back-end access that may fill the reader's render back-end cache with a line of the
// read's bytes (SEMANTICS.md §4, R-RB-FILL-ON-ACCESS). Under A-RB-FILL-ON-ACCESS a render
// back-end cache holds a line only if such an access filled it: a stale copy there needs one
// that ran before the data reached the level below, with no covering invalidation since. So the
// data crosses the step as soon as it is below when every fill before that was invalidated.
struct RbFill {
  model::EventId ev;  // the access
  uint64_t lo, hi;    // the 64-byte units of the 256-byte blocks it touches, inclusive
  bool relevant(uint64_t unit) const { return lo <= unit && unit <= hi; }
};

// The read must return the write's data (or newer) on every line both touch: the write's data
// must have crossed every step (latest arrivals down, then the reader's invalidations up) before
// the read.
struct Freshness {
  uint32_t write, read;  // indices into LoweredProgram::accesses
  uint64_t lo, hi;       // 64-byte units both touch, inclusive
  std::vector<Step> steps;
  // The up step across GL2 (the data met the reader's path below it: in memory), or -1; and the
  // writes that can keep that step's line dirty (LineMate).
  int gl2_up = -1;
  MateList mates = {};
  // The up step across a render back-end cache (CB, DB or their metadata caches: the reader is
  // a render back-end access), or -1; and the render back-end accesses that may fill that cache
  // with the line (RbFill). Under A-RB-FILL-ON-ACCESS those are its only fills.
  int rb_up = -1;
  std::vector<RbFill> fills = {};
};
// Under A-RB-FILL-ON-ACCESS (and not among `dropped`), whether the freshness's render back-end
// step is crossed as soon as the data is below it when no fill left a stale copy.
bool fill_rule(const model::LoweredProgram& p, const Freshness& f, uint32_t dropped = 0);
// Whether operation `op` of step f.gl2_up may carry the data across it on `unit` at time `at`
// given when each mate's data arrived and was written back: a write-back+invalidate that drops
// dirty lines (wb_inv_drops_dirty), or every relevant mate not yet in GL2 or already in memory.
// `arrived(m)` and `in_memory_before(m, at)` answer for mate m (index into f.mates).
template <class Arrived, class Clean>
bool gl2_step_open(const model::LoweredProgram& p, const Freshness& f, uint32_t op, uint64_t unit,
                   uint32_t dropped, Arrived arrived, Clean clean) {
  if (p.cache_ops[op].writeback && wb_inv_drops_dirty(p, dropped)) return true;
  for (uint32_t m = 0; m < f.mates.size(); ++m)
    if (f.mates[m].relevant(unit) && arrived(m) && !clean(m)) return false;
  return true;
}

// Every `before` event happens before every `after` event.
struct Ordering {
  std::vector<model::EventId> before, after;
};

// The later write's data must reach the meeting level after the earlier write's data: the
// earlier one's latest arrival there (first_steps) precedes the later one's earliest (its
// `arrive` event). second_steps are the levels the later data crosses, for explanations.
struct WriteOrder {
  uint32_t first, second;  // accesses
  uint64_t lo, hi;
  std::vector<Step> first_steps, second_steps;  // down steps to the meeting level
};

// The earlier read must not see the later write: the write's data has not reached the level
// where it meets the reader's path when the read happens. Its earliest arrival there is its
// `arrive` event, so the read must precede that; `steps` (its down steps to the meeting level)
// are for explanations.
struct ReadFirst {
  uint32_t read, write;  // accesses
  uint64_t lo, hi;
  std::vector<Step> steps;
};

// Two conflicting accesses that API order does not order: a race, whatever the hardware does.
struct Race {
  uint32_t a, b;
};

struct Obligation {
  enum class Kind : uint8_t { Fresh, Ordered, WriteOrder, ReadFirst, Race } kind;
  std::string name;  // for the solver query and reports, e.g. "raw grid: line 12 -> line 20"
  Freshness fresh;
  Ordering ordering;
  WriteOrder waw;
  ReadFirst war;
  Race race;
  // The obligation is on a path a write takes only without this assumption
  // (model::MemAccess::only_without): under it the obligation holds vacuously.
  std::optional<model::AssumptionId> only_without = std::nullopt;
  // Violated in every complete execution: a race, whatever the hardware does (its violation is
  // `true`). Both engines check first that the case has a complete execution, so once they have
  // a counterexample they count such an obligation as failing without a question.
  bool always_violated() const { return kind == Kind::Race; }
  // Whether it holds vacuously in `p` with the assumptions in `dropped` left out.
  bool vacuous(const model::LoweredProgram& p, uint32_t dropped = 0) const {
    return only_without && p.config.assumptions.enabled(*only_without) &&
           !(dropped & model::assumption_bit(*only_without));
  }
};

// The obligations of one property of a case, or an error message (nothing to check, unknown
// label). Deadlock freedom has no obligations: it is one query over the wait structure.
struct Obligations {
  std::vector<Obligation> list;
  std::string error;
  // Where only the names are asked for (obligations_for's second list): those alone, and `list`
  // empty (a 50,000-command frame's second list of whole obligations was 28 MB of its peak).
  std::vector<std::string> names;
  // The value assumptions (bit per AssumptionId) the list itself rests on: the API order that
  // oriented, shadowed or ordered its pairs took a wait's order from them (ApiOrder::relies), and
  // without those waits the list would differ. A proof of the list rests on them too.
  uint32_t relies = 0;
};
// After a property's first counterexample, the obligations of `rest` left without a search (one
// gave up, or the caller stops at the first): races are counted as failing (always_violated),
// the others as undecided, so that a report can say its count of failing ones is a lower bound.
inline void count_left(std::span<const Obligation> rest, int& failing, int& undecided) {
  for (const Obligation& o : rest) ++(o.always_violated() ? failing : undecided);
}

// What the obligations of one program's properties are made from: its cache operations by level
// with its writes' line mates (for whole obligations, and for names only), its API order (with
// and without the waits that rest on a value assumption) and the index of its accesses over
// each. Each is a pass over the whole program, and a property asks for two sets (21 ms a
// property at a 50,000-command frame, whose case asks for eight): made when first asked for,
// and kept for the program's next property. They only describe the program, so obligations made
// from kept tables are those made from fresh ones.
class ObligationTables {
 public:
  explicit ObligationTables(const model::LoweredProgram& p);
  ~ObligationTables();
  ObligationTables(const ObligationTables&) = delete;
  ObligationTables& operator=(const ObligationTables&) = delete;
  const model::LoweredProgram& program() const;
  struct Parts;  // properties/obligation.cpp

 private:
  std::unique_ptr<Parts> parts_;
  friend Obligations obligations_for(const model::LoweredProgram&, const model::Property&, bool,
                                     ObligationTables*);
};

// The obligations of a case's properties, one at a time, from one set of tables (above) that is
// let go once the last property that has obligations has had them: a frame's no-hazards
// decision, its largest, runs after that (the tables were 12 MB of the executor's peak at
// 50,000 commands).
class PropertyObligations {
 public:
  PropertyObligations(const model::LoweredProgram& p, const std::vector<model::Property>& props);
  // obligations_for(p, props[i]).
  Obligations of(size_t i);

 private:
  const model::LoweredProgram& p_;
  const std::vector<model::Property>& props_;
  std::unique_ptr<ObligationTables> tables_;
  size_t last_ = 0;  // the last property with obligations (not deadlock-free)
};

// scan_all: find the no-hazards pairs and the shadowing writes of no-hazards and visible by
// testing every pair and every access, as before the index (properties/access_index.h); the tests
// check both give the same list. `tables`: the program's tables, kept by the caller across its
// properties (none, or another program's: made for this call).
Obligations obligations_for(const model::LoweredProgram& p, const model::Property& prop,
                            bool scan_all = false, ObligationTables* tables = nullptr);

// Helpers shared with the engines.
Freshness freshness(const model::LoweredProgram& p, uint32_t write, uint32_t read);
// P-ORDERED's two sides (SEMANTICS.md §6). What command c of queue q performs on memory: each
// of its accesses issued and, for a write, arrived at its first cache level; unless it is work,
// also each of its cache operations, the value it writes, the fence value it signals and the
// poll that satisfied its wait. And what begins it: its accesses issued, and unless it is work
// its cache operations and its write (a wait's polls have no event: none).
std::vector<model::EventId> performed_events(const model::LoweredProgram& p, uint32_t q,
                                             uint32_t c);
std::vector<model::EventId> begin_events(const model::LoweredProgram& p, uint32_t q, uint32_t c);
const model::Command* find_labelled(const model::Case& c, const std::string& label, uint32_t* q,
                                    uint32_t* idx);

}  // namespace syncproof::properties
