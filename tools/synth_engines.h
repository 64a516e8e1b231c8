#pragma once
// The engines behind `syncproof fix`, `check --redundant`, `check`'s fixes and `barrier`
// (crosscheck/fix_engines.h: the SMT engine for the search, both engines for the check of every
// fix), and the command line's cost overrides.
#include <optional>
#include <string>
#include <vector>

#include "crosscheck/fix_engines.h"

namespace syncproof::cli {

using crosscheck::fix_options;

// `--cost NAME=N`, repeatable: the cost model with the overrides, or the first error.
std::optional<std::string> apply_costs(model::CostModel& m, const std::vector<std::string>& sets);

}  // namespace syncproof::cli
