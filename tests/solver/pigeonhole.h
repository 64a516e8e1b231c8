#pragma once
// Pigeonhole: n pigeons, n - 1 holes. Unsat, and exponential for resolution: n = 12 takes Z3
// far longer than a millisecond.
#include <fmt/format.h>

#include <vector>

#include "solver/solver.h"

namespace syncproof::testing {

inline void add_pigeonhole(solver::Context& cx, solver::Solver& s, int n) {
  auto in = [&](int p, int h) { return cx.bool_var(fmt::format("in.{}.{}", p, h)); };
  for (int p = 0; p < n; ++p) {
    std::vector<solver::Term> holes;
    for (int h = 0; h + 1 < n; ++h) holes.push_back(in(p, h));
    s.add(cx.lor(holes));
  }
  for (int h = 0; h + 1 < n; ++h)
    for (int p = 0; p < n; ++p)
      for (int q = p + 1; q < n; ++q) s.add(cx.lor({cx.lnot(in(p, h)), cx.lnot(in(q, h))}));
}

}  // namespace syncproof::testing
