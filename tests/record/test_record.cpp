// The recording API (include/syncproof/record.h): engine-style barrier code run against the
// recorder gives the case of the equivalent case file, its verdicts and traces, and diagnostics
// at the recording call.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <regex>

#include "encode/check.h"
#include "lang/parse.h"
#include "record/recorded.h"
#include "syncproof/record.h"
#include "synth/missing.h"
#include "tests/case_compare.h"

using namespace syncproof;
using namespace syncproof::record;
using namespace syncproof::record::d3d12;

namespace {

// What an engine's barrier code looks like: generic over its command list.
template <class List>
void uav_to_srv_barrier(List& cl, bool gl1) {
  cl.SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0,
                       D3D12XBOX_FLUSH_RANGE_ALL);
  cl.SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE |
                        (gl1 ? D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE : D3D12XBOX_SYNC_FLAG_NONE),
                    D3D12XBOX_SYNC_CONTROL_FLAG_NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL);
}

// cases/same-queue/uav-to-srv.sync (gl1) and uav-to-srv-no-gl1.sync, recorded.
void record_uav_to_srv(Recorder& r, bool gl1) {
  CommandQueue& acs = r.CreateCommandQueue("acs", QueueType::Compute);
  Resource grid = r.CreateBuffer("grid", 0x10000, 0x4000);
  CommandList cl;
  cl.Label("produce");
  cl.Dispatch(64, 1, 1, {Writes(grid, Kind::Uav)});
  uav_to_srv_barrier(cl, gl1);
  cl.Label("consume");
  cl.Dispatch(64, 1, 1, {Reads(grid, Kind::Srv)});
  acs.ExecuteCommandLists({&cl});
  if (gl1) {
    r.Prove(Visible("produce", "consume"));
    r.Prove(Ordered("produce", "consume"));
    r.Prove(NoHazards());
    r.Prove(DeadlockFree());
  } else {
    r.Refute(Visible("produce", "consume"), {"GL1_INVALIDATE"});
  }
}

lang::ParseResult library_case(const char* rel) {
  return lang::parse_case_file(std::string(SYNCPROOF_SOURCE_DIR) + "/" + rel);
}

// A place in an explanation: the case text's `line N`, or the call's FILE:LINE:COL.
std::string without_lines(const std::string& s) {
  return std::regex_replace(s, std::regex("line [0-9]+|[^ ]+:[0-9]+:[0-9]+"), "PLACE");
}

std::string without_places(const std::string& s) {
  return std::regex_replace(s, std::regex("[^ ]+:[0-9]+"), "FILE:LINE");
}

}  // namespace

TEST_CASE("a recorded barrier is the case of the equivalent case file, with its verdicts") {
  for (bool gl1 : {true, false}) {
    CAPTURE(gl1);
    Recorder r(gl1 ? "UAV write -> SRV read on one compute queue"
                   : "UAV write -> SRV read, missing GL1_INVALIDATE");
    record_uav_to_srv(r, gl1);
    lang::ParseResult rec = parse_recording(r);
    REQUIRE_MESSAGE(rec.diags.empty(), lang::render_all(rec));
    lang::ParseResult file = library_case(gl1 ? "cases/same-queue/uav-to-srv.sync"
                                              : "cases/same-queue/uav-to-srv-no-gl1.sync");
    REQUIRE(!file.has_errors());
    CHECK(testing::case_difference(file.c, rec.c) == "");
    // The same verdict, assumptions and trace (line numbers are those of each text).
    const auto want = encode::check_case(file.c, {});
    Result got = r.Verify();
    CHECK(got.ok());
    REQUIRE(got.properties.size() == want.results.size());
    for (size_t i = 0; i < want.results.size(); ++i)
      CHECK(got.properties[i].verdict == properties::verdict_name(want.results[i].verdict));
    const PropertyResult& p = got.properties[0];
    CHECK(p.rule == "P-VISIBLE");
    CHECK(p.verdict == properties::verdict_name(want.results[0].verdict));
    if (gl1) {
      CHECK(p.property == "prove visible produce -> consume");
      CHECK(p.assumptions == std::get<properties::Proved>(want.results[0].verdict).assumptions);
      continue;
    }
    // `missing:` is the explanation's, each alternative re-checked as `syncproof check` does
    // (synth/missing.h); it places a flag on a command by file:line: each text's own.
    properties::Violated v = std::get<properties::Violated>(want.results[0].verdict);
    synth::recheck_missing(file.c, 0, v,
                           [](const model::Case& c) { return encode::check_case(c, {}); });
    const auto& trace = v.trace;
    REQUIRE(p.missing.size() == trace.blamed.size());
    for (size_t i = 0; i < p.missing.size(); ++i)
      CHECK(without_places(p.missing[i]) == without_places(trace.blamed[i]));
    CHECK(without_lines(p.why) == without_lines(trace.why));
    REQUIRE(p.trace.size() == trace.lines.size());
    for (size_t i = 0; i < p.trace.size(); ++i) {
      CHECK(p.trace[i].time == trace.lines[i].time);
      CHECK(p.trace[i].command == trace.lines[i].command);
      CHECK(p.trace[i].what == trace.lines[i].what);
      CHECK(p.trace[i].file == __FILE__);  // each step names the call that recorded it
    }
    CHECK(got.report().find("missing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE") != std::string::npos);
  }
}

TEST_CASE("diagnostics point at the recording call, with the case file's message") {
  Recorder r;
  CommandQueue& acs = r.CreateCommandQueue("acs", QueueType::Compute);
  Resource grid = r.CreateBuffer("grid", 0x10000, 0x4000);
  CommandList cl;
  cl.Dispatch(1, 1, 1, {Writes(grid, Kind::Uav)});
  const unsigned bad_line = __LINE__ + 1;
  cl.SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, 0, 0, D3D12XBOX_FLUSH_RANGE_ALL);
  acs.ExecuteCommandLists({&cl});
  Result res = r.Verify();
  CHECK(res.has_errors);
  CHECK(res.properties.empty());  // no verdict for a case with errors
  REQUIRE(res.diagnostics.size() == 1);
  const Diagnostic& d = res.diagnostics[0];
  CHECK(d.file == __FILE__);
  CHECK(d.line == bad_line);
  CHECK(d.severity == "error");
  // The same message the case file's line gets.
  auto file =
      lang::parse_case("t.sync",
                       "queue acs compute\non acs:\n  SyncTopOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, "
                       "D3D12XBOX_FLUSH_RANGE_ALL)\n");
  REQUIRE(file.diags.size() == 1);
  CHECK(d.message == file.diags[0].message);
  CHECK(d.text() == fmt::format("{}:{}:{}: error: {}", __FILE__, bad_line, d.column, d.message));
}

TEST_CASE("names that are no identifiers are errors at the call, never text injected") {
  Recorder r("a \"quoted\" title");
  const unsigned line = __LINE__ + 1;
  r.CreateCommandQueue("gfx\non gfx:", QueueType::Graphics);
  CommandQueue& q = r.CreateCommandQueue("q", QueueType::Compute);
  CommandList cl;
  cl.Label("bad label");
  cl.SyncTopOfPipeX(0, 0, 0, D3D12XBOX_FLUSH_RANGE_ALL);
  q.ExecuteCommandLists({&cl});
  Result res = r.Verify();
  REQUIRE(res.diagnostics.size() == 2);
  CHECK(res.diagnostics[0].line == line);
  CHECK(res.diagnostics[0].message ==
        "queue name 'gfx\non gfx:' is not a case-language identifier ([A-Za-z_][A-Za-z0-9_.-]*)");
  CHECK(res.diagnostics[1].message ==
        "command label 'bad label' is not a case-language identifier");
  CHECK(r.CaseText().find("case \"a \\\"quoted\\\" title\"") != std::string::npos);
  CHECK(r.CaseText().find("on gfx:") == std::string::npos);
}

TEST_CASE("labels, fences and the queue-level APIs across two queues") {
  Recorder r;
  CommandQueue& acs = r.CreateCommandQueue("acs", QueueType::Compute);
  CommandQueue& gfx = r.CreateCommandQueue("gfx", QueueType::Graphics);
  Resource grid = r.CreateBuffer("grid", 0x10000, 0x4000);
  Resource color = r.CreateTexture("color", 0x200000, 0x400000);
  const uint64_t done = r.CreateLabel("done", 0x300000);
  CommandList a, g;
  a.Label("produce");
  a.Dispatch(8, 8, 1, {Writes(grid, Kind::Uav)});
  a.SyncBottomOfPipeX(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH, 0, 0, D3D12XBOX_FLUSH_RANGE_ALL);
  a.Write64BitValueBottomOfPipe2X(done, 1, D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK, 0,
                                  D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE);
  g.Wait64BitValueX(done, D3D12_COMPARISON_FUNC_GREATER_EQUAL, 1);
  g.SyncTopOfPipeX(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE, 0, 0,
                   D3D12XBOX_FLUSH_RANGE_ALL);
  g.Label("consume");
  g.SetAccesses({Reads(grid, Kind::Srv), Writes(color, Kind::Rt)});
  g.DrawInstanced(3, 1, 0, 0);
  acs.ExecuteCommandLists({&a});
  gfx.ExecuteCommandLists({&g});
  r.Prove(Visible("produce", "consume"));
  r.Prove(DeadlockFree());
  const std::string text = r.CaseText();
  CHECK(text.find("  Write64BitValueBottomOfPipe2X(done, 1, GL2_WRITEBACK, NONE, NONE)") !=
        std::string::npos);
  CHECK(text.find("  Wait64BitValueX(done, GREATER_EQUAL, 1)") != std::string::npos);
  CHECK(text.find("  consume: DrawInstanced reads grid as srv, writes color as rt") !=
        std::string::npos);
  Result res = r.Verify();
  INFO(res.report());
  CHECK(res.ok());
  CHECK(res.properties.size() == 2);
}
