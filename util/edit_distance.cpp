#include "util/edit_distance.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace syncproof::util {

size_t edit_distance(std::string_view a, std::string_view b) {
  const auto low = [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  };
  // Three rows: the one before the previous is needed for transpositions.
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = low(a[i - 1]) == low(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && low(a[i - 1]) == low(b[j - 2]) && low(a[i - 2]) == low(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  for (const std::string& cand : candidates) {
    const size_t d = edit_distance(word, cand);
    if (d < best_d && d < std::max(word.size(), cand.size())) {
      best_d = d;
      best = cand;
    }
  }
  return best;
}

}  // namespace syncproof::util
