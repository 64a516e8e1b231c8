#pragma once
// A fix as the user gets it: the edit lines, the text edits, the edited file and its unified
// diff. The edited text is parsed again and must give exactly the fixed case the engines checked
// (same commands, flags and expectations) and no new diagnostic, or it is not given.
#include <string>
#include <vector>

#include "properties/verdict.h"
#include "synth/fix.h"
#include "synth/source_edit.h"

namespace syncproof::synth {

struct EditedText {
  std::vector<std::string> edits;               // describe(): one line per flag and command
  std::vector<properties::SourceEdit> changes;  // the text edits
  SourceText text;                              // the edited file
  std::string diff;                             // unified diff
  std::string error;                            // non-empty: the text could not be edited
};

// `source`: the case file's text as read; `fixed`: the case the changes lead to.
EditedText edit_text(const model::Case& orig, const std::string& source,
                     const std::vector<Change>& changes, const model::Case& fixed,
                     const model::CostModel& costs);

// Whether two cases have the same commands (bodies, flags, control flags, waits) on the same
// queues and the same property expectations: what a re-parsed edited file must give.
bool same_commands(const model::Case& a, const model::Case& b, std::string* where);

// The fix a violation's trace carries (properties::Fix) for one property's fix.
properties::Fix trace_fix(const model::Case& orig, const std::string& source, const FixResult& r,
                          const model::CostModel& costs);

}  // namespace syncproof::synth
