#pragma once
// How `syncproof check` and Recorder::Verify put fixes under violations (docs/FIX.md): the
// cheapest fix, checked by FixOptions::verify, under the violations the policy asks for, and
// under every other violation its `missing:` advice re-checked (synth/missing.h).
#include <cstdint>
#include <string>

#include "properties/result.h"
#include "synth/fix.h"

namespace syncproof::synth {

enum class FixPolicy : uint8_t {
  Off,         // no fix searched (`--no-fix`, Options::fix = false); advice still re-checked
  Unexpected,  // under a `prove` property that is violated (the default)
  All,         // under every violation, `refute` ones too (`--fix`)
};

// Fills trace.fix (and `missing:`) of the violations `fixes` asks for; sets as_expected again.
// The fixes' edits are made to the case's own lines.
void attach_fixes(const model::Case& c, properties::CaseResult& r, FixPolicy fixes,
                  const FixOptions& options);

// The case's text: its lines, each with its newline.
std::string case_source(const model::Case& c);

}  // namespace syncproof::synth
