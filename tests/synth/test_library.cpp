// Over the case library: every refuted twin ("# Twin of X.sync without FLAG") is fixed, with
// both engines, by a barrier that costs no more than the proved original's (model/COSTS.md) and
// uses no operation as a carrier (tests/synth/carrier_check.h), and
// --redundant finds nothing to remove from the library's minimal patterns it should not.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "encode/check.h"
#include "lang/parse.h"
#include "synth/barrier.h"
#include "synth/fix.h"
#include "synth/redundant.h"
#include "synth/text.h"
#include "tests/sample.h"
#include "tests/synth/carrier_check.h"
#include "tools/synth_engines.h"

using namespace syncproof;
namespace fs = std::filesystem;

namespace {

struct Twin {
  fs::path twin, original;
};

std::vector<Twin> twins() {
  std::vector<Twin> out;
  const std::regex first(R"(^# Twin of (\S+\.sync))");
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SYNCPROOF_SOURCE_DIR) / "cases")) {
    if (e.path().extension() != ".sync" || e.path().string().find("/lint/") != std::string::npos)
      continue;
    std::ifstream in(e.path());
    std::string line;
    std::getline(in, line);
    std::smatch m;
    if (std::regex_search(line, m, first))
      out.push_back({e.path(), e.path().parent_path() / m[1].str()});
  }
  std::sort(out.begin(), out.end(), [](const Twin& a, const Twin& b) { return a.twin < b.twin; });
  return out;
}

// Twins that change a value, not a barrier (a wait for a value nothing writes, a label write
// of the wrong half): no edit of flags, syncs or waits on existing signals can fix them, and fix
// must say so.
const std::map<std::string, std::string> kUnfixable = {
    {"labels/two-halves-wrong-high.sync", "nothing ever writes a value that satisfies the wait"},
};

}  // namespace

TEST_CASE("on every refuted twin, fix restores a barrier no more expensive than the original" *
          doctest::test_suite("full-size")) {
  const auto list = testing::sampled(twins());
  REQUIRE(list.size() > testing::scaled(50));
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  opt.minimize = true;
  size_t fixed = 0, unfixable = 0, checked = 0;
  for (const Twin& t : list) {
    const std::string rel = fs::relative(t.twin, fs::path(SYNCPROOF_SOURCE_DIR) / "cases").string();
    CAPTURE(rel);
    REQUIRE_MESSAGE(fs::exists(t.original), t.original.string());
    const lang::ParseResult tw = lang::parse_case_file(t.twin.string());
    const lang::ParseResult orig = lang::parse_case_file(t.original.string());
    REQUIRE_FALSE(tw.has_errors());
    REQUIRE_FALSE(orig.has_errors());
    const properties::CaseResult now = encode::check_case(tw.c, smt);
    std::vector<size_t> goals, keep;
    synth::default_goals(tw.c, now, true, &goals, &keep);
    if (goals.empty()) continue;  // a twin whose point is a proof (`prove` both ways)
    ++checked;
    const synth::FixResult r = synth::fix_case(tw.c, goals, keep, opt);
    if (auto it = kUnfixable.find(rel); it != kUnfixable.end()) {
      CHECK(r.status == synth::FixResult::Status::Unfixable);
      CHECK_MESSAGE(r.why.find(it->second) != std::string::npos, r.why);
      ++unfixable;
      continue;
    }
    REQUIRE_MESSAGE(r.status == synth::FixResult::Status::Fixed, r.why);
    ++fixed;
    // No operation used as a carrier (tests/synth/carrier_check.h).
    const auto carriers =
        testing::carrier_problems(r, synth::describe(tw.c, r.changes, costs), goals, smt);
    CHECK_MESSAGE(carriers.empty(), fmt::format("{}", fmt::join(carriers, "; ")));
    // A twin under another profile or other assumptions than its original (profiles/) shows
    // that the original's barrier is not enough there: no cost bound, only a fix.
    if (tw.c.profile != orig.c.profile || tw.c.assumptions.size() != orig.c.assumptions.size())
      continue;
    const int after = costs.barrier(r.fixed), original = costs.barrier(orig.c);
    CHECK_MESSAGE(after <= original,
                  fmt::format("fixed barrier costs {}, the original {}", after, original));
    CHECK(after == r.before + r.cost);
  }
  CHECK(fixed + unfixable == checked);
  if (testing::kSampleStride == 1) CHECK(unfixable == kUnfixable.size());  // each one is there
}

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("cases/synthesis/broken-frame.sync: fix gives exactly the edits its comment describes" *
          doctest::test_suite("full-size")) {
  const fs::path p = fs::path(SYNCPROOF_SOURCE_DIR) / "cases/synthesis/broken-frame.sync";
  const std::string text = read(p);
  const lang::ParseResult pr = lang::parse_case("broken-frame.sync", text);
  REQUIRE_FALSE(pr.has_errors());
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  const synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  std::vector<size_t> goals, keep;
  synth::default_goals(pr.c, encode::check_case(pr.c, smt), true, &goals, &keep);
  const synth::FixResult r = synth::fix_case(pr.c, goals, keep, opt);
  REQUIRE(r.status == synth::FixResult::Status::Fixed);
  const synth::EditedText t = synth::edit_text(pr.c, text, r.changes, r.fixed, costs);
  CHECK(t.error == "");
  CHECK(t.edits ==
        std::vector<std::string>{
            "broken-frame.sync:29: insert WaitX(f, 1, D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
            "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE) before Draw (light) (+7)",
            "broken-frame.sync:30: insert SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | "
            "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE | D3D12XBOX_SYNC_FLAG_BASE_COHERENCY | "
            "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, "
            "D3D12XBOX_FLUSH_RANGE_ALL) before SyncBottomOfPipeX (+20)",
            "broken-frame.sync:33: prove visible build -> light (it is proved with the fix)",
            "broken-frame.sync:34: prove visible light -> blur (it is proved with the fix)",
            "broken-frame.sync:35: prove no-hazards (it is proved with the fix)"});
  CHECK(r.before == 15);
  CHECK(r.cost == 27);
}

TEST_CASE("cases/synthesis/over-synchronized.sync: --redundant removes exactly what it names") {
  const fs::path p = fs::path(SYNCPROOF_SOURCE_DIR) / "cases/synthesis/over-synchronized.sync";
  const std::string text = read(p);
  const lang::ParseResult pr = lang::parse_case("over-synchronized.sync", text);
  REQUIRE_FALSE(pr.has_errors());
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  const synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  std::vector<size_t> props(pr.c.properties.size());
  for (size_t i = 0; i < props.size(); ++i) props[i] = i;
  const synth::RedundantResult r = synth::find_redundant(pr.c, props, opt);
  REQUIRE(r.status == synth::RedundantResult::Status::Found);
  std::vector<std::string> alone;
  for (const synth::Removal& x : r.alone) alone.push_back(x.what);
  CHECK(alone == std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH",
                                          "D3D12XBOX_SYNC_FLAG_IDLE",
                                          "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE",
                                          "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH"});
  const synth::EditedText t = synth::edit_text(pr.c, text, r.changes, r.minimized, costs);
  CHECK(t.error == "");
  CHECK(t.edits ==
        std::vector<std::string>{
            "over-synchronized.sync:22: remove SyncBottomOfPipeX (nothing is left for it to do) "
            "(-7)",
            "over-synchronized.sync:28: remove D3D12XBOX_SYNC_FLAG_IDLE from SyncBottomOfPipeX "
            "(-32)",
            "over-synchronized.sync:29: remove D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE from "
            "SyncTopOfPipeX (-1)"});
  CHECK(r.saves == 40);
}

TEST_CASE("cases/synthesis/standard-barriers.sync: both standard barriers are replaced") {
  const fs::path p = fs::path(SYNCPROOF_SOURCE_DIR) / "cases/synthesis/standard-barriers.sync";
  const std::string text = read(p);
  const lang::ParseResult pr = lang::parse_case("standard-barriers.sync", text);
  REQUIRE_FALSE(pr.has_errors());
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  std::vector<size_t> goals, keep;
  synth::default_goals(pr.c, encode::check_case(pr.c, smt), false, &goals, &keep);
  REQUIRE(goals.empty());  // every property is proved: the point is the rewrite
  const synth::FixResult r = synth::fix_case(pr.c, goals, keep, opt);
  REQUIRE(r.status == synth::FixResult::Status::Fixed);
  const synth::EditedText t = synth::edit_text(pr.c, text, r.changes, r.fixed, costs);
  CHECK(t.error == "");
  REQUIRE(t.edits.size() == 5);
  CHECK(t.edits[0] ==
        "standard-barriers.sync:23: remove ResourceBarrier(TRANSITION, lights, UNORDERED_ACCESS, "
        "ALL_SHADER_RESOURCE) (cheaper Xbox sync calls do its work) (-24)");
  CHECK(t.edits[3] ==
        "standard-barriers.sync:25: remove ResourceBarrier(ALIASING, NULL, NULL) (cheaper Xbox "
        "sync calls do its work) (-129)");
  CHECK(r.before == 153);
  CHECK(r.cost == -101);
  // --style standard keeps them: nothing to do.
  opt.style = synth::Style::Standard;
  CHECK(synth::fix_case(pr.c, goals, keep, opt).status == synth::FixResult::Status::Nothing);
}

TEST_CASE("the barrier calculator agrees with the library's proved patterns" *
          doctest::test_suite("full-size")) {
  using model::QueueType;
  struct Pattern {
    const char* file;
    const char *producer, *consumer;
    QueueType pq, cq;
  };
  const Pattern patterns[] = {
      {"same-queue/uav-to-srv.sync", "cs uav", "cs srv", QueueType::Compute, QueueType::Compute},
      {"same-queue/uav-to-cbv.sync", "cs uav", "cs cbv", QueueType::Compute, QueueType::Compute},
      {"same-queue/uav-to-vertex.sync", "cs uav", "vs vertex", QueueType::Graphics,
       QueueType::Graphics},
      {"same-queue/ps-uav-to-srv.sync", "ps uav", "cs srv", QueueType::Graphics,
       QueueType::Graphics},
      {"indirect/index-from-compute.sync", "cs uav", "cp index", QueueType::Graphics,
       QueueType::Graphics},
      {"copy/cpdma-to-srv.sync", "dma copy-dst", "cs srv", QueueType::Compute, QueueType::Compute},
      {"cross-queue/signal2x-waitx.sync", "cs uav", "ps srv", QueueType::Compute,
       QueueType::Graphics},
      {"host/gpu-to-host-readback.sync", "cs uav", "host", QueueType::Compute, QueueType::Host},
  };
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  const synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  for (const Pattern& pat : patterns) {
    const std::string name = pat.file;
    CAPTURE(name);
    std::string err;
    synth::BarrierQuery q;
    const auto p = synth::parse_access(pat.producer, true, &err);
    const auto c = synth::parse_access(pat.consumer, false, &err);
    REQUIRE_MESSAGE((p && c), err);
    q.producer = *p, q.consumer = *c;
    q.producer_queue = pat.pq, q.consumer_queue = pat.cq;
    const auto r = synth::resolve(q, &err);
    REQUIRE_MESSAGE(r.has_value(), err);
    const lang::ParseResult pr = lang::parse_case("q.sync", synth::barrier_case_text(q, *r));
    REQUIRE_FALSE(pr.has_errors());
    std::vector<size_t> goals(pr.c.properties.size());
    for (size_t i = 0; i < goals.size(); ++i) goals[i] = i;
    const synth::FixResult fx = synth::fix_case(pr.c, goals, {}, opt);
    REQUIRE_MESSAGE(fx.status == synth::FixResult::Status::Fixed, fx.why);
    const lang::ParseResult lib =
        lang::parse_case_file((fs::path(SYNCPROOF_SOURCE_DIR) / "cases" / pat.file).string());
    REQUIRE_FALSE(lib.has_errors());
    // The library's barrier proves at least what the calculator asks (and the file proves it:
    // tests/cases), so the cheapest the calculator finds costs no more.
    CHECK(costs.barrier(fx.fixed) <= costs.barrier(lib.c));
  }
}
