#pragma once
// Shrinking a random case while a failure persists (the CaDiCaL mobical idea): drop properties,
// queues, commands, declarations, accesses and single flags one at a time, keeping each change
// after which `still` holds, until no single change keeps it.
#include <functional>

#include "tools/fuzz_gen.h"

namespace syncproof::cli {

FuzzCase shrink(FuzzCase fc, const std::function<bool(const FuzzCase&)>& still);

// The smaller variants of one command line: one flag less (or NONE for a lone flag word), one
// access less, the whole-memory range instead of a range.
std::vector<std::string> line_variants(const std::string& line);

}  // namespace syncproof::cli
