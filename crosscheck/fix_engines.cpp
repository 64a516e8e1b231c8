#include "crosscheck/fix_engines.h"

#include <fmt/format.h>

#include "crosscheck/cross_check.h"

namespace syncproof::crosscheck {

synth::FixOptions fix_options(const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                              const model::CostModel& costs, size_t budget) {
  synth::FixOptions o;
  o.costs = costs;
  o.budget = budget;
  encode::CheckOptions s = smt;
  s.dump_dir.reset();
  o.search = [s](const model::Case& c) { return encode::check_case(c, s); };
  o.verify = [s, ex](const model::Case& c) {
    CrossResult x = cross_check(c, s, ex);
    synth::Verification v;
    v.smt = std::move(x.smt);
    v.exec = std::move(x.exec);
    for (const Problem& p : x.problems)
      v.problems.push_back(fmt::format("the engines disagree ({}) on {}: {}", to_string(p.kind),
                                       c.properties[p.property].loc.line, p.detail));
    return v;
  };
  return o;
}

}  // namespace syncproof::crosscheck
