#pragma once
// Checking a case with the executor: lower it once (the same lowering the SMT engine encodes),
// then decide every obligation by explicit search over interleavings (exec/search.h). Returns the
// same result type as encode::check_case, with traces built the same way.
//
// Proofs and assumptions: the executor has no unsat core. For each proved obligation it drops the
// constraints of one assumption at a time (those the lowering kept), re-runs the search, and
// keeps the assumption out when the proof still holds: the reported list is a minimal set (like
// the SMT engine's minimized core; when several minimal sets exist the two may name different
// ones). minimize_assumptions = false reports every assumption whose constraints are present.
#include <optional>
#include <string>
#include <vector>

#include "exec/search.h"
#include "model/assumptions.h"
#include "model/case.h"
#include "model/events.h"
#include "properties/obligation.h"
#include "properties/result.h"

namespace syncproof::exec {

struct ExecOptions {
  std::optional<model::Profile> profile;             // --profile
  std::vector<std::pair<bool, std::string>> assume;  // --assume +ID / -ID
  std::vector<std::string> target;                   // --target NAME / KEY=VALUE, validated
  unsigned timeout_ms = 20000;                       // per obligation (all line units)
  uint64_t max_states = 20'000'000;                  // states entered per search
  bool reduce = true;                                // false: every interleaving state
  bool minimize_assumptions = true;
  // Prove each obligation in its proof cone first (exec/cone.h), in programs of more than
  // `cone_above` lowered events; the whole program answers what a cone cannot (--no-slice: only
  // the whole program; --slice-above sets cone_above as it sets the SMT engine's slice_above).
  bool cones = true;
  size_t cone_above = 2000;
  // Stop a violated property at its first failing obligation (its count of failing obligations is
  // then 1, the rest counted as undecided; the counterexample is the one a full check gives): for
  // callers that read only verdicts (tools/metamorphic.h), to whom the later obligations' searches,
  // proofs most of them, are of no use.
  bool first_violation = false;
};

properties::CaseResult check_case(const model::Case& c, const ExecOptions& o);
// The same on the case's lowering made by the caller (encode/check.h says which).
properties::CaseResult check_case(const model::Case& c, const model::LoweredProgram& p,
                                  const ExecOptions& o);

// One obligation on a lowered program: proved (with the assumptions it needs), violated (with
// the trace and witness) or unknown. Used by check_case and by `syncproof fuzz`.
struct ObligationResult {
  Status status = Status::Safe;
  std::vector<model::EventId> order;  // Violated: the interleaving
  uint64_t line = 0;                  // Violated: the line unit
  uint32_t assumptions = 0;           // Safe: bit per AssumptionId the proof needs
  std::string reason;                 // Unknown
};
ObligationResult decide_obligation(const model::LoweredProgram& p, const properties::Obligation& o,
                                   const ExecOptions& opt, SearchStats& st);

// The violation of `o` in `order` as the engines report it (trace, witness); Error when the
// monitor does not confirm it (an executor bug).
properties::Verdict violation_verdict(const model::LoweredProgram& p,
                                      const properties::Obligation& o, int index,
                                      const std::vector<model::EventId>& order, uint64_t line);

}  // namespace syncproof::exec
