// The reduced searches against the full state space and against a naive enumerator of every
// complete interleaving (exec_test_util.cpp, no code shared with exec/), on random tiny programs.
#include <doctest/doctest.h>

#include "exec/check.h"
#include "exec/graph.h"
#include "exec/search.h"
#include "exec_test_util.h"

using namespace syncproof;
using namespace syncproof::exec;
using namespace syncproof::exec::testing;

namespace {

Status run(const model::LoweredProgram& p, const properties::Obligation& o, bool reduce) {
  ExecOptions opt;
  opt.reduce = reduce;
  opt.minimize_assumptions = false;
  SearchStats st;
  return decide_obligation(p, o, opt, st).status;
}

bool complete_execution_exists(const model::LoweredProgram& p) {
  return any_execution(build_graph(p, WaitMode::Safety)).size() == p.events.size();
}

}  // namespace

TEST_CASE("reduced, full and naive searches agree on random tiny programs") {
  int compared = 0, violated = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Synthetic s(seed, 7 + static_cast<int>(seed % 2));
    if (!complete_execution_exists(s.p)) continue;
    for (const auto& o : s.obligations) {
      CAPTURE(seed);
      CAPTURE(o.name);
      const bool naive = naive_violated(s.p, o);
      const Status reduced = run(s.p, o, true), full = run(s.p, o, false);
      CHECK((reduced == Status::Violated) == naive);
      CHECK((full == Status::Violated) == naive);
      ++compared, violated += naive;
    }
  }
  CHECK(compared > 800);
  // Both answers must be well represented, or the comparison proves little.
  CHECK(violated > compared / 5);
  CHECK(violated < compared * 4 / 5);
}

TEST_CASE("deadlock: one run decides it, as the full state space and the naive search do") {
  int stuck = 0, compared = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Synthetic s(seed, 7);
    Graph g = build_graph(s.p, WaitMode::Deadlock);
    SearchStats st;
    auto reduced = search_deadlock(g, true, {}, st);
    auto full = search_deadlock(g, false, {}, st);
    const bool naive = naive_deadlock(s.p);
    CAPTURE(seed);
    CHECK((reduced.status == Status::Violated) == naive);
    CHECK((full.status == Status::Violated) == naive);
    ++compared, stuck += naive;
  }
  CHECK(stuck > 10);
  CHECK(stuck < compared - 10);
}

TEST_CASE("a violation's interleaving is a complete execution the monitor confirms") {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    Synthetic s(seed, 8);
    if (!complete_execution_exists(s.p)) continue;
    for (size_t i = 0; i < s.obligations.size(); ++i) {
      ExecOptions opt;
      SearchStats st;
      auto r = decide_obligation(s.p, s.obligations[i], opt, st);
      if (r.status != Status::Violated) continue;
      auto v = violation_verdict(s.p, s.obligations[i], static_cast<int>(i), r.order, r.line);
      REQUIRE(std::holds_alternative<properties::Violated>(v));
      CHECK(std::get<properties::Violated>(v).witness.times.size() == s.p.events.size());
      ++checked;
    }
  }
  CHECK(checked > 50);
}
