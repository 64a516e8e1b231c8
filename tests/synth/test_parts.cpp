// The parts of the synthesis on their own: the cheapest hitting set (optimal, non-additive
// costs, unsatisfiable cores), edits applied to a case (shared new commands, origins), text
// edits and the unified diff.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "synth/edit.h"
#include "synth/hitting_set.h"
#include "synth/source_edit.h"
#include "tests/case_fixture.h"

using namespace syncproof;
using namespace syncproof::synth;

TEST_CASE("the cheapest hitting set is optimal, not greedy") {
  // Greedy by coverage takes 0 (it meets all three cores) at 10; {1, 2, 3} costs 3.
  const std::vector<int> w{10, 1, 1, 1};
  auto cost = [&](const std::vector<uint32_t>& s) {
    int c = 0;
    for (uint32_t m : s) c += w[m];
    return c;
  };
  const HittingSet h = cheapest_hitting_set(
      {{0, 1}, {0, 2}, {0, 3}}, cost, [](uint32_t) { return 0; }, 10000);
  CHECK(h.found);
  CHECK(h.optimal);
  CHECK(h.members == std::vector<uint32_t>{1, 2, 3});
  CHECK(h.cost == 3);
}

TEST_CASE("hitting sets take non-additive costs: a shared packet is paid once") {
  // 0 and 1 are flags of one new sync (packet 5, flag 1 each); 2 is a flag of another (packet 5).
  auto cost = [](const std::vector<uint32_t>& s) {
    bool first = false, second = false;
    for (uint32_t m : s) (m == 2 ? second : first) = true;
    return static_cast<int>(s.size()) + (first ? 5 : 0) + (second ? 5 : 0);
  };
  const HittingSet h = cheapest_hitting_set(
      {{0, 2}, {1, 2}}, cost, [](uint32_t) { return 0; }, 10000);
  CHECK(h.members == std::vector<uint32_t>{2});
  CHECK(h.cost == 6);
  const HittingSet h2 = cheapest_hitting_set(
      {{0}, {1, 2}}, cost, [](uint32_t) { return 0; }, 10000);
  CHECK(h2.members == std::vector<uint32_t>{0, 1});  // 7, not {0, 2} at 12
  CHECK(h2.cost == 7);
}

TEST_CASE("an empty core has no hitting set") {
  const HittingSet h = cheapest_hitting_set(
      {{0}, {}}, [](const std::vector<uint32_t>& s) { return static_cast<int>(s.size()); },
      [](uint32_t) { return 0; }, 100);
  CHECK_FALSE(h.found);
}

TEST_CASE("edits at one point share one new sync, in release-wait-acquire order") {
  const model::Case c = testing::parse_case_text(R"(case "c"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  auto sync = [](model::SyncApi api, uint32_t flags) {
    Edit e;
    e.kind = EditKind::NewSync, e.queue = 0, e.cmd = 1, e.api = api, e.flags = flags;
    return e;
  };
  using model::SyncApi;
  namespace s = model::sync;
  const std::vector<Edit> edits{sync(SyncApi::SyncTopOfPipeX, s::kVcacheInvalidate),
                                sync(SyncApi::SyncBottomOfPipeX, s::kCsPartialFlush),
                                sync(SyncApi::SyncTopOfPipeX, s::kGl1Invalidate)};
  Origins o;
  const model::Case v = apply(c, edits, &o);
  REQUIRE(v.queues[0].commands.size() == 4);
  CHECK(command_source(v, v.queues[0].commands[1], false) ==
        "SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)");
  CHECK(command_source(v, v.queues[0].commands[2], false) ==
        "SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)");
  CHECK(o[0][0].index == 0);
  CHECK_FALSE(o[0][0].fresh);
  CHECK(o[0][1].fresh);
  CHECK(o[0][2].fresh);
  CHECK(o[0][3].index == 1);
  // One packet each (1), the operations (6; 1 + 2).
  std::vector<const Edit*> ptrs;
  for (const Edit& e : edits) ptrs.push_back(&e);
  CHECK(added_cost(c, ptrs, model::CostModel()) == 1 + 6 + 1 + 1 + 2);
}

TEST_CASE("the unified diff is diff -u's: removals first, hunks with 3 lines of context") {
  const std::vector<std::string> a{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"};
  std::vector<std::string> b = a;
  b[1] = "two";
  b.insert(b.begin() + 11, "new");
  CHECK(unified_diff("f.sync", a, b) ==
        "--- a/f.sync\n+++ b/f.sync\n"
        "@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"
        "@@ -9,4 +9,5 @@\n 9\n 10\n 11\n+new\n 12\n");
  CHECK(unified_diff("f.sync", a, a) == "");
}

TEST_CASE("text edits keep the rest of the line and delete whole lines") {
  const std::vector<std::string> lines{"  A(x, y)  # c", "  B()", "C"};
  const std::vector<properties::SourceEdit> edits{
      {1, 5, 1, "x | z"}, {2, 1, 6, ""}, {3, 1, 0, "  new\n"}};
  CHECK(apply_source_edits(lines, edits) ==
        std::vector<std::string>{"  A(x | z, y)  # c", "  new", "C"});
}
