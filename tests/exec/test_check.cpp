// The executor on case files: verdicts, budgets, deadlocks, traces and assumptions.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include <filesystem>

#include "exec/check.h"
#include "exec/replay.h"
#include "exec_test_util.h"
#include "lang/lint_files.h"
#include "properties/result.h"
#include "tests/case_fixture.h"
#include "tests/sample.h"

using namespace syncproof;
using namespace syncproof::exec;
using namespace syncproof::exec::testing;

namespace {

const std::string kUavSrv =
    syncproof::testing::kUavSrvCommands + R"(prove visible produce -> consume
prove no-hazards
prove deadlock-free
)";

const char* kNoGl1 = R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
refute visible produce -> consume missing GL1_INVALIDATE
)";

const char* kDeadlock = R"(queue a compute
queue b compute
fence f
fence g
on a:
  Wait(g, 1)
  Signal(f, 1)
on b:
  Wait(f, 1)
  Signal(g, 1)
refute deadlock-free
)";

}  // namespace

TEST_CASE("a synchronized producer/consumer is proved, with the assumptions it needs") {
  Fixture f(kUavSrv);
  auto r = check_case(f.c, {});
  REQUIRE(r.results.size() == 3);
  for (const auto& pr : r.results) CHECK(pr.as_expected);
  auto* proved = std::get_if<properties::Proved>(&r.results[0].verdict);
  REQUIRE(proved);
  // The proof rests on the wave end (A-WAVE-END-STORES-IN-GL2) and the GL1-before-GL0 order.
  CHECK(proved->assumptions ==
        std::vector<std::string>{"A-GCR-OUTER-FIRST", "A-WAVE-END-STORES-IN-GL2"});
  CHECK(r.states > 0);
}

TEST_CASE("without minimization every present assumption is listed") {
  Fixture f(kUavSrv);
  ExecOptions opt;
  opt.minimize_assumptions = false;
  auto r = check_case(f.c, opt);
  auto* proved = std::get_if<properties::Proved>(&r.results[0].verdict);
  REQUIRE(proved);
  CHECK(proved->assumptions.size() >= 2);
}

TEST_CASE("a missing GL1 invalidation is refuted with a trace naming it, and replays") {
  Fixture f(kNoGl1);
  auto r = check_case(f.c, {});
  REQUIRE(r.results.size() == 1);
  CHECK(r.results[0].as_expected);
  auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->trace.why.rfind("fresh: ", 0) == 0);
  CHECK_FALSE(v->trace.lines.empty());
  for (size_t i = 1; i < v->trace.lines.size(); ++i)
    CHECK(v->trace.lines[i - 1].time <= v->trace.lines[i].time);
  // The witness is an execution of the program that the replay accepts as a violation.
  auto obs = properties::obligations_for(f.p, f.c.properties[0]);
  auto rep = replay(f.p, obs.list.at(v->witness.obligation), v->witness.times, v->witness.line);
  CHECK_MESSAGE(rep.ok, rep.problem);
}

TEST_CASE("a replay rejects an execution that breaks the lowering's orders") {
  Fixture f(kNoGl1);
  auto obs = properties::obligations_for(f.p, f.c.properties[0]);
  std::vector<long long> backwards(f.p.events.size());
  for (size_t e = 0; e < backwards.size(); ++e) backwards[e] = static_cast<long long>(100 - e);
  auto rep = replay(f.p, obs.list.at(0), backwards, obs.list[0].fresh.lo);
  CHECK_FALSE(rep.ok);
  CHECK(rep.problem.find("breaks the lowering") != std::string::npos);
}

TEST_CASE("deadlock: two queues waiting on each other, the stuck waits in the trace") {
  Fixture f(kDeadlock);
  auto r = check_case(f.c, {});
  auto* v = std::get_if<properties::Violated>(&r.results.at(0).verdict);
  REQUIRE(v);
  REQUIRE(v->trace.lines.size() == 2);
  CHECK(v->trace.lines[0].command == "Wait");
  CHECK(v->trace.lines[1].command == "Wait");
  CHECK(v->trace.why.find("a line 6 and b line 9") != std::string::npos);
}

TEST_CASE("an exhausted budget gives unknown, never a proof") {
  Fixture f(kUavSrv);
  ExecOptions opt;
  opt.reduce = false;
  opt.max_states = 3;
  auto r = check_case(f.c, opt);
  CHECK(std::holds_alternative<properties::Unknown>(r.results[0].verdict));
  CHECK(std::get<properties::Unknown>(r.results[0].verdict).reason.find("state budget") !=
        std::string::npos);
  CHECK(std::holds_alternative<properties::Unknown>(r.results[2].verdict));
  opt.max_states = 0;  // unlimited, but no time at all
  opt.timeout_ms = 0;
  r = check_case(f.c, opt);
  CHECK_FALSE(std::holds_alternative<properties::Proved>(r.results[2].verdict));
}

TEST_CASE("the whole library: reduced verdicts as expected, full search agrees where it finishes" *
          doctest::test_suite("full-size")) {
  int full_checked = 0;
  for (const auto& in : syncproof::testing::sampled(
           lang::collect_case_files({std::string(SYNCPROOF_SOURCE_DIR) + "/cases"}))) {
    auto pr = lang::parse_case_file(in.path);
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    CAPTURE(in.path);
    auto reduced = check_case(pr.c, {});
    // The verdict must be the expected one, and a refutation's explanation must name what the
    // case says is missing: the counterexample may differ from the SMT engine's, but a flag that
    // every fix needs is named whichever way the execution went wrong first.
    for (const auto& r : reduced.results) {
      const auto& prop = pr.c.properties[r.property];
      CAPTURE(prop.loc.line);
      if (prop.expect == model::Expectation::Holds)
        CHECK(std::holds_alternative<properties::Proved>(r.verdict));
      if (prop.expect == model::Expectation::Violated)
        CHECK(properties::as_expected(prop, r.verdict));
    }
    ExecOptions full;
    full.reduce = false;
    full.max_states = 200'000;
    full.minimize_assumptions = false;
    auto all = check_case(pr.c, full);
    for (size_t i = 0; i < all.results.size(); ++i) {
      if (std::holds_alternative<properties::Unknown>(all.results[i].verdict)) continue;
      CHECK(all.results[i].verdict.index() == reduced.results[i].verdict.index());
      ++full_checked;
    }
  }
  CHECK(full_checked > static_cast<int>(syncproof::testing::scaled(20)));
}

// build_graph gives a monotone rule on writers that orders land in event order its first
// candidate alone (every execution has it land before the others); writers on two queues keep
// every candidate.
TEST_CASE("build_graph: a wait on chained writers waits for the first of its candidates") {
  auto rule_candidates = [](const std::string& signals) {
    const syncproof::testing::LoweredCase t(
        "queue gfx graphics\nqueue acs compute\n"
        "queue dma compute\nfence f\n" +
        signals + "on acs:\n  Wait(f, 2)\n");
    const Graph g = build_graph(t.p, WaitMode::Safety);
    REQUIRE(g.rule_wait.size() == 1);
    std::vector<std::string> out;
    for (uint32_t i = g.cand_start[0]; i < g.cand_start[1]; ++i) {
      const model::Event& e = t.p.events[g.cand[i]];
      out.push_back(fmt::format("{}:{}", t.p.source->queues[e.queue].name, e.cmd));
    }
    return out;
  };
  // Signals 2 and 3 both satisfy the wait; on one queue, 2 lands first.
  CHECK(rule_candidates("on gfx:\n  Signal(f, 1)\n  Signal(f, 2)\n  Signal(f, 3)\n") ==
        std::vector<std::string>{"gfx:1"});
  // Every signal satisfies it; those on gfx land in order, but not with dma's.
  CHECK(rule_candidates("on gfx:\n  Signal(f, 2)\n  Signal(f, 3)\n") ==
        std::vector<std::string>{"gfx:0"});
  CHECK(rule_candidates("on gfx:\n  Signal(f, 2)\n  Signal(f, 3)\non dma:\n  Signal(f, 4)\n") ==
        std::vector<std::string>{"gfx:0", "gfx:1", "dma:0"});
}
