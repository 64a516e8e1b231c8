#pragma once
// `syncproof fix`: the cheapest set of edits (model/COSTS.md) under which every goal property of
// a case is proved, searched with the SMT engine over the candidates of synth/candidates.h from
// each base of synth/bases.h (synth/search.h), then re-checked with both engines before it is
// given. Also the flags a fixed barrier no longer needs (synth/redundant.h) when asked.
#include <functional>
#include <string>
#include <vector>

#include "model/costs.h"
#include "synth/changes.h"
#include "synth/search.h"

namespace syncproof::synth {

// Both engines on one case (crosscheck/fix_engines.h behind it in the CLI and the recorder).
struct Verification {
  properties::CaseResult smt, exec;
  std::vector<std::string> problems;  // disagreements and replay failures, one line each
};
using Verify = std::function<Verification(const model::Case&)>;

// The engines of one search, made for it alone: they may share what only one sequence of
// questions on one thread may share (crosscheck/fix_engines.cpp: the SMT engine's solver
// contexts, solver/context_pool.h), so that the search's answers depend on its own questions
// alone, never on the order in which threads ask theirs.
struct Engines {
  CaseRun search;
  Verify verify;
};

struct FixOptions {
  model::CostModel costs;
  CaseRun search;         // the engine the search asks (the SMT engine)
  Verify verify;          // the final check (both engines)
  size_t budget = 3000;   // engine calls for the whole search
  size_t bases = 12;      // at most this many bases (synth/bases.h)
  bool minimize = false;  // also drop the flags the fix makes unnecessary near it
  // Which barriers the fix may add (`--style`). With x or any, a standard barrier a cheaper set
  // of Xbox sync calls can do the work of is replaced by them (synth/fix.h: replace_barriers).
  Style style = Style::Any;
  // When set, a search (fix_case, replace_barriers, find_redundant) asks it once for engines of
  // its own (in_session) and uses them in place of `search` and `verify`.
  std::function<Engines()> session;
};

// `opt` with a new session's engines in place of `search` and `verify`, and no session left (what
// it calls shares them); `opt` itself when it has no session.
FixOptions in_session(const FixOptions& opt);

struct FixResult {
  enum class Status : uint8_t {
    Nothing,      // every goal is proved already
    Fixed,        // `fixed` proves every goal, with both engines
    Unfixable,    // no candidate edit set proves every goal: `why`
    Budget,       // not found within the budget
    NotVerified,  // found, but the other engine does not agree: `why` (a bug to report)
  } status = Status::Nothing;
  model::Case fixed;
  Origins origin;  // the fixed case's commands -> the original's
  std::vector<Change> changes;
  int before = 0, cost = 0;  // the original barrier's cost; what the fix adds (may be negative)
  bool exact = true;         // every hitting set was solved to optimality
  std::string why;
  size_t calls = 0;  // engine calls of the search
  Verification verification;
};
std::string_view to_string(FixResult::Status s);

// `goals`: properties (indices) that must end proved; `keep`: properties proved now that must
// stay proved (the search checks them too). A goal whose expectation is not `prove` becomes
// `prove` in the fixed case.
FixResult fix_case(const model::Case& c, const std::vector<size_t>& goals,
                   const std::vector<size_t>& keep, const FixOptions& opt);

// The standard barriers of `c` that cheaper Xbox sync calls can replace with every property of
// `props` still proved (`props` proved in `c`): each barrier in turn (a split one's two halves
// together), in the case the replacements before it left, searched like a fix from the case
// without it with only Xbox edits, and kept when it costs less than the barrier.
struct Replacement {
  uint32_t queue = 0, cmd = 0;  // the barrier in `c`
  int saves = 0;                // its cost minus what replaces it
};
struct ReplaceResult {
  model::Case replaced;  // `c` with every replacement made
  Origins origin;        // its commands -> c's
  std::vector<Replacement> done;
  size_t calls = 0;
  bool budget_hit = false;
};
ReplaceResult replace_barriers(const model::Case& c, const std::vector<size_t>& props,
                               const FixOptions& opt, size_t budget);

// The goals `syncproof fix` takes by default: every `prove` property not proved in `r`; with
// `all`, every property not proved (refute and check ones too). `keep`: the `prove` ones proved.
void default_goals(const model::Case& c, const properties::CaseResult& r, bool all,
                   std::vector<size_t>* goals, std::vector<size_t>* keep);

}  // namespace syncproof::synth
