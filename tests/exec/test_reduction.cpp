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
  // Per obligation kind (Fresh, Ordered, WriteOrder, ReadFirst): compared, violated.
  int compared[5] = {}, violated[5] = {}, value_rules = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    Synthetic s(seed, 7 + static_cast<int>(seed % 2));
    if (!complete_execution_exists(s.p)) continue;
    value_rules += !build_graph(s.p, WaitMode::Safety).monotone();
    for (const auto& o : s.obligations) {
      CAPTURE(seed);
      CAPTURE(o.name);
      const bool naive = naive_violated(s.p, o);
      const Status reduced = run(s.p, o, true), full = run(s.p, o, false);
      CHECK((reduced == Status::Violated) == naive);
      CHECK((full == Status::Violated) == naive);
      const int k = static_cast<int>(o.kind);
      ++compared[k], violated[k] += naive;
    }
  }
  // Waits a later write can hide (exec/graph.h value rules) must be well represented too.
  CHECK(value_rules > 25);
  // Both answers must be represented for every kind (at least one in twenty), or the comparison
  // proves little.
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    CHECK(compared[k] > 200);
    CHECK(violated[k] > compared[k] / 20);
    CHECK(violated[k] < compared[k] * 19 / 20);
  }
}

TEST_CASE(
    "deadlock: the reduced search decides it as the full state space and the naive search do") {
  int stuck = 0, compared = 0, value_rules = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Synthetic s(seed, 7);
    Graph g = build_graph(s.p, WaitMode::Deadlock);
    value_rules += !g.monotone();
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
  CHECK(value_rules > 40);
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

TEST_CASE("the assumptions a proof reports are needed, and enough") {
  int checked = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Synthetic s(seed, 7);
    if (!complete_execution_exists(s.p)) continue;
    const std::vector<model::Order> all = s.p.orders;
    // The program without the constraints of the assumptions outside `keep`: their orders, and
    // for A-INITIAL-ZERO the wait rules (nothing known of the initial value: no wait constrains).
    const model::AssumptionSet config = s.p.config.assumptions;
    auto only = [&](uint32_t keep) {
      s.p.orders.clear();
      for (const auto& o : all)
        if (!o.guard.id || (keep >> static_cast<int>(*o.guard.id) & 1u)) s.p.orders.push_back(o);
      const int iz = static_cast<int>(model::AssumptionId::InitialZero);
      s.p.config.assumptions.set(model::AssumptionId::InitialZero, keep >> iz & 1u);
    };
    for (const auto& o : s.obligations) {
      if (o.kind == properties::Obligation::Kind::Ordered) continue;
      s.p.orders = all;
      s.p.config.assumptions = config;
      SearchStats st;
      auto r = decide_obligation(s.p, o, {}, st);
      if (r.status != Status::Safe) continue;
      CAPTURE(seed);
      CAPTURE(o.name);
      only(r.assumptions);
      CHECK_FALSE(naive_violated(s.p, o));
      for (int a = 0; a < model::kAssumptionCount; ++a)
        if (r.assumptions >> a & 1u) {
          CAPTURE(r.assumptions);
          CAPTURE(a);
          only(r.assumptions & ~(1u << a));
          CHECK(naive_violated(s.p, o));
        }
      ++checked;
    }
    s.p.orders = all;
    s.p.config.assumptions = config;
  }
  CHECK(checked > 50);
}
