// util::Stack (util/stack.h): last in, first out, across growth and clears that keep storage.
#include <doctest/doctest.h>

#include <vector>

#include "util/stack.h"

using syncproof::util::Stack;

TEST_CASE("a stack pops what it pushed, last first, past its growth and after a clear") {
  Stack<unsigned> s;
  CHECK(s.empty());
  for (unsigned i = 0; i < 200; ++i) s.push(i);  // grows past its first 64 places twice
  CHECK(s.size() == 200);
  CHECK(std::vector<unsigned>(s.begin(), s.end()).back() == 199);
  for (unsigned i = 200; i-- > 150;) CHECK(s.pop() == i);
  CHECK(s.size() == 150);
  s.clear();
  CHECK(s.empty());
  CHECK(s.begin() == s.end());
  s.push(7), s.push(8);
  CHECK(std::vector<unsigned>(s.begin(), s.end()) == std::vector<unsigned>{7, 8});
  CHECK(s.pop() == 8);
  CHECK(s.pop() == 7);
  CHECK(s.empty());
}
