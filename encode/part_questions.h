#pragma once
// Questions about part of a program, for encode/check.cpp: an obligation asked of its slice
// (properties/slice.h: a counterexample found there, extended to the whole program), of its
// proof cone (properties/proof_cone.h: a proof there is one of the whole program), or of the
// whole program with the events only orders mention taken out (encode/contraction.h).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encode/check.h"
#include "encode/encoding.h"
#include "properties/api_order.h"
#include "properties/monitor.h"
#include "properties/obligation.h"
#include "properties/proof_cone.h"
#include "properties/result.h"
#include "properties/slice.h"
#include "solver/context.h"
#include "solver/solver.h"

namespace syncproof::encode::detail {

// A counterexample reads best as an interleaving: when the model ties events the trace shows
// (the obligation's accesses, arrivals and cache operations), ask once more with them apart and
// keep that model if there is one (the violation never needs a tie: every order is strict).
// `assumed`: the assumption literals the first check assumed. Returns whether it left a scope
// pushed (the caller pops it once done with the model).
bool separate_ties(const model::LoweredProgram& p, Encoding& enc, solver::Solver& s,
                   const properties::Obligation& o, const CheckOptions& opt,
                   const std::vector<solver::Term>& assumed);

// What slices need of the program, made when the first slice is.
struct Slicing {
  std::optional<properties::ApiOrder> hb;
  std::optional<properties::Slicer> slicer;
  const properties::Slicer& made(const model::LoweredProgram& p) {
    if (!slicer) hb.emplace(p), slicer.emplace(p);
    return *slicer;
  }
};

// A violating execution of the whole program found in the obligation's slice
// (properties/slice.h): a solver model of the In events, extended to the whole program and
// confirmed by its monitor. nullopt when the slice has no violation, or its model does not make
// one of the whole program (the caller asks the whole program then, which has the same answer).
// `only`: assume only these assumptions (by name), not every one; the others' orders need not
// hold in the extended execution either. `traced`: the execution becomes a counterexample's
// trace, and the ties it shows are separated first (separate_ties); otherwise only whether there
// is one counts.
struct SlicedRun {
  properties::Times times;
  uint64_t line = 0;
  properties::MonitorResult m;
};
std::optional<SlicedRun> sliced_run(const model::LoweredProgram& p, const properties::Obligation& o,
                                    const solver::ContextOptions& so, const CheckOptions& opt,
                                    int* query_counter, Slicing* slicing, bool traced,
                                    const std::vector<std::string>* only = nullptr);

// A counterexample from the obligation's slice (sliced_run), with its trace.
std::optional<properties::Violated> sliced_violation(const model::LoweredProgram& p,
                                                     const properties::Obligation& o, int index,
                                                     const solver::ContextOptions& so,
                                                     const CheckOptions& opt, int* query_counter,
                                                     Slicing* slicing);

// What proof cones need of one program (properties/proof_cone.h), made when the first cone is.
struct Cones {
  std::optional<properties::ConeMaker> maker;
  // One context for every cone question of the case, each with a solver of its own: the
  // questions share most of their variables and terms. (Measured on a 1,000-command frame under
  // --no-order-proofs: 1,577 cone questions in 5.0 s against 7.9 s with a context each, which
  // cost 1.5 ms apiece to make; 46 MB more at the peak.) Within one case the questions come in
  // one order, so the answers do not depend on --jobs.
  std::optional<solver::Context> ctx;
  std::optional<properties::Cone> whole;  // ConeMaker::whole, made on first use
  // By usable guard bits: the makers for re-checks under fewer assumptions (made on first use).
  std::map<uint64_t, properties::ConeMaker> for_usable;
  solver::Context& context(const solver::ContextOptions& so) {
    if (!ctx) ctx.emplace(so);
    return *ctx;
  }
  const properties::ConeMaker& made(const model::LoweredProgram& p) {
    if (!maker) maker.emplace(p);
    return *maker;
  }
  const properties::ConeMaker& made(const model::LoweredProgram& p, uint64_t usable) {
    auto it = for_usable.find(usable);
    if (it == for_usable.end()) it = for_usable.try_emplace(usable, made(p), usable).first;
    return it->second;
  }
};

// A question about the whole program with the events only orders mention taken out
// (properties::ConeMaker::whole, encode/contraction.h): exactly the whole encoding's answer, and
// its possible cores, over fewer terms and with one candidate a queue in most waits. (Measured
// on a 1,000-command frame under --no-order-proofs: the base question took 6.9 s of Z3 in the
// whole encoding and takes 0.3-0.6 s so.) `o` null: whether the case has an execution at all.
// `only`: assume only these assumptions (by name), not every one. An Unsat answer comes with
// the assumptions of its core.
struct WholeAnswer {
  solver::CheckResult r;
  std::vector<model::AssumptionId> core;
};
WholeAnswer contracted_whole(const model::LoweredProgram& p, const properties::Obligation* o,
                             const solver::ContextOptions& so, const CheckOptions& opt,
                             int* query_counter, Cones* cones,
                             const std::vector<std::string>* only = nullptr);

// The assumptions a proof from the obligation's cone rests on (the names in its unsat core), or
// nullopt when the cone has a violation, the solver gives up, or a cone is not worth asking (a
// race; more than half the program). A proof here is a proof of the whole program: the cone is
// a relaxation of it. `only`: assume only these assumptions (by name), not every one.
std::optional<std::vector<model::AssumptionId>> cone_proof(
    const model::LoweredProgram& p, const properties::Obligation& o,
    const solver::ContextOptions& so, const CheckOptions& opt, int* query_counter, Cones* cones,
    const std::vector<std::string>* only = nullptr);

// The literals of the whole encoding for these assumptions (made if no constraint has used
// them yet: an obligation's own, such as A-GL2-WB-BEFORE-INV's, appear with its violation).
std::vector<solver::Term> literals_for(Encoding& enc, const std::vector<model::AssumptionId>& ids);

}  // namespace syncproof::encode::detail
