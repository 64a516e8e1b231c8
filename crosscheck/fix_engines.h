#pragma once
// The engines behind every fix syncproof gives (`syncproof fix`, `check`'s fixes, `check
// --redundant`, `barrier`, and Recorder::Verify): the SMT engine for the search, and both engines
// compared (cross_check.h: verdicts, and each counterexample replayed on the other engine) for
// the check of every fix before it is given.
#include <cstddef>

#include "encode/check.h"
#include "exec/check.h"
#include "synth/fix.h"

namespace syncproof::crosscheck {

synth::FixOptions fix_options(const encode::CheckOptions& smt, const exec::ExecOptions& ex,
                              const model::CostModel& costs, size_t budget);

}  // namespace syncproof::crosscheck
