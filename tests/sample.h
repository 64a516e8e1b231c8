#pragma once
// The sanitized sample. scripts/test.sh runs every test in two builds: in build/ (optimised) the
// comparisons over the whole case library and the generated corpora run whole, and decide whether
// two ways of answering agree; in build-asan/ (ASan+UBSan, three to six times slower) the
// heaviest of them run on every kSampleStride-th case, which reaches the same code for the
// sanitizers to watch at a third of the cost. A count a test expects over the whole set is
// scaled() with the sample. Every case file is still checked whole under the sanitizers, one
// CTest test per file (tests/cases/).
#include <cstddef>
#include <utility>
#include <vector>

namespace syncproof::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// -DSYNCPROOF_SAMPLE_STRIDE=N (CMAKE_CXX_FLAGS) runs the sample in any build: how one checks,
// fast, that a sampled comparison still fails on a seeded fault.
#ifdef SYNCPROOF_SAMPLE_STRIDE
inline constexpr size_t kSampleStride = SYNCPROOF_SAMPLE_STRIDE;
#else
inline constexpr size_t kSampleStride = kSanitized ? 3 : 1;
#endif

// Every kSampleStride-th element, the first included (all of them in an optimised build).
template <class T>
std::vector<T> sampled(std::vector<T> all) {
  if (kSampleStride == 1) return all;
  std::vector<T> out;
  for (size_t i = 0; i < all.size(); i += kSampleStride) out.push_back(std::move(all[i]));
  return out;
}

// A count expected over the whole set, for the sample.
constexpr size_t scaled(size_t whole) {
  return whole / kSampleStride;
}

}  // namespace syncproof::testing
