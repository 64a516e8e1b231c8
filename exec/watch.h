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
// Progress is (ja, jb): -1 before the start event, else the number of steps crossed.
#include <cstdint>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::exec {

enum class Outcome : uint8_t { Open, Violated, Safe };

struct Progress {
  int8_t ja = -1, jb = -1;
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

  // Fires e (already fired in the runner) and updates the progress.
  Outcome advance(model::EventId e, Progress& s) const;
  // Whether firing e now can only help a violation (then the reduced search fires it at once)
  // or may hurt one (a choice: delayed, and branched on when nothing else can fire).
  bool urgent(model::EventId e, const Progress& s) const;
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
ChainWatch chain_watch(const model::LoweredProgram& p, const properties::Obligation& o,
                       uint64_t line, uint32_t dropped = 0, const EventMap& map = {});

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
                                           const EventMap& map = {});

// The read whose firing decides a Fresh or ReadFirst obligation (nothing that must come after it
// can change the verdict); kNoEvent for the other kinds.
model::EventId decided_by(const model::LoweredProgram& p, const properties::Obligation& o);

}  // namespace syncproof::exec
