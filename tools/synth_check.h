#pragma once
// What `syncproof check` adds from synth/: the complete cheapest fix under every violation's
// trace (properties::Trace::fix: synth/attach_fixes.h), and with --redundant, for a case whose
// properties are all proved, the flags that can go and the smallest barrier (docs/FIX.md).
#include <string>

#include "properties/result.h"
#include "synth/attach_fixes.h"
#include "synth/fix.h"

namespace syncproof::cli {

struct SynthCheck {
  using Fixes = synth::FixPolicy;  // --no-fix, the default, --fix
  Fixes fixes = Fixes::Unexpected;
  bool redundant = false;
  synth::FixOptions opt;
};

// The --redundant report of one case ("" when not asked for).
std::string redundant_report(const model::Case& c, const properties::CaseResult& r,
                             const SynthCheck& s);

}  // namespace syncproof::cli
