// bench/stats.h: the median the benchmarks quote. For an even count it is the mean of the two
// middle values (it took the upper one, so the fix bench's median of 12 cases was its 7th).
#include <doctest/doctest.h>

#include "bench/stats.h"

using syncproof::bench::median;

TEST_CASE("the median of an odd count is its middle value, of an even count the middle mean") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({7}) == 7);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  CHECK(median({10, 20}) == 15);
  CHECK(median({}) == 0);
}
