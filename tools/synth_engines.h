#pragma once
// The engines behind `syncproof fix`, `check --redundant`, `check`'s fixes and `barrier`: the SMT
// engine for the search, and both engines (tools/cross_check.h) for the check of every fix before
// it is printed.
#include <string>
#include <vector>

#include "encode/check.h"
#include "exec/check.h"
#include "synth/fix.h"

namespace syncproof::cli {

synth::FixOptions fix_options(const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                              const model::CostModel& costs, size_t budget);

// `--cost NAME=N`, repeatable: the cost model with the overrides, or the first error.
std::optional<std::string> apply_costs(model::CostModel& m, const std::vector<std::string>& sets);

}  // namespace syncproof::cli
