#pragma once
// What every benchmark of syncproof_bench computes alike: the median of its repetitions and the
// milliseconds since a start.
#include <algorithm>
#include <chrono>
#include <vector>

namespace syncproof::bench {

// For an even count, the mean of the two middle values (0 for none).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t half = v.size() / 2;
  return v.size() % 2 ? v[half] : (v[half - 1] + v[half]) / 2;
}

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace syncproof::bench
