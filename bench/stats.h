#pragma once
// What every benchmark of syncproof_bench computes alike: the median of its repetitions and the
// milliseconds since a start.
#include <algorithm>
#include <chrono>
#include <vector>

namespace syncproof::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace syncproof::bench
