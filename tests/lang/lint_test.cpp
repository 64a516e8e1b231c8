// Semantic checks (lint): each a located error or warning with a precise message.
#include <doctest/doctest.h>

#include "lang_test_util.h"

namespace syncproof::lang {

using test::diags;
using test::only;
using test::parse;
using test::with_prelude;

TEST_CASE("flag names: unknown with a suggestion, wrong family, FLUSH_RANGE_ALL") {
  CHECK(only(with_prelude(
            "on gfx:\n  SyncTopOfPipeX(GL1_INVALIDTE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:18: error: unknown sync flag 'GL1_INVALIDTE'; did you mean "
        "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE?");
  CHECK(only(with_prelude("on gfx:\n  SyncTopOfPipeX(VCACHE_INVALIDATE | W32, NONE, 0, "
                          "D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:38: error: 'W32' is a D3D12XBOX_DISPATCH_FLAGS constant (D3D12XBOX_DISPATCH_FLAG_W32), "
        "not a sync flag: SyncFlags takes D3D12XBOX_SYNC_FLAGS");
  CHECK(only(with_prelude("on acs:\n  DispatchX(GL2_WRITEBACK) writes grid as uav\n")) ==
        "9:13: error: 'GL2_WRITEBACK' is a D3D12XBOX_SYNC_FLAGS constant "
        "(D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK), not a dispatch flag: DispatchFlags takes "
        "D3D12XBOX_DISPATCH_FLAGS");
  CHECK(
      only(with_prelude(
          "on gfx:\n  SyncTopOfPipeX(NONE, VCACHE_INVALIDATE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
      "9:24: error: 'VCACHE_INVALIDATE' is a D3D12XBOX_SYNC_FLAGS constant "
      "(D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE), not a sync control flag: ControlFlags takes "
      "D3D12XBOX_SYNC_CONTROL_FLAGS");
  CHECK(
      only(with_prelude("on gfx:\n  SyncTopOfPipeX(D3D12XBOX_FLUSH_RANGE_ALL, NONE, 0, 0x10)\n")) ==
      "9:18: error: D3D12XBOX_FLUSH_RANGE_ALL is a SizeInBytes value, not a flag: SyncFlags "
      "takes D3D12XBOX_SYNC_FLAGS");
  CHECK(
      only(with_prelude("on gfx:\n  SyncTopOfPipeX(NONE, 0x4, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
      "9:24: error: D3D12XBOX_SYNC_CONTROL_FLAGS constants have no published values: write them "
      "by name");
}

TEST_CASE("validity problems are located at the flag that causes them") {
  CHECK(only(with_prelude("on gfx:\n  SyncTopOfPipeX(GL2_INVALIDATE | CS_PARTIAL_FLUSH, NONE, 0, "
                          "D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:35: error: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX");
  const std::string compute =
      only(with_prelude("on acs:\n  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | PS_PARTIAL_FLUSH, NONE, "
                        "0, D3D12XBOX_FLUSH_RANGE_ALL)\n"));
  CHECK(compute.starts_with(
      "9:40: error: D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH is not accepted on a compute queue"));
  CHECK(only(with_prelude("on gfx:\n  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, TOP_SELECT_ENGINE_CE, 0, "
                          "D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:39: error: D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE is not accepted by "
        "SyncBottomOfPipeX");
  CHECK(
      only(with_prelude("on gfx:\n  DispatchX(NONE | ENABLE_OUT_OF_ORDER) writes grid as uav\n")) ==
      "9:20: error: D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER is only allowed on asynchronous "
      "(compute) queues, not on a graphics queue");
  CHECK(only(with_prelude("on acs:\n  DispatchX(W32) writes grid as uav\n")) ==
        "9:13: error: D3D12XBOX_DISPATCH_FLAG_W32 requires a compute shader compiled with "
        "-D__XBOX_ENABLE_WAVE32=1 (mark the dispatch `[wave32]` in the case file)");
  CHECK(diags(with_prelude("on acs:\n  DispatchX(W32) [wave32] writes grid as uav\n")) == "");
  CHECK(only(with_prelude("on gfx:\n  Write64BitValueBottomOfPipe2X(done, 1, NONE, NONE, "
                          "GPU_TIMESTAMP | SYSTEM_TIMESTAMP)\n")) ==
        "9:54: error: D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP and "
        "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP cannot be combined (only one write flag "
        "is allowed at a time)");
  CHECK(only(with_prelude("on gfx:\n  Signal2X(f, 1, KCACHE_INVALIDATE)\n")) ==
        "9:18: error: D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE is not accepted by Signal2X");
}

TEST_CASE("whole_memory follows the range arguments") {
  const std::string w = "9:35: warning: D3D12XBOX_SYNC_FLAG_GL2_RANGE with the whole-memory range";
  CHECK(only(with_prelude("on gfx:\n  SyncTopOfPipeX(GL2_INVALIDATE | GL2_RANGE, NONE, 0, "
                          "D3D12XBOX_FLUSH_RANGE_ALL)\n"))
            .starts_with(w));
  CHECK(diags(with_prelude(
            "on gfx:\n  SyncTopOfPipeX(GL2_INVALIDATE | GL2_RANGE, NONE, 0, 0x1000)\n")) == "");
  CHECK(diags(with_prelude(
            "on gfx:\n  SyncTopOfPipeX(GL2_INVALIDATE | GL2_RANGE, NONE, grid, grid)\n")) == "");
}

TEST_CASE("BOP destinations: aligned, a label's address") {
  ParseResult r = parse(
      "queue q graphics\nlabel l 0x1002\non q:\n  Write64BitValueBottomOfPipe2X(l, 1, NONE, NONE, "
      "NONE)\n");
  CHECK(only(r) ==
        "4:33: error: Destination 0x1002 is not 4-byte aligned (Write*BitValueBottomOfPipe2X "
        "requires 4-byte alignment)");
  CHECK(only(with_prelude(
            "on gfx:\n  Write64BitValueBottomOfPipe2X(0x400000, 1, NONE, NONE, NONE)\n")) ==
        "9:33: warning: Destination 0x400000 is not the address of a declared label");
  CHECK(
      only(with_prelude("on gfx:\n  Write64BitValueBottomOfPipe2X(grid, 1, NONE, NONE, NONE)\n")) ==
      "9:33: error: 'grid' is a resource, not a label (declared at line 4)");
}

TEST_CASE("undeclared names, names used before their declaration, duplicates") {
  CHECK(only(with_prelude("on gfx:\n  Draw reads gird as srv\n")) ==
        "9:14: error: undeclared resource 'gird'; did you mean 'grid'?");
  CHECK(only(with_prelude("on gpu:\n")) ==
        "8:4: error: undeclared queue 'gpu'; did you mean 'cpu'?");
  CHECK(only(with_prelude("on gfx:\n  Wait64BitValueX(dome, EQUAL, 1)\n")) ==
        "9:19: error: undeclared label 'dome'; did you mean 'done'?");
  CHECK(only(with_prelude("on gfx:\n  Draw reads late as srv\nbuffer late 0x900000 4\n")) ==
        "9:14: error: 'late' is used before its declaration at line 10");
  CHECK(only(with_prelude("on gfx:\n  Signal(done, 1)\n")) ==
        "9:10: error: 'done' is a label, not a fence (declared at line 7)");
  CHECK(only(with_prelude("fence done\n")) ==
        "8:7: error: duplicate name 'done': previous declaration at line 7");
  CHECK(only(with_prelude("on gfx:\n  f: Draw reads grid as srv\n")) ==
        "9:3: error: duplicate name 'f': previous declaration at line 6");
}

TEST_CASE("a name whose declaration line is broken is not reported again") {
  ParseResult r = parse("queue q graphics\nfence f \"\non q:\n  Signal(f, 1)\n");
  CHECK(only(r) == "2:9: error: unterminated string");
}

TEST_CASE("waits nothing can satisfy, and waits satisfied from the start") {
  CHECK(only(with_prelude("on gfx:\n  Wait(f, 1)\n")) ==
        "9:8: warning: nothing signals fence 'f': this wait never completes");
  CHECK(only(with_prelude("on gfx:\n  WaitX(f, 2)\non acs:\n  Signal(f, 1)\n")) ==
        "9:9: warning: no Signal of fence 'f' reaches 2 (the largest value signalled is 1): this "
        "wait never completes");
  CHECK(only(with_prelude("on gfx:\n  Wait(f, 0)\n")) ==
        "9:11: warning: Wait(f, 0) is satisfied by the fence's initial value 0: this wait does not "
        "order anything");
  CHECK(only(with_prelude("on gfx:\n  Wait64BitValueX(done, GREATER_EQUAL, 1)\n")) ==
        "9:19: warning: nothing writes label 'done': this wait never completes");
  CHECK(only(with_prelude("on gfx:\n  Wait64BitValueX(done, GREATER_EQUAL, 0)\n")) ==
        "9:25: warning: GREATER_EQUAL 0 is satisfied by the label's initial value 0: this wait "
        "does not order anything");
  CHECK(only(with_prelude("on gfx:\n  Wait64BitValueX(done, NEVER, 0)\n")) ==
        "9:25: warning: NEVER is never satisfied: this wait blocks forever");
  CHECK(only(with_prelude("on gfx:\n  Wait32BitValueX(done, EQUAL, 3)\non acs:\n"
                          "  Write32BitValueBottomOfPipe2X(done, 2, NONE, NONE, NONE)\n")) ==
        "9:19: warning: no value written to label 'done' satisfies EQUAL 3: this wait never "
        "completes");
  // A later write counts: the check runs when the whole file is known.
  CHECK(diags(with_prelude("on gfx:\n  Wait64BitValueX(done, EQUAL, 3)\non acs:\n"
                           "  Write64BitValueBottomOfPipe2X(0x700000, 3, NONE, NONE, NONE)\n")) ==
        "");
}

TEST_CASE("access kinds and stages against the work") {
  CHECK(only(with_prelude("on gfx:\n  Dispatch reads grid as vertex\n")) ==
        "9:26: error: 'vertex' is a draw-only access kind: a dispatch cannot use it");
  CHECK(only(with_prelude("on gfx:\n  Draw writes grid as copy-dst\n")) ==
        "9:23: error: 'copy-dst' is for copies only (CopyBufferRegion, CopyResource, "
        "CopyTextureRegion)");
  CHECK(only(with_prelude("on cpu:\n  Host reads grid as srv\n")) ==
        "9:22: error: Host work accesses memory 'as host' only");
  CHECK(only(with_prelude("on gfx:\n  Draw reads grid as rt in vs\n")) ==
        "9:28: error: 'rt' reads happen in ps: 'in vs' is not allowed");
  CHECK(only(with_prelude("on gfx:\n  Draw writes grid as streamout in ps\n")) ==
        "9:36: error: 'streamout' writes happen in vs: 'in ps' is not allowed");
  CHECK(only(with_prelude("on acs:\n  Dispatch reads grid as uav in vs\n")) ==
        "9:33: error: stage 'vs' is not a dispatch stage: dispatches run in cs");
}

TEST_CASE("work and sync APIs against the queue type") {
  CHECK(only(with_prelude("on acs:\n  Draw reads grid as srv\n")) ==
        "9:3: error: Draw is not allowed on compute queue 'acs': compute queues run Dispatch, "
        "DispatchX, ExecuteIndirect of dispatches and copies");
  CHECK(only(with_prelude(
            "on cpu:\n  CopyResource reads grid as copy-src, writes color as copy-dst\n")) ==
        "9:3: error: CopyResource is not allowed on host queue 'cpu': host queues run Host, Signal "
        "and Wait");
  CHECK(only(with_prelude("on acs:\n  Host reads grid as host\n")) ==
        "9:3: error: Host work is only allowed on host queues; 'acs' is a compute queue");
  CHECK(only(with_prelude("on cpu:\n  Wait64BitValueX(done, EQUAL, 1)\n")) ==
        "9:3: error: Wait64BitValueX is not allowed on host queue 'cpu': it is a GPU command-list "
        "API");
  CHECK(only(with_prelude("on cpu:\n  WaitX(f, 1)\non gfx:\n  Signal(f, 1)\n")) ==
        "9:3: error: WaitX is not allowed on host queue 'cpu': the CPU signals and waits with "
        "Signal and Wait");
}

TEST_CASE("profile, assume, target, case checks") {
  CHECK(only(parse("queue q graphics\nassume +A-BOP-FIFO\nassume +A-BOP-FIFO\n")) ==
        "3:8: warning: A-BOP-FIFO is already enabled at line 2");
  CHECK(only(parse("queue q graphics\ntarget coherent yes\n")) ==
        "2:8: error: unknown target key 'coherent'");
  CHECK(only(parse("queue q graphics\ntarget gl2-rb-coherent yes\ntarget gl2-rb-coherent yes\n")) ==
        "3:8: error: duplicate target 'gl2-rb-coherent': previous at line 2");
  CHECK(only(parse("queue q graphics\ntarget xbox-series\n")) ==
        "2:8: error: unknown target 'xbox-series' (conservative, xbox-series-x, xbox-series-s); "
        "did you mean 'xbox-series-x'?");
  CHECK(only(parse("queue q graphics\ntarget xbox-series-x\ntarget xbox-series-x\n")) ==
        "3:8: error: duplicate target name 'xbox-series-x': the target is already 'xbox-series-x' "
        "(line 2)");
  CHECK(only(parse("queue q graphics\ntarget gl2-rb-coherent no\ntarget xbox-series-s\n")) ==
        "3:8: error: 'target xbox-series-s' after a 'target KEY VALUE' line: name the console "
        "first, then the facts that differ from it");
  CHECK(only(parse("queue q graphics\ntarget xbox-series-s no\n")) ==
        "2:22: error: unexpected 'no' after the target name");
}

TEST_CASE("ParseResult counts") {
  ParseResult r = with_prelude("on gfx:\n  Wait(f, 0)\n  Draw reads x as srv\n");
  CHECK(r.errors() == 1);
  CHECK(r.warnings() == 1);
  CHECK(r.has_errors());
  CHECK(!r.unreadable());
  CHECK(!with_prelude("").has_errors());
}

TEST_CASE("parse_case_file: unreadable paths") {
  ParseResult r = parse_case_file("/nonexistent/dir/x.sync");
  CHECK(r.unreadable());
  CHECK(r.has_errors());
  CHECK(render_all(r) ==
        "/nonexistent/dir/x.sync: error: cannot read the file: No such file or directory\n");
  ParseResult d = parse_case_file(SYNCPROOF_SOURCE_DIR "/cases");
  CHECK(d.unreadable());
  CHECK(d.diags.at(0).message == "cannot read the file: is a directory");
  ParseResult ok = parse_case_file(SYNCPROOF_SOURCE_DIR "/cases/lint/clean_example.sync");
  CHECK(!ok.unreadable());
  CHECK(diags(ok) == "");
  CHECK(ok.c.file == SYNCPROOF_SOURCE_DIR "/cases/lint/clean_example.sync");
  CHECK(ok.c.title == "Async compute writes a grid; graphics reads it after a BOP label");
}

TEST_CASE("model/case.cpp names and compare") {
  CHECK(model::to_string(model::AccessKind::ShaderCode) == "shader-code");
  CHECK(model::to_string(model::AccessKind::CopyDst) == "copy-dst");
  CHECK(model::to_string(model::Stage::Dma) == "dma");
  CHECK(model::to_string(model::WorkKind::IndirectDispatch) == "indirect dispatch");
  CHECK(model::to_string(model::Comparison::GreaterEqual) == "GREATER_EQUAL");
  CHECK(model::to_string(model::PropertyKind::DeadlockFree) == "deadlock-free");
  CHECK(model::compare(model::Comparison::GreaterEqual, 1, 1));
  CHECK(!model::compare(model::Comparison::Greater, 1, 1));
  CHECK(model::compare(model::Comparison::Less, 0, 1));
  CHECK(model::compare(model::Comparison::NotEqual, 0, 1));
  CHECK(!model::compare(model::Comparison::Never, 0, 0));
  CHECK(model::compare(model::Comparison::Always, 5, 0));
  CHECK(model::compare(model::Comparison::LessEqual, 2, 2));
  CHECK(!model::compare(model::Comparison::Equal, 2, 3));
}

}  // namespace syncproof::lang
