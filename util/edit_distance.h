#pragma once
// The one edit distance of the project, behind every "did you mean ...?" suggestion (flag names
// in model/flags.cpp, names and keywords in lang/).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::util {

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), comparing ASCII
// letters case-insensitively.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest to `word` for a "did you mean ...?", or nullopt when none is near: at most
// max(2, |word| / 3) edits away, and fewer edits than the longer of the two has letters. The
// first of equally near candidates wins.
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates);

}  // namespace syncproof::util
