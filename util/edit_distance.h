#pragma once
// The one edit distance of the project, behind every "did you mean ...?" suggestion (flag names
// in model/flags.cpp, names and keywords in lang/).
#include <cstddef>
#include <string_view>

namespace syncproof::util {

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), comparing ASCII
// letters case-insensitively.
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace syncproof::util
