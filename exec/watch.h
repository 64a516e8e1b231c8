#pragma once
// What the executor watches in an interleaving to decide an obligation on one line unit: the
// concrete monitor (properties/monitor.cpp) turned into a small automaton over event firings.
//
// Fresh, WriteOrder and ReadFirst are one shape, two chains racing. A chain starts when its start
// event fires and crosses step j at the first operation of step j covering the line that fires
// after it crossed step j-1 (properties::follow_chain: "first covering operation strictly after").
//   WriteOrder: chain A = the first write (arrive, first_steps), chain B = the second write's
//               arrival alone (its earliest arrival at the meeting level: every level on the
//               way down may evict at once, properties/obligation.h); violated iff B fires while
//               A has not completed (monitor: latest(first) >= arrive(second)).
//   Fresh:      A = the write (arrive, steps), B = the read alone (no steps): violated iff the
//               read fires before A completed (monitor: arrive >= read, or a step missing).
//   ReadFirst:  A = the read alone, B = the write's arrival alone (its earliest, as above):
//               violated iff B fires before the read (monitor: arrive < read).
// Progress is (ja, jb): -1 before the start event, else the number of steps crossed; whether a
// fill of the reader's render back-end cache is stale (A-RB-FILL-ON-ACCESS); and, for a
// Fresh obligation whose chain crosses GL2 upwards, where each line mate's data is
// (properties::LineMate: -1 not in GL2 yet, else the steps of its way to memory crossed), since a
// GL2 invalidation carries the data only when no mate holds the line dirty (gl2_step_open).
#include <cstdint>
#include <vector>

#include "properties/must_order.h"
#include "properties/obligation.h"

namespace syncproof::exec {

enum class Outcome : uint8_t { Open, Violated, Safe };

struct Progress {
  int8_t ja = -1, jb = -1;
  // A-RB-FILL-ON-ACCESS: a fill of chain A's render back-end cache ran with no covering
  // invalidation of its step since.
  uint8_t stale_fill = 0;
  std::vector<int8_t> mates;  // by mate of ChainWatch::mates
};

struct ChainWatch {
  model::EventId a0 = model::kNoEvent, b0 = model::kNoEvent;
  int ka = 0, kb = 0;
  // When B completes at the very event that completes A: violated for Fresh (the monitor's
  // arrive >= read) and WriteOrder (c1 >= c2), not for ReadFirst (chain < read is strict).
  bool tie_violates = true;
  std::vector<model::EventId> relevant;    // a0, b0 and the operations covering the line
  std::vector<int32_t> slot;               // per event: index into `relevant`, or -1
  std::vector<uint32_t> roles_a, roles_b;  // per slot: bit j = may cross step j of the chain
  // Bit j: step j of chain A joins step j-1 (A-GL2-WB-BEFORE-INV, properties/obligation.h): the
  // operation that crosses step j-1 crosses step j as well when it has that role too.
  uint32_t joins_a = 0;
  // Chain A's up step across GL2 (-1: none), and the line mates relevant on this line: their
  // arrival (kNoEvent: outside the graph, taken as in GL2 and dirty throughout) and number of
  // steps to memory.
  int gl2_up = -1;
  struct Mate {
    model::EventId arrive;
    int steps;
  };
  std::vector<Mate> mates;
  // By slot: (mate, bit j = may cross step j of its way to memory) for the mates it moves, and
  // whether it is a write-back+invalidate that drops dirty lines (A-GL2-WB-BEFORE-INV).
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> mate_roles;
  std::vector<uint8_t> drops_dirty;
  // Chain A's up step across a render back-end cache when A-RB-FILL-ON-ACCESS holds there (-1:
  // none): the chain crosses it as soon as it reached it when no fill is stale then. By slot:
  // whether the event is a fill of that cache (properties::RbFill) on this line.
  int rb_up = -1;
  std::vector<uint8_t> fill_slot;

  // The progress before anything fired.
  Progress start() const;

  // Fires e (already fired in the runner) and updates the progress.
  Outcome advance(model::EventId e, Progress& s) const;
  // Whether firing e now can only help a violation (then the reduced search fires it at once)
  // or may hurt one (a choice: delayed, and branched on when nothing else can fire).
  bool urgent(model::EventId e, const Progress& s) const;

 private:
  // Whether the operation in slot k may carry chain A across its GL2 step in state s.
  bool gl2_open(int k, const Progress& s) const;
};

// The events of the graph a search runs on: the program's own, or a part of it renumbered
// (exec/cone.h), where `local` maps a program event to its number there (UINT32_MAX: outside).
struct EventMap {
  const std::vector<uint32_t>* local = nullptr;
  uint32_t n = 0;  // events of the graph (with `local`)
  static constexpr uint32_t kOutside = UINT32_MAX;
  uint32_t operator()(model::EventId e) const { return local ? (*local)[e] : e; }
};

// `dropped`: bit per AssumptionId left out (the assumption minimization of exec/check.cpp).
// With a part's map, operations outside the part take no role (the cone's relaxation).
// `quiet`: the line mates and fills that change nothing in any execution (MustOrder::quiet,
// under `dropped`), left out of the watch.
ChainWatch chain_watch(const model::LoweredProgram& p, const properties::Obligation& o,
                       uint64_t line, uint32_t dropped = 0, const EventMap& map = {},
                       const properties::MustOrder::Quiet* quiet = nullptr);

// The line units worth checking: one per distinct coverage signature of the obligation's
// operations inside its line range (see the .cpp). Empty for obligations without lines.
std::vector<uint64_t> line_units(const model::LoweredProgram& p, const properties::Obligation& o);

// Whether the obligation is one of the two-chain kinds above.
bool is_chain(const properties::Obligation& o);

// The events whose relative order decides the obligation on any line: the chains' start events
// and all their operations (two-chain kinds), the `after` events (Ordered); none for a race.
// Operations marked in `after_read` (events that must follow decided_by) are left out.
// With a part's map: its numbers, and only the events inside (after_read by its numbers too).
std::vector<model::EventId> watched_events(const model::LoweredProgram& p,
                                           const properties::Obligation& o,
                                           const std::vector<char>* after_read = nullptr,
                                           const EventMap& map = {},
                                           const properties::MustOrder::Quiet* quiet = nullptr);

// The read whose firing decides a Fresh or ReadFirst obligation (nothing that must come after it
// can change the verdict); kNoEvent for the other kinds.
model::EventId decided_by(const model::LoweredProgram& p, const properties::Obligation& o);

}  // namespace syncproof::exec
