#pragma once
// Counterexample slices: a violation of one obligation looked for among the events between its
// key events (the accesses and arrivals the obligation is about), not the whole program.
//
// Split the events three ways:
//  - Before: not after any key event, even transitively (through orders, or a wait after a
//    candidate). A down-closed set: whatever is ordered before one of them, or can satisfy one
//    of their waits, is Before too.
//  - In: after some key event and before some key event (the down closure of the keys, through
//    orders and every candidate of a wait). With Before, down-closed again.
//  - After: the rest, after some key event and before none.
// An execution may run every Before event first (it is down-closed), then the In events in any
// order their own constraints allow, then the After events: so a solver model of the In events
// alone, where a wait with a candidate Before is already satisfied and After candidates do not
// count, extends to a whole execution (extend() builds it and checks every order and wait rule
// of the program on it). A cache operation Before runs before the data arrives and one After
// runs after the key events, so neither can stop the violation the In model shows.
//
// Only for counterexamples: executions that run Before first are some of the executions, so "no
// violation in the slice" proves nothing; the caller then asks the whole program.
#include <optional>
#include <vector>

#include "properties/api_order.h"
#include "properties/monitor.h"
#include "properties/obligation.h"

namespace syncproof::properties {

enum class Part : uint8_t { Before, In, After };

struct Slice {
  std::vector<Part> part;  // by event
  size_t in = 0;           // events In
};

// What slicing needs of one program, built once (orders both ways, the candidates of each wait
// and the waits of each candidate, one completion order) and shared by its obligations' slices.
class Slicer {
 public:
  explicit Slicer(const model::LoweredProgram& p);

  // nullopt when a slice cannot be made: a wait that is not monotone (its value, not its
  // candidates, decides it) would be In. Before or After, such a wait is completed by its
  // candidate rule, and extend() checks the value it polls. hb: the program's API order (which
  // cache operations may run on either side of the write).
  std::optional<Slice> slice(const Obligation& o, const ApiOrder& hb) const;

  // Times for every event from times for the In events (only those entries of `in_times` are
  // read; ties among them are kept): Before events first, then In, then After, each part in an
  // order the program allows. nullopt when the program does not let the parts complete so, or
  // when the result is no execution of the program (properties::is_execution: an order broken,
  // a wait without a candidate before it, a wait that is not monotone polling a value that
  // fails; checked here, not assumed). `dropped` (bit per AssumptionId): assumptions left out of
  // the question, as the encoding leaves them out: their orders need not hold, and a wait whose
  // rule rests on one (WaitRule::rests) may complete at any time. The monitor stays that of the
  // whole configuration: with fewer assumptions no staleness goes away (model/SEMANTICS.md, the
  // metamorphic relations), so a violation it finds is one without them too.
  std::optional<Times> extend(const Slice& s, const Times& in_times, uint32_t dropped = 0) const;

  // One execution of the whole program, or nullopt: the times of a completion order (each event
  // once everything ordered before it and a candidate of each of its wait rules completed),
  // when it is one (properties::is_execution; a wait that is not monotone may poll a value that
  // fails there): a witness that the program has an execution.
  std::optional<Times> execution() const;

 private:
  std::vector<uint32_t> completion(const std::vector<uint8_t>& blocked) const;
  bool complete(const Slice& s, Part part, long long start, Times* t) const;

  const model::LoweredProgram& p_;
  bool monotone_;
  std::vector<std::vector<uint32_t>> succ_, pred_;  // by event: orders after it, before it
  std::vector<std::vector<uint32_t>> needs_;        // by wait: the candidates of its rules
  std::vector<std::vector<uint32_t>> rules_of_;     // by candidate: the rules it can satisfy
  std::vector<uint32_t> pos_;                       // one completion order of the program
};

}  // namespace syncproof::properties
