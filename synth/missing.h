#pragma once
// `missing:` that is never wrong (docs/FIX.md, "What `missing:` names"). Under a violation whose
// fix was searched (`check` under a violated `prove`, `check --fix`), `missing:` is that fix: every
// edit of it, joined by "and", proved by both engines. Elsewhere (a `refute` in a plain `check`, a
// fix over the budget) each alternative the explanation names is made on a copy of the case and
// the property is checked again: an alternative stays only when it proves the property or
// removes this counterexample (the property then fails another way), and says which. Phrases
// that name no single edit ("a fence or label wait") stay as they are; an alternative that names
// a flag its command already has, or one the linter rejects there, never appears.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "properties/verdict.h"
#include "synth/changes.h"
#include "synth/edit.h"
#include "synth/search.h"

namespace syncproof::synth {

// The edit a `missing:` alternative names (properties::remedy_of), valid for its API and queue,
// or nothing: a phrase, a range, a flag its command already has or the linter rejects there.
std::optional<Edit> missing_edit(const model::Case& c, std::string_view text);

enum class Recheck : uint8_t {
  Proves,   // with the edit, the property is proved
  Removes,  // with the edit, the property fails another way (another obligation or reason)
  Stays,    // with the edit, it fails the same way: the advice is wrong
  Unknown,  // the engine gave no verdict
};
// Makes `e` on `c` and checks property `prop` again with `run`; `v` is its violation in `c`.
Recheck recheck(const model::Case& c, size_t prop, const properties::Violated& v, const Edit& e,
                const CaseRun& run);

// Keeps the alternatives of v.trace.blamed that are phrases or that re-check as Proves/Removes,
// each marked with what the re-check found. Returns whether an edit stayed.
bool recheck_missing(const model::Case& c, size_t prop, properties::Violated& v,
                     const CaseRun& run);

// `missing:` as a fix's changes: "FLAG on API at f:12 and SyncTopOfPipeX(...) before f:14".
std::string missing_from_changes(const model::Case& c, const std::vector<Change>& changes);

// The text re-check marks an alternative with.
inline constexpr std::string_view kProves = " (checked: with it the property is proved)";
inline constexpr std::string_view kRemoves =
    " (checked: with it this counterexample is gone; the property still fails another way)";
// A `missing:` that is the fix printed under it (proved by both engines).
inline constexpr std::string_view kTheFix = " (the fix below)";

}  // namespace syncproof::synth
