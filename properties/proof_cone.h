#pragma once
// Proof cones: an obligation asked of the events between its key events only, as a relaxation of
// the whole program, so that "no violation in the cone" is a proof.
//
// A cone is a set S of events. Its question keeps, of the program's constraints, only those over
// S: the orders between two events of S, and the wait rules of waits in S that still say all they
// say (below); everything else is dropped, and cache operations outside S cannot carry the data.
// Every execution of the program satisfies what is kept, and its violation implies the cone's
// violation (the cone's is the whole one with conjuncts left out), so an unsatisfiable cone
// question is an unsatisfiable whole one. The converse does not hold: a satisfiable cone proves
// nothing, and the caller asks the whole program then.
//
// A monotone wait's rule is "after one of its candidates", a disjunction, so leaving a candidate
// out would make it stronger, not weaker. It is kept only when every candidate outside S comes
// after another candidate in every execution, through orders: then the
// disjunction over the candidates in S follows from the whole one. When those orders rest on
// assumptions, the kept rule holds only under them, and the cone's question says so (its proof
// then lists them, and the property's minimization drops those the whole program does not need).
// The candidates no other one precedes that way (the essential ones) are put in S for every wait
// in S. A wait decided by its
// value (not monotone) is kept only when all of its writers are in S.
//
// S itself is any set (the argument above does not depend on it): the events after one of the
// obligation's earlier key events and before one of its later ones (through orders, and a wait
// through its essential candidates), the key events, and the essential candidates of its waits.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "properties/obligation.h"
#include "util/csr.h"
#include "util/stack.h"

namespace syncproof::properties {

// A guard as the cones count guards: bit a for assumption a holding, bit 32 + a for it not
// holding; 0 for no guard.
uint64_t guard_bit(const model::Guard& g);

struct Cone {
  std::vector<model::EventId> events;  // the events in S, in increasing order
  // The wait rules of the waits in S that are part of the cone's question, in increasing order,
  // each with the guards (ConeMaker::before's bits) under which it holds when it leaves a
  // candidate out (else 0).
  std::vector<std::pair<uint32_t, uint64_t>> rules;
  // The same by event and by wait rule, made only when asked for (ConeMaker::cone's `dense`).
  std::vector<uint8_t> in;         // by event
  std::vector<uint8_t> keep_wait;  // by wait rule: its rule is part of the cone's question
  // By wait rule: the guards (ConeMaker::before's bits) under which a kept rule that leaves a
  // candidate out holds.
  std::vector<uint64_t> wait_guards;
  // By wait rule: for a kept monotone rule that may be asked over its essential candidates alone
  // (ConeMaker::essential), those; empty otherwise. Under wait_guards every other candidate comes
  // after one of them in every execution, so "after one of the essential ones" is the same rule
  // there. Given when that needs no guard beyond wait_guards (which the rule has anyway): the
  // question then holds a disjunction over one candidate a queue instead of one over every
  // signal of a fence.
  std::vector<std::vector<model::EventId>> short_candidates;
  size_t size = 0;  // events in S
};

class ConeMaker {
 public:
  // `usable`: the guard bits (guard_bit) of the orders that may put a candidate after another
  // one; orders under any other guard do not (all by default). A property's minimization asks
  // its re-checks under fewer assumptions: an order under an assumption no longer assumed holds
  // in some executions only, and a cone that leaned on it would keep no rule for its wait.
  explicit ConeMaker(const model::LoweredProgram& p, uint64_t usable = ~uint64_t{0});
  // The same for `base`'s program, sharing its lists of orders, writers and rules by event
  // (which `usable` does not change: tens of MB at 50,000 commands).
  ConeMaker(const ConeMaker& base, uint64_t usable);
  // What a set of events holds of the wait rules: the rules whose wait is among them (in event
  // order) and, by writer list of those, the indices of its writers among them, in increasing
  // order. Costs the events, not the lists (a fence's list holds every signal of it). The same
  // for every maker of one program.
  struct Inside {
    std::vector<uint32_t> waits;
    std::map<const void*, std::vector<uint32_t>> writers;
  };
  Inside inside(const std::vector<model::EventId>& events) const;
  // nullopt for a race, which no cone can prove. `dense`: also the flags by event and by rule,
  // which cost the program's size (the rest costs the cone's). `unkeyed`: by line mate of a Fresh
  // obligation, those whose events are not key events (S is any set: a mate outside S is dirty
  // throughout there, exec/watch.cpp); an empty list or none keys every mate.
  // `inside` (may be null): what inside() gives for the cone's events, which cone() makes anyway.
  std::optional<Cone> cone(const Obligation& o, bool dense = true,
                           const std::vector<char>* unkeyed = nullptr,
                           Inside* inside = nullptr) const;
  // The rules of the cone over `events` (increasing; `in`: inside(events)) as this maker keeps
  // them (Cone::rules):
  // the monotone rules of `kept` (increasing), or with none given those whose essential
  // candidates (of this maker) are all in `events`, and every wait decided by its value with all
  // of its writers there. `essential_only`: the kept monotone rules that may be asked over their
  // essential candidates alone (Cone::short_candidates). Any set of events is a cone
  // (this file's top), so these rules over another maker's cone are a cone question too.
  // `left_out` (with no `kept`): set when a monotone wait in `events` has an essential candidate
  // outside them (its rule is left out).
  std::vector<std::pair<uint32_t, uint64_t>> rules_over(
      const std::vector<model::EventId>& events, const Inside& in,
      const std::vector<uint32_t>* kept = nullptr, std::vector<uint32_t>* essential_only = nullptr,
      bool* left_out = nullptr) const;
  // The whole program as a cone: every event, every wait rule, none under a guard. A monotone
  // rule is asked over its essential candidates where the orders that put the others after them
  // have no guard (the same rule in every execution, as in a cone). So its question is the whole
  // program's, and the contracted question over it (encode/contraction.h) has exactly the whole
  // encoding's answers and cores, with a disjunction of one candidate a queue in each wait.
  Cone whole() const;
  // The guard bits of the orders that put some wait's candidates after its essential ones.
  uint64_t implied_guards() const { return all_implied_; }
  // The candidates of wait rule w that no other candidate of it precedes through orders.
  const std::vector<model::EventId>& essential(uint32_t w) const { return essential_[w]; }
  // By event: the orders it is the earlier event of, and the wait rules of the wait it is.
  std::span<const uint32_t> orders_from(model::EventId e) const { return succ_[e]; }
  std::span<const uint32_t> rules_at(model::EventId e) const { return rules_at_[e]; }

 private:
  // Whether a precedes b in every execution through orders, and the guards of those orders (bit
  // per AssumptionId for a guard on it, bit 32 + id for one on its negation).
  std::optional<uint64_t> before(model::EventId a, model::EventId b) const;
  // essential_, implied_guards_ and all_implied_; `waits_of` gets (candidate, rule) for each
  // essential candidate.
  void find_essentials(std::vector<std::pair<uint32_t, uint32_t>>* waits_of);

  // What no `usable` changes, shared by the makers of one program.
  struct Shape {
    util::Csr<uint32_t> succ;                    // by event: the orders it is the earlier event of
    util::Csr<model::EventId> after, before_ev;  // by event: the events ordered after it, before it
    std::vector<uint32_t> topo;                  // by event: a position in the orders' order
    util::Csr<uint32_t> rules_at;                // by event: the rules of the wait it is
    // By event: the writer lists of the waits it is in, with its index there (the waits on one
    // fence or word share a list).
    util::Csr<std::pair<const void*, uint32_t>> writer_of;
  };
  static std::shared_ptr<const Shape> shape_of(const model::LoweredProgram& p);
  ConeMaker(const model::LoweredProgram& p, std::shared_ptr<const Shape> shape, uint64_t usable);

  const model::LoweredProgram& p_;
  uint64_t usable_;
  std::shared_ptr<const Shape> shape_;
  // shape_'s lists.
  const util::Csr<uint32_t>& succ_;
  const util::Csr<model::EventId>&after_, &before_ev_;
  const std::vector<uint32_t>& topo_;
  const util::Csr<uint32_t>& rules_at_;
  const util::Csr<std::pair<const void*, uint32_t>>& writer_of_;
  uint64_t all_implied_ = 0;  // the union of implied_guards_
  std::vector<std::vector<model::EventId>> essential_;
  util::Csr<uint32_t> waits_of_;          // by candidate: the rules it is essential for
  std::vector<uint64_t> implied_guards_;  // by wait: the guards of the orders used above
  // By event: a position in the order of the orders and of the edges from an essential candidate
  // to its wait (Kahn; events of a cycle and after one last), so that every event after an
  // earlier key event through those is at least that event's position: the search for the
  // events before a later key event stops below it.
  std::vector<uint32_t> reach_pos_;
  mutable std::vector<uint8_t> before_, in_;  // scratch of cone(), all 0 between calls
  mutable util::Stack<model::EventId> todo_, touched_, members_;  // scratch of cone()
  mutable std::vector<uint64_t> seen_;  // scratch of before(), all UINT64_MAX between calls
  // By wait rule: by writer of its word, whether it is a candidate (made on first use), and how
  // many are.
  const std::vector<uint8_t>& candidate_flags(uint32_t w) const;
  mutable std::vector<std::vector<uint8_t>> candidate_flags_;
  mutable std::vector<uint8_t> marks_;  // candidate_flags()' scratch by event, all 0 between calls
  mutable std::vector<size_t> candidate_count_;
  mutable std::unordered_map<uint64_t, std::optional<uint64_t>> before_memo_;  // by (a, b)
};

}  // namespace syncproof::properties
