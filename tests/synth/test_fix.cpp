// `syncproof fix` as a library: the exact edits and the exact diff for broken barriers (a missing
// flag, a missing barrier, a missing wait), the cost model steering the choice, unfixable cases
// and their reason, and cases with nothing to fix. Both engines check every fix (fix_case does).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "encode/check.h"
#include "exec/check.h"
#include "synth/fix.h"
#include "synth/text.h"
#include "tests/case_fixture.h"
#include "tools/synth_engines.h"

using namespace syncproof;

namespace {

struct Fixed {
  synth::FixResult r;
  synth::EditedText t;
};

Fixed fix_text(const std::string& text, bool all = false, std::vector<std::string> costs = {},
               bool minimize = false) {
  const model::Case c = testing::parse_case_text(text);
  encode::CheckOptions smt;
  smt.timeout_ms = 20000;
  exec::ExecOptions ex;
  ex.timeout_ms = 20000;
  model::CostModel m;
  REQUIRE_FALSE(cli::apply_costs(m, costs));
  synth::FixOptions opt = cli::fix_options(smt, ex, m, 3000);
  opt.minimize = minimize;
  std::vector<size_t> goals, keep;
  synth::default_goals(c, encode::check_case(c, smt), all, &goals, &keep);
  Fixed f;
  f.r = synth::fix_case(c, goals, keep, opt);
  if (f.r.status == synth::FixResult::Status::Fixed)
    f.t = synth::edit_text(c, text, f.r.changes, f.r.fixed, m);
  return f;
}

const char* kNoGl1 = R"(case "UAV -> SRV without GL1"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)  # acquire
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)";

}  // namespace

TEST_CASE("a missing flag is added to the sync that is there, and the comment stays") {
  const Fixed f = fix_text(kNoGl1);
  REQUIRE(f.r.status == synth::FixResult::Status::Fixed);
  CHECK(f.t.error == "");
  CHECK(f.t.edits ==
        std::vector<std::string>{
            "t.sync:7: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX (+2)"});
  CHECK(f.r.cost == 2);
  CHECK(f.r.before == 9);
  CHECK(f.t.diff ==
        "--- a/t.sync\n+++ b/t.sync\n@@ -4,6 +4,6 @@\n on acs:\n"
        "   produce: Dispatch writes grid as uav\n"
        "   SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
        "-  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)  # acquire\n"
        "+  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, "
        "D3D12XBOX_FLUSH_RANGE_ALL)  # acquire\n"
        "   consume: Dispatch reads grid as srv\n"
        " prove visible produce -> consume\n");
}

TEST_CASE("no barrier at all: a release and an acquire are inserted before the consumer") {
  const Fixed f = fix_text(R"(case "no barrier"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  REQUIRE(f.r.status == synth::FixResult::Status::Fixed);
  CHECK(f.t.edits == std::vector<std::string>{
                         "t.sync:6: insert SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, "
                         "D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL) before "
                         "Dispatch (consume) (+7)",
                         "t.sync:6: insert SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
                         "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, "
                         "D3D12XBOX_FLUSH_RANGE_ALL) before Dispatch (consume) (+4)"});
  CHECK(f.r.cost == 11);
  // The file spells flags without their prefix: so do the new lines.
  CHECK(f.t.diff.find("+  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
                      "+  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, "
                      "D3D12XBOX_FLUSH_RANGE_ALL)\n   consume:") != std::string::npos);
}

TEST_CASE("across queues, the missing wait is inserted with the flags it needs") {
  const Fixed f = fix_text(R"(case "cross queue, no wait"
queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
fence f
on acs:
  produce: Dispatch writes grid as uav
  Signal2X(f, 1, CS_PARTIAL_FLUSH)
on gfx:
  consume: Draw reads grid as srv in ps
prove visible produce -> consume
)");
  REQUIRE(f.r.status == synth::FixResult::Status::Fixed);
  CHECK(f.t.edits == std::vector<std::string>{
                         "t.sync:10: insert WaitX(f, 1, D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
                         "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE) before Draw (consume) (+7)"});
  CHECK(f.t.diff.find("+  WaitX(f, 1, VCACHE_INVALIDATE | GL1_INVALIDATE)\n   consume:") !=
        std::string::npos);
}

TEST_CASE("--cost changes which barrier is cheapest") {
  const char* text = R"(case "PS UAV -> compute SRV with the wrong stage"
queue gfx graphics
buffer counts 0x10000 0x1000
texture color 0x200000 0x400000
on gfx:
  produce: Draw writes counts as uav in ps, writes color as rt
  SyncBottomOfPipeX(VS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads counts as srv
prove visible produce -> consume
)";
  const Fixed a = fix_text(text);
  REQUIRE(a.r.status == synth::FixResult::Status::Fixed);
  CHECK(a.t.edits == std::vector<std::string>{
                         "t.sync:7: add D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH to SyncBottomOfPipeX "
                         "(+6)"});
  const Fixed b = fix_text(text, false, {"PS_PARTIAL_FLUSH=20"});
  REQUIRE(b.r.status == synth::FixResult::Status::Fixed);
  CHECK(b.t.edits ==
        std::vector<std::string>{
            "t.sync:8: add D3D12XBOX_SYNC_FLAG_BASE_COHERENCY to SyncTopOfPipeX (+8)"});
  // --minimize: the PS flush waits for the vertex waves too, so the VS flush goes.
  const Fixed c = fix_text(text, false, {}, true);
  REQUIRE(c.r.status == synth::FixResult::Status::Fixed);
  CHECK(c.t.edits ==
        std::vector<std::string>{
            "t.sync:7: remove D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH from SyncBottomOfPipeX (-4)",
            "t.sync:7: add D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH to SyncBottomOfPipeX (+6)"});
  CHECK(c.r.cost == 2);
}

TEST_CASE("a refuted twin is fixed with --all, and its property becomes prove") {
  std::string text = kNoGl1;
  text.replace(text.find("prove visible"), 5, "refute");
  text.insert(text.size() - 1, " missing GL1_INVALIDATE");
  CHECK(fix_text(text).r.status == synth::FixResult::Status::Nothing);
  const Fixed f = fix_text(text, true);
  REQUIRE(f.r.status == synth::FixResult::Status::Fixed);
  CHECK(f.t.edits == std::vector<std::string>{
                         "t.sync:7: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX (+2)",
                         "t.sync:9: prove visible produce -> consume (it is proved with the fix)"});
  CHECK(f.t.diff.find("-refute visible produce -> consume missing GL1_INVALIDATE\n"
                      "+prove visible produce -> consume\n") != std::string::npos);
}

TEST_CASE("a race nothing can order is unfixable, and the reason names the queues") {
  const Fixed f = fix_text(R"(case "race"
queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
on gfx:
  a: Draw writes grid as uav in ps
on acs:
  b: Dispatch writes grid as uav
prove no-hazards
)");
  REQUIRE(f.r.status == synth::FixResult::Status::Unfixable);
  CHECK(f.r.why.find("no-hazards stays unproved with every candidate edit") == 0);
  CHECK(f.r.why.find("signals a fence or writes a label value that queue") != std::string::npos);
}

TEST_CASE("a case whose properties all hold has nothing to fix") {
  std::string text = kNoGl1;
  text.replace(text.find("VCACHE_INVALIDATE,"), 18, "VCACHE_INVALIDATE | GL1_INVALIDATE,");
  const Fixed f = fix_text(text);
  CHECK(f.r.status == synth::FixResult::Status::Nothing);
  CHECK(f.r.changes.empty());
}

// FixOptions::session: a search asks for its engines once and asks nothing of the shared ones;
// the fix is the one the shared engines give (the library's report baseline compares the rest).
TEST_CASE("a fix search takes one session's engines and makes every call through them") {
  const model::Case c = testing::parse_case_text(kNoGl1);
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel m;
  const synth::FixOptions plain_opt = cli::fix_options(smt, ex, m, 3000);
  synth::FixOptions plain = plain_opt;
  plain.session = nullptr;
  const synth::FixResult want = synth::fix_case(c, {0}, {}, plain);
  REQUIRE(want.status == synth::FixResult::Status::Fixed);

  synth::FixOptions opt = plain_opt;
  size_t sessions = 0, searched = 0, verified = 0;
  opt.search = [](const model::Case&) -> properties::CaseResult {
    FAIL("the shared search engine was asked");
    return {};
  };
  opt.verify = [](const model::Case&) -> synth::Verification {
    FAIL("the shared verify engine was asked");
    return {};
  };
  opt.session = [&, inner = plain_opt.session] {
    ++sessions;
    synth::Engines e = inner();
    return synth::Engines{[&searched, s = e.search](const model::Case& x) {
                            ++searched;
                            return s(x);
                          },
                          [&verified, v = e.verify](const model::Case& x) {
                            ++verified;
                            return v(x);
                          }};
  };
  const synth::FixResult got = synth::fix_case(c, {0}, {}, opt);
  CHECK(sessions == 1);
  CHECK(searched == got.calls);
  CHECK(verified == 1);
  REQUIRE(got.status == synth::FixResult::Status::Fixed);
  CHECK(got.calls == want.calls);
  CHECK(synth::describe(c, got.changes, m) == synth::describe(c, want.changes, m));
}

TEST_CASE("the check of a fix reads the executor's verdicts: its lists are not minimized") {
  const Fixed f = fix_text(kNoGl1);
  REQUIRE(f.r.status == synth::FixResult::Status::Fixed);
  exec::ExecOptions ex;
  ex.timeout_ms = 20000;
  const auto minimized = exec::check_case(f.r.fixed, ex);
  ex.minimize_assumptions = false;
  const auto plain = exec::check_case(f.r.fixed, ex);
  // The searches without an assumption are what minimizing costs; the check ran none.
  CHECK(f.r.verification.exec.states == plain.states);
  CHECK(plain.states < minimized.states);
  const auto* e = std::get_if<properties::Proved>(&f.r.verification.exec.results[0].verdict);
  const auto* u = std::get_if<properties::Proved>(&plain.results[0].verdict);
  REQUIRE(e);
  REQUIRE(u);
  CHECK(e->assumptions == u->assumptions);
}
