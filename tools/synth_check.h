#pragma once
// What `syncproof check` adds from synth/: the complete cheapest fix under every violation's
// trace (properties::Trace::fix), and with --redundant, for a case whose properties are all
// proved, the flags that can go and the smallest barrier (docs/FIX.md).
#include <string>

#include "properties/result.h"
#include "synth/fix.h"

namespace syncproof::cli {

struct SynthCheck {
  enum class Fixes : uint8_t {
    Off,         // --no-fix
    Unexpected,  // the default: under a `prove` property that is violated
    All,         // --fix: under every violation, `refute` ones too
  } fixes = Fixes::Unexpected;
  bool redundant = false;
  synth::FixOptions opt;
};

// Fills trace.fix of the violations `s.fixes` asks for. The source is the case's own lines.
void attach_fixes(const model::Case& c, properties::CaseResult& r, const SynthCheck& s);

// The --redundant report of one case ("" when not asked for).
std::string redundant_report(const model::Case& c, const properties::CaseResult& r,
                             const SynthCheck& s);

}  // namespace syncproof::cli
