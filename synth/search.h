#pragma once
// The search for the cheapest set of edits under which every property asked for is proved.
//
// It rests on the model's monotonicity (SEMANTICS.md §6, checked by `syncproof monotone`): adding
// an operation flag to a sync never turns a proof into a violation. So "every property proved"
// is a monotone predicate P over sets of candidate edits: P(S) and S ⊆ T give P(T). Then:
//  - if P fails for the set of all candidates, no subset can pass: the case is unfixable by them;
//  - if P fails for a set F, every fix contains an edit outside F: the complement of F is a
//    *core*. The search grows F (adding edits while P still fails) so the core is small;
//  - the cheapest set that meets every core found so far (synth/hitting_set.h) costs no more than
//    any fix. If P holds for it, it is a cheapest fix; if not, it yields one more core.
// This is the implicit-hitting-set scheme of MaxSAT solvers (MaxHS) with the engine as the
// oracle. Each engine call checks one edited case; calls are cached by edit set.
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/costs.h"
#include "properties/result.h"
#include "synth/candidates.h"

namespace syncproof::synth {

using CaseRun = std::function<properties::CaseResult(const model::Case&)>;

struct Outcome {
  bool pass = false;
  std::vector<size_t> failing;    // properties (indices into the base case) not proved
  properties::CaseResult result;  // one result per property asked, `property` as in the base
  model::Case c;                  // the edited case, all its properties
  Origins origin;                 // its commands -> the base case's
  bool budget_exhausted = false;  // the call was not made: no engine calls left
};

// The engine, the base case, the universe of candidates and the cache.
class Oracle {
 public:
  Oracle(model::Case base, CaseRun run, size_t budget);
  const model::Case& base() const { return base_; }
  Universe& universe() { return universe_; }
  // The base case with `edits` (indices into the universe) made, checked for `props`.
  const Outcome& check(std::vector<uint32_t> edits, std::vector<size_t> props);
  // Adds the candidates for the obligation that property `prop` fails in `o` (its witness).
  size_t expand(const Outcome& o, size_t prop);
  size_t calls() const { return calls_; }
  bool exhausted() const { return calls_ >= budget_; }

 private:
  model::Case base_;
  CaseRun run_;
  size_t budget_, calls_ = 0;
  Universe universe_;
  std::map<std::pair<std::vector<uint32_t>, std::vector<size_t>>, std::unique_ptr<Outcome>> cache_;
  std::vector<std::unique_ptr<Outcome>> refused_;  // calls refused for want of budget
};

struct SearchOptions {
  const model::CostModel* costs = nullptr;
  size_t hitting_nodes = 200000;  // branch-and-bound nodes per hitting set
  bool expand = true;             // grow the universe from the obligations that fail
  // Candidates to prefer among equally cheap ones (lower first), e.g. the explanation's places.
  std::function<int(uint32_t)> rank;
  // Stop (Pruned) once every fix from here costs at least this much: the cheapest hitting set is
  // a lower bound on every fix, so nothing cheaper than the best found elsewhere is lost.
  int ceiling = std::numeric_limits<int>::max();
};

struct SearchResult {
  enum class Status : uint8_t { Found, Unfixable, Budget, Pruned } status = Status::Found;
  std::vector<uint32_t> edits;  // indices into the oracle's universe
  int cost = 0;
  bool exact = true;  // every hitting set was solved to optimality
  size_t prop = 0;    // Unfixable: a property that stays unproved with every candidate
  std::string why;    // ... and why (its counterexample's explanation, or its verdict)
  size_t cores = 0;
};

SearchResult cheapest(Oracle& oracle, const std::vector<size_t>& props, const SearchOptions& opt);

// The flags (and control flags, as bits of ControlFlags) a violation's explanation names.
std::pair<uint32_t, uint8_t> blamed_bits(const properties::Violated& v);

// "visible a -> b", "no-hazards", ... (the property as the case language writes it).
std::string property_words(const model::Case& c, const model::Property& p);

}  // namespace syncproof::synth
