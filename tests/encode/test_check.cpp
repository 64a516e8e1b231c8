// The SMT engine end to end: verdicts, the assumptions a proof reports, vacuity, explanations,
// the order-proof shortcut against the solver, SMT-LIB dumps, and the count of failing obligations.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>

#include "encode/check.h"
#include "tests/case_fixture.h"

using namespace syncproof;

namespace {

const std::string kUavSrv = testing::kUavSrvCommands + R"(prove visible produce -> consume
)";

}  // namespace

TEST_CASE("a proof lists exactly the assumptions it rests on, with and without order proofs") {
  auto c = testing::parse_case_text(kUavSrv);
  for (bool order_proofs : {true, false}) {
    encode::CheckOptions opt;
    opt.order_proofs = order_proofs;
    auto r = encode::check_case(c, opt);
    REQUIRE(r.results.size() == 1);
    auto* p = std::get_if<properties::Proved>(&r.results[0].verdict);
    REQUIRE(p);
    CHECK(p->assumptions ==
          std::vector<std::string>{"A-GCR-OUTER-FIRST", "A-WAVE-END-STORES-IN-GL2"});
  }
}

// The solver's list is minimized per property: the union of per-obligation minimal cores said
// [A-IDLE-DRAINS-WRITES, A-WAVE-END-STORES-IN-GL2] here, although no obligation of the property
// needs IDLE to drain the UAV write once the others have their cores (the order proofs agree).
// (With A-RB-FILL-ON-ACCESS the CB-meta step has a second way across, and the greedy drop of
// A-WAVE-END-STORES-IN-GL2 finds [A-IDLE-DRAINS-WRITES, A-RB-FILL-ON-ACCESS], another minimal
// list: left out here so that one list is the answer.)
TEST_CASE("a property's assumptions are minimized once over all its obligations") {
  auto c = testing::parse_case_text(R"(target gl2-rb-coherent yes
assume -A-RB-FILL-ON-ACCESS
queue gfx graphics
texture hdr 0x200000 0x400000 compressed
on gfx:
  clear: Dispatch writes hdr as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | COLOR_BLOCK_META_FLUSH | IDLE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(COLOR_BLOCK_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  blend: Draw reads hdr as rt, writes hdr as rt
prove visible clear -> blend
prove no-hazards
)");
  for (bool order_proofs : {true, false}) {
    CAPTURE(order_proofs);
    encode::CheckOptions opt;
    opt.order_proofs = order_proofs;
    auto r = encode::check_case(c, opt);
    REQUIRE(r.results.size() == 2);
    for (const auto& res : r.results) {
      auto* p = std::get_if<properties::Proved>(&res.verdict);
      REQUIRE(p);
      CHECK(p->assumptions == std::vector<std::string>{"A-WAVE-END-STORES-IN-GL2"});
    }
  }
}

TEST_CASE("the strict profile refutes what rdna2 proves, and says why") {
  auto c = testing::parse_case_text(kUavSrv);
  encode::CheckOptions opt;
  opt.profile = model::Profile::Strict;
  auto r = encode::check_case(c, opt);
  auto* v = std::get_if<properties::Violated>(&r.results.at(0).verdict);
  REQUIRE(v);
  REQUIRE_FALSE(v->trace.blamed.empty());
  CHECK(v->trace.blamed[0].find("D3D12XBOX_SYNC_FLAG_IDLE") == 0);
  CHECK_FALSE(v->trace.lines.empty());
}

TEST_CASE("removing GL1_INVALIDATE is refuted and the explanation names it") {
  std::string text = kUavSrv;
  text.replace(text.find("VCACHE_INVALIDATE | GL1_INVALIDATE"), 34, "VCACHE_INVALIDATE");
  auto c = testing::parse_case_text(text);
  for (bool order_proofs : {true, false}) {
    encode::CheckOptions opt;
    opt.order_proofs = order_proofs;
    auto r = encode::check_case(c, opt);
    auto* v = std::get_if<properties::Violated>(&r.results.at(0).verdict);
    REQUIRE(v);
    CHECK(v->trace.blamed ==
          std::vector<std::string>{
              "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE on SyncTopOfPipeX at t.sync:6"});
    CHECK(v->trace.why.find("GL1") != std::string::npos);
  }
}

TEST_CASE("a case whose waits can never all be satisfied is vacuous: an error, not a proof") {
  auto c = testing::parse_case_text(R"(queue a compute
queue b compute
buffer x 0x10000 0x1000
fence f1
fence f2
on a:
  Wait(f2, 1)
  w: Dispatch writes x as uav
  Signal(f1, 1)
on b:
  Wait(f1, 1)
  r: Dispatch reads x as srv
  Signal(f2, 1)
prove visible w -> r
refute deadlock-free
)");
  for (bool order_proofs : {true, false}) {
    encode::CheckOptions opt;
    opt.order_proofs = order_proofs;
    auto r = encode::check_case(c, opt);
    auto* e = std::get_if<properties::Error>(&r.results.at(0).verdict);
    REQUIRE(e);
    CHECK(e->message.find("vacuous") == 0);
    CHECK(std::holds_alternative<properties::Violated>(r.results.at(1).verdict));
    CHECK(r.results.at(1).as_expected);
  }
}

TEST_CASE("a wait that no value of an unknown initial label satisfies makes the case vacuous") {
  // cases/regress/7189-visible-verdict.sync: the fast path once let such a wait complete.
  auto c = testing::parse_case_text(R"(assume -A-INITIAL-ZERO
queue q0 graphics
texture t0 0x100000 0x10000 compressed
label l1 0x300008
on q0:
  c0: Draw writes t0 as depth
  c1: Draw reads t0 as shader-code in ps
  Wait64BitValueX(l1, LESS, 0)
check visible c0 -> c1
refute deadlock-free
)");
  for (bool order_proofs : {true, false}) {
    encode::CheckOptions opt;
    opt.order_proofs = order_proofs;
    auto r = encode::check_case(c, opt);
    auto* e = std::get_if<properties::Error>(&r.results.at(0).verdict);
    REQUIRE(e);
    CHECK(e->message.find("vacuous") == 0);
    CHECK_FALSE(r.results.at(0).as_expected);  // an error is never what a `check` line asked for
    CHECK(std::holds_alternative<properties::Violated>(r.results.at(1).verdict));
  }
}

TEST_CASE("--dump-smt2 writes every solver question, named after its obligation") {
  auto dir = std::filesystem::temp_directory_path() / "syncproof-test-dump";
  std::filesystem::remove_all(dir);
  encode::CheckOptions opt;
  opt.order_proofs = false;
  opt.dump_dir = dir.string();
  encode::check_case(testing::parse_case_text(kUavSrv), opt);
  size_t fresh = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir))
    fresh += f.path().filename().string().find(".fresh") != std::string::npos;  // <case>.<query>
  CHECK(fresh >= 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("after the first counterexample a race is counted without a question") {
  // Three buffers both queues write with nothing between: three races, each violated in every
  // execution. Only the first is asked (of its slice, for the trace); the others are counted.
  auto c = testing::parse_case_text(testing::kThreeRaces);
  encode::CheckOptions opt;
  opt.slice_above = 0;  // slices at every size
  auto r = encode::check_case(c, opt);
  auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->witness.obligation == 0);
  CHECK(v->failing == 3);
  CHECK(v->undecided == 0);
  CHECK(r.sliced == 1);
  // Stopped at the first counterexample: the others are undecided, not counted as holding.
  opt.first_violation = true;
  r = encode::check_case(c, opt);
  v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE(v);
  CHECK(v->failing == 1);
  CHECK(v->undecided == 2);
}

TEST_CASE(
    "a question about the whole program past whole_question_events is not asked under an rlimit") {
  std::string text = kUavSrv;
  text.replace(text.find("VCACHE_INVALIDATE | GL1_INVALIDATE"), 34, "VCACHE_INVALIDATE");
  auto c = testing::parse_case_text(text);
  encode::CheckOptions opt;
  opt.slice = false;  // no slice answers first: the violation needs the whole program
  opt.whole_question_events = 10;
  auto r = encode::check_case(c, opt);
  REQUIRE(r.events > 10);
  auto* u = std::get_if<properties::Unknown>(&r.results.at(0).verdict);
  REQUIRE(u);
  CHECK(u->reason ==
        fmt::format("not asked: the whole program has {} lowered events, more than the 10 a "
                    "solver question takes in within --rlimit (--rlimit 0 asks it; --engine exec "
                    "decides it) on 'fresh: write of grid line 4 -> read of grid line 7'",
                    r.events));
  // Without an rlimit it is asked; a proof by must-happen-before paths never needs it.
  opt.rlimit = 0;
  CHECK(std::holds_alternative<properties::Violated>(
      encode::check_case(c, opt).results.at(0).verdict));
  opt.rlimit = solver::kDefaultRlimit;
  CHECK(std::holds_alternative<properties::Proved>(
      encode::check_case(testing::parse_case_text(kUavSrv), opt).results.at(0).verdict));
}
