#include "crosscheck/fix_engines.h"

#include <fmt/format.h>

#include <memory>

#include "crosscheck/cross_check.h"
#include "solver/context_pool.h"

namespace syncproof::crosscheck {

namespace {

// `search`: the SMT engine's options for the search's questions; `s` those of the check of a fix.
synth::Engines engines(const encode::CheckOptions& search, const encode::CheckOptions& s,
                       const exec::ExecOptions& ex) {
  synth::Engines e;
  e.search = [search](const model::Case& c) { return encode::check_case(c, search); };
  // The check of a fix reads the executor's verdicts, never its lists (synth/fix.cpp,
  // synth/redundant.cpp, tools/synth_check.cpp, tools/cmd_barrier.cpp; the SMT engine's lists are
  // reported): they are not minimized, which in a proof costs more searches than the proof.
  exec::ExecOptions verdicts = ex;
  verdicts.minimize_assumptions = false;
  e.verify = [s, verdicts](const model::Case& c) {
    CrossResult x = cross_check(c, s, verdicts);
    synth::Verification v;
    v.smt = std::move(x.smt);
    v.exec = std::move(x.exec);
    for (const Problem& p : x.problems)
      v.problems.push_back(fmt::format("the engines disagree ({}) on {}: {}", to_string(p.kind),
                                       c.properties[p.property].loc.line, p.detail));
    return v;
  };
  return e;
}

}  // namespace

synth::FixOptions fix_options(const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                              const model::CostModel& costs, size_t budget) {
  synth::FixOptions o;
  o.costs = costs;
  o.budget = budget;
  encode::CheckOptions s = smt;
  s.dump_dir.reset();
  synth::Engines plain = engines(s, s, ex);
  o.search = std::move(plain.search);
  o.verify = std::move(plain.verify);
  // Each search's SMT questions share a pool of Z3 contexts: a fix search makes one per engine
  // call, and making one is most of a small call's time (solver/context_pool.h).
  // A session's search reads verdicts and failing obligations, not how a trace reads, so it does
  // not ask again for a counterexample without ties (encode/check.h: untie); the check of the fix
  // (`verify`) does, and so does the plain `search`, which re-checks advice by its explanation
  // (synth/missing.h).
  o.session = [s, ex] {
    encode::CheckOptions pooled = s;
    pooled.contexts = std::make_shared<solver::ContextPool>();
    encode::CheckOptions searching = pooled;
    searching.untie = false;
    searching.first_violation = true;
    searching.assumption_lists = false;
    // And it looks for each counterexample in its obligation's slice whatever the program's
    // size: most of a search's questions are violations (synth/search.h grows sets of edits
    // that still fail), and with the pool's contexts a slice's own context costs little.
    // (Measured on cases/frames, `syncproof_bench fix`: median 415 -> 119 ms.)
    searching.slice_above = 0;
    return engines(searching, pooled, ex);
  };
  return o;
}

}  // namespace syncproof::crosscheck
