// No operation used as a carrier (docs/FIX.md): a fix never adds a flag the model gives no effect
// of its own, every sync it inserts needs its flags, and a sync inserted for its step alone has
// no flags and says why, in these words.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>
#include <vector>

#include "encode/check.h"
#include "lang/parse.h"
#include "synth/barrier.h"
#include "synth/candidates.h"
#include "synth/changes.h"
#include "synth/edit.h"
#include "synth/fix.h"
#include "tests/case_fixture.h"
#include "tests/sample.h"
#include "tests/synth/carrier_check.h"
#include "tools/synth_engines.h"

using namespace syncproof;

namespace {

const std::string kStep = R"(case "a wait, then indirect arguments"
queue gfx graphics
queue acs compute
buffer args 0x50000 0x100
fence f
on gfx:
  build: Dispatch writes args as uav
  Signal2X(f, 1, NONE)
on acs:
  WaitX(f, 1)
  run: ExecuteIndirect dispatch args args
prove visible build -> run
)";

}  // namespace

TEST_CASE("a sync inserted for its ME step alone says which step, in exact words") {
  const model::Case c = testing::parse_case_text(kStep);
  synth::Edit e;
  e.kind = synth::EditKind::NewSync, e.queue = 1, e.cmd = 1, e.api = model::SyncApi::SyncTopOfPipeX;
  synth::Origins origin;
  const model::Case fixed = synth::apply(c, {e}, &origin);
  const model::CostModel costs;
  const std::vector<synth::Change> changes = synth::diff(c, fixed, origin, costs);
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].why ==
        "the ME step that orders WaitX(f, 1) (line 10) before ExecuteIndirect (run) (line 11); no "
        "operation is needed");
  CHECK(synth::describe(c, changes, costs) ==
        std::vector<std::string>{
            "t.sync:11: insert SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_NONE, "
            "D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL) before "
            "ExecuteIndirect (run) (+1); why: the ME step that orders WaitX(f, 1) (line 10) "
            "before ExecuteIndirect (run) (line 11); no operation is needed"});
  // A sync with a flag is there for its operation: no why.
  e.flags = model::sync::kGl1Invalidate;
  synth::Origins o2;
  const model::Case with_flag = synth::apply(c, {e}, &o2);
  CHECK(synth::diff(c, with_flag, o2, costs).front().why.empty());
}

TEST_CASE("no new sync candidate carries a flag that moves nothing, and the step alone is one") {
  const model::Case c = testing::parse_case_text(kStep);
  for (uint32_t q = 0; q < 2; ++q) {
    const auto edits = synth::new_sync_candidates(c, q, 1);
    REQUIRE_FALSE(edits.empty());
    CHECK(edits.front().api == model::SyncApi::SyncTopOfPipeX);
    CHECK(edits.front().flags == 0);
    CHECK(edits.front().control.bits == 0);
    for (const synth::Edit& x : edits) CHECK((x.flags & model::sync::kNoEffectInModel) == 0);
  }
}

TEST_CASE("no barrier of the calculator's table uses an operation as a carrier" *
          doctest::test_suite("full-size")) {
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  const synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  std::vector<synth::BarrierQuery> queries;
  for (const auto& p : synth::table_producers())
    for (const auto& k : synth::table_consumers())
      for (bool cross : {false, true}) {
        synth::BarrierQuery q;
        q.producer = p, q.consumer = k;
        const bool ph = p.kind == model::AccessKind::Host, ch = k.kind == model::AccessKind::Host;
        if ((!cross && (ph || ch)) || (cross && ph && ch)) continue;
        q.producer_queue = ph ? model::QueueType::Host : model::QueueType::Graphics;
        q.consumer_queue = ch             ? model::QueueType::Host
                           : cross && !ph ? model::QueueType::Compute
                                          : model::QueueType::Graphics;
        queries.push_back(q);
      }
  size_t fixed = 0;
  for (const synth::BarrierQuery& q : testing::sampled(queries)) {
    std::string err;
    auto r = synth::resolve(q, &err);
    if (!r) continue;  // a consumer the compute queue cannot run
    const std::string name = synth::barrier_case_text(q, *r);
    CAPTURE(name);
    const lang::ParseResult pr = lang::parse_case("q.sync", name);
    REQUIRE_FALSE(pr.has_errors());
    std::vector<size_t> goals(pr.c.properties.size());
    for (size_t i = 0; i < goals.size(); ++i) goals[i] = i;
    const synth::FixResult fx = synth::fix_case(pr.c, goals, {}, opt);
    if (fx.status != synth::FixResult::Status::Fixed) continue;
    ++fixed;
    const auto problems =
        testing::carrier_problems(fx, synth::describe(pr.c, fx.changes, costs), goals, smt);
    CHECK_MESSAGE(problems.empty(), fmt::format("{}", fmt::join(problems, "; ")));
  }
  CHECK(fixed > testing::scaled(50));
}
