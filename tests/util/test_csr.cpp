// util::Csr (util/csr.h): lists by index in one array. Each list keeps its items in the order of
// the pairs it was made from (the proof cones' walks, and so their cones, depend on that order),
// and lists no pair names are empty.
#include <doctest/doctest.h>

#include <utility>
#include <vector>

#include "util/csr.h"

using syncproof::util::Csr;

namespace {

template <class T>
std::vector<T> items(const Csr<T>& c, size_t i) {
  return {c[i].begin(), c[i].end()};
}

}  // namespace

TEST_CASE("a compressed list keeps each list's items in the pairs' order") {
  const Csr<uint32_t> c(4, {{2, 7}, {0, 5}, {2, 1}, {0, 9}, {2, 4}});
  REQUIRE(c.size() == 4);
  CHECK(items(c, 0) == std::vector<uint32_t>{5, 9});
  CHECK(items(c, 1).empty());
  CHECK(items(c, 2) == std::vector<uint32_t>{7, 1, 4});
  CHECK(items(c, 3).empty());
}

TEST_CASE("a compressed list of pairs, and one of nothing") {
  const int list = 0;
  const Csr<std::pair<const void*, uint32_t>> c(2, {{1, {nullptr, 3}}, {1, {&list, 4}}});
  REQUIRE(c.size() == 2);
  CHECK(c[0].empty());
  REQUIRE(c[1].size() == 2);
  CHECK(c[1][0].second == 3);
  CHECK(c[1][1].first == &list);
  const Csr<uint32_t> none(3, {});
  CHECK(none.size() == 3);
  CHECK(none[2].empty());
  CHECK(Csr<uint32_t>().size() == 0);
}

TEST_CASE("lists made by key and item into vectors that held other lists") {
  // Entry i goes to list key[i] as item 10 * i: the vectors start with another graph's lists,
  // longer than these, as the executor's cone graphs reuse them.
  const std::vector<uint32_t> key{3, 1, 3, 0, 1, 3};
  std::vector<uint32_t> start{9, 9, 9, 9, 9, 9, 9, 9}, items(20, 7);
  syncproof::util::csr_of(
      5, key.size(), [&](size_t i) { return key[i]; },
      [](size_t i) { return static_cast<uint32_t>(10 * i); }, &start, &items);
  CHECK(start == std::vector<uint32_t>{0, 1, 3, 3, 6, 6});
  CHECK(items == std::vector<uint32_t>{30, 10, 40, 0, 20, 50});
  syncproof::util::csr_of(
      2, 0, [](size_t) { return 0u; }, [](size_t) { return 0u; }, &start, &items);
  CHECK(start == std::vector<uint32_t>{0, 0, 0});
  CHECK(items.empty());
}
