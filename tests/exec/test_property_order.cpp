// The executor's order of work within a property (exec/check.cpp, decide_property): lists are
// minimized only for properties that end proved, an obligation left unknown does not hide a
// later violation, and a cone proof's minimization asks first without every assumption it has
// left to try.
#include <doctest/doctest.h>

#include "exec/check.h"
#include "exec_test_util.h"
#include "properties/deadlock_rules.h"
#include "properties/result.h"
#include "tests/case_fixture.h"

using namespace syncproof;
using namespace syncproof::exec;
using namespace syncproof::exec::testing;

namespace {

// A produce/consume pair the barrier orders (proved, with assumptions), then a write and a read
// of `other` on the same queue with nothing between them (violated).
const std::string kProvedThenViolated =
    syncproof::testing::kUavSrvCommands + R"(buffer other 0x20000 0x4000
on acs:
  Dispatch writes other as uav
  Dispatch reads other as srv
)";

// A wait for a label value that a later write can replace before the wait polls: the case may
// hang, so a safety proof is unknown (properties::unless_it_hangs).
const std::string kMayHang = syncproof::testing::kUavSrvCommands + R"(queue gfx graphics
label l 0x300000
on acs:
  Write32BitValueBottomOfPipe2X(l, 1, NONE, NONE, NONE)
  Write32BitValueBottomOfPipe2X(l, 2, NONE, NONE, NONE)
on gfx:
  Wait32BitValueX(l, EQUAL, 1)
check visible produce -> consume
check deadlock-free
)";

uint64_t states(const Fixture& f, bool minimize) {
  ExecOptions opt;
  opt.minimize_assumptions = minimize;
  return check_case(f.c, opt).states;
}

}  // namespace

TEST_CASE("a violated property's proved obligations are not minimized") {
  // Minimizing the pair's proof costs searches when the property is proved ...
  Fixture proved(kProvedThenViolated + "check visible produce -> consume\n");
  REQUIRE(std::holds_alternative<properties::Proved>(check_case(proved.c, {}).results[0].verdict));
  CHECK(states(proved, true) > states(proved, false));
  // ... and none when a later obligation of the property fails.
  Fixture violated(kProvedThenViolated + "check no-hazards\n");
  const auto r = check_case(violated.c, {});
  const auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->witness.obligation > 0);  // the first obligation holds
  CHECK(states(violated, true) == states(violated, false));
}

TEST_CASE("a proof the hang rule makes unknown is not minimized") {
  Fixture f(kMayHang);
  const auto r = check_case(f.c, {});
  REQUIRE(r.results.size() == 2);
  CHECK(std::holds_alternative<properties::Violated>(r.results[1].verdict));
  const auto* u = std::get_if<properties::Unknown>(&r.results[0].verdict);
  REQUIRE(u);
  CHECK(u->reason.find("the case may hang") != std::string::npos);
  CHECK(properties::may_hang(r.results[0].verdict));
  CHECK(states(f, true) == states(f, false));
}

TEST_CASE("an obligation left unknown does not hide a later violation") {
  // The pair needs a search (one state is not enough); the write of `other` on gfx races with
  // acs's accesses, which needs none.
  Fixture f(syncproof::testing::kUavSrvCommands + R"(queue gfx graphics
buffer other 0x20000 0x4000
on acs:
  Dispatch writes other as uav
on gfx:
  Dispatch writes other as uav
check no-hazards
check visible produce -> consume
)");
  ExecOptions opt;
  opt.max_states = 1;
  const auto r = check_case(f.c, opt);
  const auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->witness.obligation > 0);
  CHECK(v->trace.why.find("race") == 0);
  // A property with no violation stays unknown.
  const auto* u = std::get_if<properties::Unknown>(&r.results[1].verdict);
  REQUIRE(u);
  CHECK(u->reason.find("state budget exhausted") == 0);
  CHECK_FALSE(properties::may_hang(r.results[1].verdict));  // cut short (syncproof fuzz counts it)
}

TEST_CASE("a cone proof's minimization first asks without every assumption left to try") {
  // The barrier orders the pair by itself: its proof in its cone holds without any of the
  // assumptions present there, so one search decides the list, not one per assumption (each a
  // search as large as the first).
  Fixture f(R"(queue gfx graphics
buffer lights 0x10000 0x4000
on gfx:
  cull: Dispatch writes lights as uav
  Barrier(BUFFER, lights, COMPUTE_SHADING, PIXEL_SHADING, UNORDERED_ACCESS, SHADER_RESOURCE)
  shade: Draw reads lights as srv in ps
check visible cull -> shade
)");
  ExecOptions opt;
  opt.cone_above = 0;  // proofs from cones (exec/cone.h)
  const auto r = check_case(f.c, opt);
  REQUIRE(r.cone_proofs == 1);
  const auto* pr = std::get_if<properties::Proved>(&r.results[0].verdict);
  REQUIRE(pr);
  CHECK(pr->assumptions.empty());
  opt.minimize_assumptions = false;
  const auto first = check_case(f.c, opt);
  const auto* all = std::get_if<properties::Proved>(&first.results[0].verdict);
  REQUIRE(all);
  // Three assumptions are present in the cone; one at a time they took 46 states after the
  // first search's 16 (one search each), together they take 14. That search comes first and is
  // the proof (exec/check.cpp first_search): no search with them all follows it.
  CHECK(all->assumptions.size() == 3);
  CHECK(first.states == 16);
  CHECK(r.states == 14);
}

TEST_CASE("after the first counterexample a race is counted without a search") {
  // Three buffers both queues write with nothing between: three races. A race is violated in
  // every complete execution, so only the first needs one (for its trace); the others are
  // counted. The property's states are that one execution's events.
  Fixture f(syncproof::testing::kThreeRaces);
  const auto r = check_case(f.c, {});
  const auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->witness.obligation == 0);
  CHECK(v->trace.why.find("race") == 0);
  CHECK(v->failing == 3);
  CHECK(r.states == r.events);
}

TEST_CASE("after the first counterexample, obligations left undecided are counted as such") {
  // A race on `grid` and a barrier-ordered write and read of `lights`: with a budget of one
  // state the read's search gives up, the race is violated all the same. The count of failing
  // obligations is then a lower bound, and the verdict says how many were left undecided.
  Fixture f(R"(queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
buffer lights 0x20000 0x1000
on gfx:
  Dispatch writes lights as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(GL2_WRITEBACK | GL2_INVALIDATE | GL1_INVALIDATE | GL0_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  Dispatch reads lights as srv
  Dispatch writes grid as uav
on acs:
  Dispatch writes grid as uav
check no-hazards
)");
  ExecOptions opt;
  const auto full = check_case(f.c, opt);
  const auto* all = std::get_if<properties::Violated>(&full.results[0].verdict);
  REQUIRE(all);
  CHECK(all->failing == 1);
  CHECK(all->undecided == 0);
  opt.max_states = 1;
  const auto cut = check_case(f.c, opt);
  const auto* v = std::get_if<properties::Violated>(&cut.results[0].verdict);
  REQUIRE(v);
  CHECK(v->trace.why.find("race") == 0);
  CHECK(v->failing == 1);
  CHECK(v->undecided == 1);
  // Stopped at the first counterexample: every later obligation is undecided.
  opt.max_states = ExecOptions{}.max_states;
  opt.first_violation = true;
  Fixture races(syncproof::testing::kThreeRaces);
  const auto first = check_case(races.c, opt);
  const auto* r = std::get_if<properties::Violated>(&first.results[0].verdict);
  REQUIRE(r);
  CHECK(r->failing == 1);
  CHECK(r->undecided == 2);
}
