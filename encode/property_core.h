#pragma once
// The assumption list of a proved property, minimized once per property by re-checking its
// obligations' proofs without one assumption at a time (encode/check.cpp asks the questions).
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "encode/encoding.h"
#include "properties/obligation.h"
#include "solver/solver.h"

namespace syncproof::encode {

// An obligation the solver proved, with the assumption literals of its current core.
struct SolverProof {
  const properties::Obligation* o;
  std::vector<solver::Term> core;
  bool by_cone = false;  // proved from its cone: a re-check asks the cone first
};

// A re-check of a proof under only `assumed` (literals of the whole encoding): Unsat with its
// core (in literals of the whole encoding) when it is still proved so; Sat when it is not (a
// violation, or an unknown, which keeps the assumption as a violation would); Unknown when a
// cheap re-check (the obligation's cone, then its slice) could not say. `by_cone`: the proof
// came from the obligation's cone (only then are its cone and slice asked).
struct PartAnswer {
  solver::Status status = solver::Status::Unknown;
  std::vector<solver::Term> core;
};
using Recheck = std::function<PartAnswer(const properties::Obligation&, bool by_cone,
                                         const std::vector<solver::Term>& assumed)>;

// The assumption literals a property needs, minimized once per property rather than once per
// obligation: start from the union of the obligations' cores (Z3's first ones) and try dropping
// each literal once, in the encoding's order, by re-checking the obligations whose core has it;
// if one of them is not proved without it (a violation, or unknown), it stays. So every
// obligation is unsat under the result (it is sufficient) and no literal of it can be dropped
// (each was needed when tried, and only literals tried later were dropped after it). Literals the
// must-order proofs of the other obligations use (`kept`) stay without a try.
//
// Each try asks every such obligation's cheap re-check (`cheap`: its cone, a relaxation, whose
// unsat is the whole program's; its slice, whose violation extends to one of the whole program)
// before any of them is asked of the whole program (`whole`), so a literal that some slice shows
// needed costs no whole-program question. The answers are exact either way, so the order does
// not change the result (on a 1,000-command frame it saved 5 of 8 whole-program questions).
std::vector<solver::Term> property_core(const Encoding& enc, std::vector<SolverProof>& proofs,
                                        const std::set<std::string>& kept, const Recheck& cheap,
                                        const Recheck& whole);

}  // namespace syncproof::encode
