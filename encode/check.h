#pragma once
// Checking a case with the SMT engine: lower it once, encode it once, then ask one question per
// obligation (push / assert the violation / check / pop), replaying every counterexample through
// the property's concrete monitor before reporting it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "model/events.h"
#include "properties/result.h"
#include "solver/context.h"

namespace syncproof::encode {

struct CheckOptions {
  std::optional<model::Profile> profile;             // --profile
  std::vector<std::pair<bool, std::string>> assume;  // --assume +ID / -ID
  std::vector<std::string> target;                   // --target NAME / KEY=VALUE, validated
  unsigned timeout_ms = 20000;                       // per solver question
  unsigned rlimit = solver::kDefaultRlimit;          // per solver question, Z3 units; 0 = none
  std::optional<std::string> dump_dir;               // --dump-smt2 DIR
  // Prove what follows from must-happen-before paths without the solver (properties/must_order.h);
  // --no-order-proofs sends every obligation to Z3.
  bool order_proofs = true;
  // Look for each counterexample in its obligation's slice first (properties/slice.h), replayed
  // on the whole program, in programs of more than `slice_above` events (below that the whole
  // encoding is cheaper than a second solver context), for the questions order proofs could not
  // answer (with order_proofs off most are proofs, which a slice cannot give); --no-slice asks
  // only the whole program.
  bool slice = true;
  size_t slice_above = 2000;
  // Z3 takes in a question's constraints outside its resource limit and the watchdog, in time
  // that grows faster than the program: `check --rlimit 300` of a generated one-bug frame whose
  // slices ran out of that limit took 8.6 s at 13,000 lowered events, 41 s at 23,000 and 95 s
  // at 33,000, nearly all of it Z3 taking in the whole program for the first question about it.
  // So while an rlimit is set, no question about the whole program (one the slices and the
  // must-happen-before paths could not answer) is asked of a program of more than this many
  // events: the property is unknown, with the reason, and a limited run stays near its limits.
  // A test setting (no option); --rlimit 0 lifts it.
  size_t whole_question_events = 20000;
  // Ask once more for a counterexample whose shown events are apart in time when the solver tied
  // some (encode/check.cpp: separate_ties): it makes the trace read as an interleaving, and it is
  // most of a violated question's time on a mid-size case (a 131-command frame: 0.45 s of 0.5 s).
  // A fix search reads the verdicts, which obligation failed and the flags the explanation
  // blames (only to order its tries: synth/search.h), never how the trace reads, so it leaves it
  // off; what is shown to the user keeps it.
  bool untie = true;
  // Stop a violated property at its first failing obligation (in the obligations' order, so it
  // is the obligation a full check reports; the count of failing obligations is then 1, the rest
  // counted as undecided): what a fix search asks, which reads only whether and where a property
  // fails.
  bool first_violation = false;
  // Give each proof its assumption list: the minimization of a property's list (the unsat cores
  // over its proofs and the must-order paths' lists) and deadlock-free's (a lowering and a
  // check without each relevant assumption: properties/deadlock_rules.h). A fix search reads
  // only verdicts and failing obligations, so it leaves them off (its proofs list none); what is
  // shown to the user keeps them.
  bool assumption_lists = true;
  // Take the solver's Z3 contexts from this pool (solver/context_pool.h: for the questions of one
  // search on one thread, whose answers may then differ from a fresh context's); none: fresh ones.
  std::shared_ptr<solver::ContextPool> contexts;
};

// The engines' shared result types (properties/result.h).
using properties::as_expected;
using properties::CaseResult;
using properties::PropertyResult;

CaseResult check_case(const model::Case& c, const CheckOptions& o);
// The same on the case's lowering made by the caller: model::lower(c, o's configuration,
// model::config_for(c, o.profile, o.assume, o.target)), so that the engines of `check --engine
// both` share one. The result's times leave the lowering out.
CaseResult check_case(const model::Case& c, const model::LoweredProgram& p, const CheckOptions& o);

}  // namespace syncproof::encode
