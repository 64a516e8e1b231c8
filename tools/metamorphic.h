#pragma once
// Metamorphic checks of the model (issue 8, item 2): relations between the verdicts of a case
// and of variants of it that must hold whatever the right verdicts are.
//  - A more conservative configuration never proves more: `target gl2-rb-coherent no` refutes
//    everything `yes` refutes, `profile strict` everything `rdna2` refutes, and turning a named
//    assumption off never turns violated into proved.
//  - More sync never proves less: adding an operation flag to a sync (an invalidation, a
//    write-back, a partial flush, IDLE, PFP_SYNC_ME, SYNC_CPDMA, a CB/DB/stream-out flush, a
//    coherency stall — not the range, margin, engine-select or sequence modifiers, which narrow
//    or redirect an operation) never turns proved into violated, and removing one never turns
//    violated into proved. Not for an `ordered` property whose A or B is the mutated command:
//    A's own cache operations are part of what it asks for.
//  - A proof's assumption list suffices: with every assumption it does not list turned off, the
//    property is still not violated.
// Each check is a real comparison of two engine runs; a failure names the relation, the
// property and both verdicts. `syncproof monotone` runs them over case files, `syncproof fuzz`
// over random cases (shrinking and saving failures like engine disagreements).
#include <functional>
#include <string>
#include <vector>

#include "encode/check.h"
#include "exec/check.h"
#include "model/case.h"

namespace syncproof::cli {

struct MetaProblem {
  std::string relation;  // e.g. "target gl2-rb-coherent no vs yes", "add IDLE at line 12"
  size_t property;       // index into Case::properties
  std::string detail;    // "proved under ..., violated under ..."
};

// A variant of a case and what it is; `same` when it is the case itself (its verdicts are
// computed once).
struct Variant {
  model::Case c;
  std::string what;
  bool same = false;
  // The label of the command a flag or barrier mutation changed ("" for none): an `ordered`
  // property naming it asks about that command's own operations, which the mutation changes, so
  // the relation says nothing about it (SEMANTICS.md §6, metamorphic relations).
  std::string mutated = {};
};

// The two sides of every relation: (conservative, liberal) pairs. The liberal side must prove
// whatever the conservative side proves. Flag mutations: each absent operation flag added to
// each sync (liberal = the case with it), each present one removed (conservative = without).
// `flags_per_case` caps the flag mutations (0: all), taken evenly over the candidates.
std::vector<std::pair<Variant, Variant>> relations(const model::Case& c, size_t flags_per_case);

// Runs every relation with an engine (the SMT engine, or the executor) and reports where the
// liberal side does not prove what the conservative side proves (conservative proved, liberal
// violated).
enum class MetaEngine : uint8_t { Smt, Exec };
std::vector<MetaProblem> metamorphic_check(const model::Case& c, const encode::CheckOptions& opt,
                                           size_t flags_per_case = 0,
                                           MetaEngine engine = MetaEngine::Smt);
// The executor's options for the variants' runs: the verdicts only. The relations compare the
// variants' verdicts, never their assumption lists (only the case's own lists, run minimized, are
// checked for sufficiency), so the executor skips the assumption minimization
// (exec/check.cpp), which re-runs every proof once per assumption on weaker graphs and can cost
// far more than the proof (fuzz seed 1006959: 0.1 s to prove an obligation, about 10 s to minimize
// it). The verdicts are the same either way: minimization runs only after a proof. For the same
// reason a violated property stops at its first failing obligation (ExecOptions::first_violation),
// the later ones' searches being the most of a violated case's time (fuzz seed 3400057: 7.3 s to
// count 105 failing obligations of no-hazards, nearly all of it proving the others).
exec::ExecOptions metamorphic_exec_options(const encode::CheckOptions& opt);
// The same with any way of checking a case (tests pass a stand-in engine).
std::vector<MetaProblem> metamorphic_check(
    const model::Case& c, const std::function<properties::CaseResult(const model::Case&)>& run,
    size_t flags_per_case);

}  // namespace syncproof::cli
