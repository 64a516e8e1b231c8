// The cost table of model/costs.cpp against the one table of model/COSTS.md (the two cannot
// drift apart), the flag catalogue (every operation flag and control flag has a cost), what a
// command costs, and the `--cost NAME=N` overrides with their exact errors.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "model/costs.h"
#include "model/flags.h"
#include "tests/case_fixture.h"

using namespace syncproof::model;

namespace {

// `| `NAME` | N | why |` rows of the doc's table, in order.
std::vector<std::pair<std::string, int>> doc_rows() {
  std::ifstream in(std::string(SYNCPROOF_SOURCE_DIR) + "/model/COSTS.md");
  REQUIRE(in);
  std::vector<std::pair<std::string, int>> out;
  const std::regex row(R"(^\| `([A-Za-z0-9_()]+)` \| (-?[0-9]+) \| .+ \|$)");
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, row)) out.emplace_back(m[1], std::stoi(m[2]));
  }
  return out;
}

}  // namespace

TEST_CASE("the cost table in COSTS.md is the one in costs.cpp, row by row") {
  const auto rows = doc_rows();
  const auto table = cost_table();
  REQUIRE(rows.size() == table.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    CAPTURE(rows[i].first);
    CHECK(rows[i].first == table[i].name);
    CHECK(rows[i].second == table[i].cost);
  }
}

TEST_CASE("every operation flag and control flag of the catalogue has a cost entry") {
  std::set<std::string> names;
  for (const CostEntry& e : cost_table()) names.insert(std::string(e.name));
  for (const FlagDef& d : all_flags()) {
    const bool operation =
        d.family == FlagFamily::Sync && d.value && *d.value &&
        (d.kind == FlagKind::Bit || d.name == "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE");
    const bool control = d.family == FlagFamily::SyncControl && d.value && *d.value;
    if (!operation && !control) continue;
    CAPTURE(d.name);
    CHECK(names.count(std::string(d.name)) == 1);
  }
}

TEST_CASE("a command costs its packet, its operations and its control flags") {
  const CostModel m;
  Command top;
  top.body =
      SyncCmd{SyncApi::SyncTopOfPipeX, sync::kVcacheInvalidate | sync::kGl1Invalidate, {}, {}, {}};
  CHECK(m.of(top, QueueType::Compute) == 1 + 1 + 2);
  Command bop;
  bop.body = SyncCmd{SyncApi::SyncBottomOfPipeX, sync::kCsPartialFlush, {}, {}, {}};
  CHECK(m.of(bop, QueueType::Compute) == 1 + 6);
  // ICACHE is one operation whatever its selector (ALL = 1, RANGE = 2, MARGIN = 3).
  CHECK(m.sync_word(1) == 2);
  CHECK(m.sync_word(2) == 2);
  CHECK(m.sync_word(3) == 2);
  Command work;
  work.body = WorkCmd{};
  CHECK(m.of(work, QueueType::Graphics) == 0);
}

TEST_CASE("a case's barrier cost is the sum over its commands") {
  const Case c = syncproof::testing::parse_case_text(R"(case "c"
queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  // The COSTS.md example: 1 + 6 + 1 + 1 + 2.
  CHECK(CostModel().barrier(c) == 11);
}

TEST_CASE("--cost overrides one entry, by full or short name") {
  CostModel m;
  CHECK_FALSE(m.set("GL2_WRITEBACK=40"));
  CHECK(m.flag(sync::kGl2Writeback) == 40);
  CHECK_FALSE(m.set("D3D12XBOX_SYNC_FLAG_IDLE=3"));
  CHECK(m.flag(sync::kIdle) == 3);
  CHECK_FALSE(m.set("TOP_SELECT_ENGINE_PFP=9"));
  CHECK(m.control(ControlFlag::TopSelectEnginePfp) == 9);
  CHECK_FALSE(m.set("SyncTopOfPipeX=0"));
  CHECK(m.command(CostCommand::SyncTopOfPipeX) == 0);
  CHECK_FALSE(m.set("Wait32BitValueX=7"));
  CHECK(m.command(CostCommand::WaitValue) == 7);
  CHECK(CostModel().flag(sync::kGl2Writeback) == 24);  // a fresh model has the table's numbers
}

TEST_CASE("--cost rejects what it cannot use, with the exact message") {
  CostModel m;
  CHECK(m.set("IDLE") == std::optional<std::string>(
                             "--cost 'IDLE': expected NAME=N (a flag or command name, a number)"));
  CHECK(m.set("IDLE=-1") ==
        std::optional<std::string>(
            "--cost 'IDLE=-1': the cost must be a whole number from 0 to 1000000"));
  CHECK(m.set("IDLE=2x") ==
        std::optional<std::string>(
            "--cost 'IDLE=2x': the cost must be a whole number from 0 to 1000000"));
  CHECK(m.set("Dispatch=3") ==
        std::optional<std::string>(
            "--cost 'Dispatch=3': 'Dispatch' has no cost of its own (see model/COSTS.md: sync "
            "operations, control flags and sync commands)"));
  CHECK(m.flag(sync::kIdle) == 32);  // nothing changed
}
