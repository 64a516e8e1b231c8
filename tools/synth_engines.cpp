#include "tools/synth_engines.h"

#include <fmt/format.h>

#include "tools/cross_check.h"

namespace syncproof::cli {

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

std::optional<std::string> apply_costs(model::CostModel& m, const std::vector<std::string>& sets) {
  for (const std::string& s : sets)
    if (auto err = m.set(s)) return err;
  return std::nullopt;
}

}  // namespace syncproof::cli
