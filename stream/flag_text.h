#pragma once
// Flag words written back as case-language text, the inverse of the parser's flag words: bits by
// their short names (CS_PARTIAL_FLUSH), the ICACHE/GL1/GL2 selector fields by their constant,
// bits no constant names as one hex number. Parsing the text gives back the same value. Used by
// `syncproof export` and by the recorder (record/), which both write case text.
#include <cstdint>
#include <string>
#include <vector>

#include "model/case.h"

namespace syncproof::stream {

// The names (and at most one number) whose OR is `value`; {"NONE"} for 0. A MARGIN field is its
// MARGIN constant when `spelled` says so (or always, by default: a value from an API call is
// exact), otherwise the pieces that OR to it (ICACHE_INVALIDATE | ICACHE_RANGE, GL1_RANGE | 0x4,
// GL2_VOLATILE | GL2_RANGE), which the linter reads as an accidental MARGIN, as it did before.
std::vector<std::string> sync_flag_names(uint32_t value,
                                         model::SpelledMargins spelled = {true, true, true});
std::vector<std::string> dispatch_flag_names(uint32_t value);
std::vector<std::string> control_flag_names(model::ControlFlags f);
std::string write_flag_name(model::WriteValueSource s);  // NONE, GPU_TIMESTAMP, SYSTEM_TIMESTAMP

// "A | B | 0x4000" (names joined as the case language writes them).
std::string join_flags(const std::vector<std::string>& names);

// A short name: the full constant name without its family prefix.
std::string short_name(std::string_view full);

}  // namespace syncproof::stream
