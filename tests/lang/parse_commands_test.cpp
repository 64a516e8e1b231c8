// Every command form, parsed into the right AST values.
#include <doctest/doctest.h>

#include "lang_test_util.h"

namespace syncproof::lang {

using test::diags;
using test::only;
using test::with_prelude;

namespace {

// The commands of queue `q` of a snippet that must parse clean.
std::vector<model::Command> commands(std::string_view snippet, size_t q = 0) {
  ParseResult r = with_prelude(snippet);
  REQUIRE_MESSAGE(diags(r) == "", diags(r));
  return r.c.queues.at(q).commands;
}

template <class T>
T body(const model::Command& c) {
  REQUIRE(std::holds_alternative<T>(c.body));
  return std::get<T>(c.body);
}

}  // namespace

TEST_CASE("work: Draw with accesses, default and explicit stages, label") {
  auto cmds = commands("on gfx:\n  consume: Draw reads grid as srv in vs, writes color as rt\n");
  REQUIRE(cmds.size() == 1);
  CHECK(cmds[0].label == "consume");
  CHECK(cmds[0].loc.line == 9);
  CHECK(cmds[0].loc.col == 12);
  auto w = body<model::WorkCmd>(cmds[0]);
  CHECK(w.kind == model::WorkKind::Draw);
  CHECK(w.api == "Draw");
  CHECK(!w.wave32);
  REQUIRE(w.accesses.size() == 2);
  CHECK(!w.accesses[0].write);
  CHECK(w.accesses[0].kind == model::AccessKind::Srv);
  CHECK(w.accesses[0].resource == 0);
  CHECK(w.accesses[0].stage == model::Stage::Vs);
  CHECK(w.accesses[0].loc.line == 9);
  CHECK(w.accesses[0].loc.col == 17);
  CHECK(w.accesses[1].write);
  CHECK(w.accesses[1].kind == model::AccessKind::Rt);
  CHECK(w.accesses[1].resource == 1);
  CHECK(w.accesses[1].stage == model::Stage::Ps);
}

TEST_CASE("work: default stage of every access kind") {
  auto draw = body<model::WorkCmd>(commands(
      "on gfx:\n  DrawIndexedInstanced reads grid as srv, reads grid as cbv, writes grid as uav, "
      "reads grid as vertex, reads grid as index, reads grid as shader-code, reads color as rt, "
      "writes color as depth, writes grid as streamout\n")[0]);
  CHECK(draw.api == "DrawIndexedInstanced");
  const model::Stage want[] = {model::Stage::Ps, model::Stage::Ps, model::Stage::Ps,
                               model::Stage::Vs, model::Stage::Cp, model::Stage::Ps,
                               model::Stage::Ps, model::Stage::Ps, model::Stage::Vs};
  REQUIRE(draw.accesses.size() == 9);
  for (size_t i = 0; i < 9; ++i) CHECK(draw.accesses[i].stage == want[i]);
  auto disp = body<model::WorkCmd>(
      commands("on acs:\n  Dispatch reads grid as srv, reads grid as cbv, writes grid as uav, "
               "reads grid as shader-code\n",
               1)[0]);
  CHECK(disp.kind == model::WorkKind::Dispatch);
  for (const auto& a : disp.accesses) CHECK(a.stage == model::Stage::Cs);
  auto copy = body<model::WorkCmd>(commands(
      "on gfx:\n  CopyTextureRegion reads color as copy-src, writes grid as copy-dst\n")[0]);
  CHECK(copy.kind == model::WorkKind::Copy);
  CHECK(copy.accesses[0].kind == model::AccessKind::CopySrc);
  CHECK(copy.accesses[0].stage == model::Stage::Dma);
  CHECK(copy.accesses[1].kind == model::AccessKind::CopyDst);
  CHECK(copy.accesses[1].write);
  auto host = body<model::WorkCmd>(
      commands("on cpu:\n  Host reads grid as host, writes grid as host\n", 2)[0]);
  CHECK(host.kind == model::WorkKind::Host);
  CHECK(host.accesses[1].stage == model::Stage::Host);
  CHECK(host.accesses[1].write);
}

TEST_CASE("work: DispatchX flags and attributes") {
  auto w = body<model::WorkCmd>(commands(
      "on acs:\n  DispatchX(W32 | D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER | 0x800) [wave32] "
      "writes grid as uav\n",
      1)[0]);
  CHECK(w.kind == model::WorkKind::Dispatch);
  CHECK(w.api == "DispatchX");
  CHECK(w.has_dispatch_flags);
  CHECK(w.dispatch_flags == (0x8000u | 0x40u | 0x800u));
  CHECK(w.wave32);
  auto d = body<model::WorkCmd>(commands("on gfx:\n  DispatchX(NONE) writes grid as uav\n")[0]);
  CHECK(d.has_dispatch_flags);
  CHECK(d.dispatch_flags == 0);
  auto c = body<model::WorkCmd>(commands(
      "on gfx:\n  CopyBufferRegion [pfp] reads grid as copy-src, writes grid as copy-dst\n")[0]);
  CHECK(c.pfp_dma);
  auto v =
      body<model::WorkCmd>(commands("on gfx:\n  DrawInstanced [wave32] reads grid as srv\n")[0]);
  CHECK(v.wave32);
}

TEST_CASE("work: ExecuteIndirect is a draw on graphics, a dispatch on compute, unless told") {
  auto cmds = commands(
      "on gfx:\n"
      "  ExecuteIndirect args grid\n"
      "  ExecuteIndirect dispatch args grid, writes color as uav\n"
      "  ExecuteIndirect [dispatch, wave32] args grid\n");
  auto a = body<model::WorkCmd>(cmds[0]);
  CHECK(a.kind == model::WorkKind::IndirectDraw);
  REQUIRE(a.accesses.size() == 1);
  CHECK(a.accesses[0].kind == model::AccessKind::Indirect);
  CHECK(!a.accesses[0].write);
  CHECK(a.accesses[0].stage == model::Stage::Cp);
  CHECK(a.accesses[0].loc.col == 24);
  auto b = body<model::WorkCmd>(cmds[1]);
  CHECK(b.kind == model::WorkKind::IndirectDispatch);
  REQUIRE(b.accesses.size() == 2);
  CHECK(b.accesses[1].stage == model::Stage::Cs);
  CHECK(body<model::WorkCmd>(cmds[2]).wave32);
  auto c = body<model::WorkCmd>(commands("on acs:\n  ExecuteIndirect args grid\n", 1)[0]);
  CHECK(c.kind == model::WorkKind::IndirectDispatch);
}

TEST_CASE("sync: SyncTopOfPipeX/SyncBottomOfPipeX flags, control flags, ranges") {
  auto cmds = commands(
      "on gfx:\n"
      "  SyncTopOfPipeX(VCACHE_INVALIDATE | D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE, NONE, 0, "
      "D3D12XBOX_FLUSH_RANGE_ALL)\n"
      "  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | 0x8000 | IDLE | SYNC_CPDMA, IDLE_SELECT_ENGINE_PFP | "
      "CPDMA_SELECT_ENGINE_PFP, grid, grid)\n"
      "  SyncTopOfPipeX(GL2_INVALIDATE | GL2_MARGIN | ICACHE_MARGIN, TOP_SELECT_ENGINE_CE, 0x1000, "
      "0x20)\n"
      "  SyncTopOfPipeX(GL1_INVALIDATE | GL1_RANGE, 0, 0x1000, color)\n");
  auto a = body<model::SyncCmd>(cmds[0]);
  CHECK(a.api == model::SyncApi::SyncTopOfPipeX);
  CHECK(a.flags == (0x100u | 0x200u));
  CHECK(a.control.bits == 0);
  CHECK(a.range.all);
  auto b = body<model::SyncCmd>(cmds[1]);
  CHECK(b.api == model::SyncApi::SyncBottomOfPipeX);
  CHECK(b.flags == (0x100000u | 0x8000u | 0x80000000u | 0x20000u));
  CHECK(b.control.has(model::ControlFlag::IdleSelectEnginePfp));
  CHECK(b.control.has(model::ControlFlag::CpdmaSelectEnginePfp));
  CHECK(!b.control.has(model::ControlFlag::TopSelectEnginePfp));
  CHECK(!b.range.all);
  CHECK(b.range.base == 0x10000);
  CHECK(b.range.size == 0x4000);
  auto c = body<model::SyncCmd>(cmds[2]);
  CHECK(c.flags == (0x4000u | 0x1800u | 0x3u));
  CHECK(c.spelled.icache);
  CHECK(!c.spelled.gl1);
  CHECK(c.spelled.gl2);
  CHECK(c.control.has(model::ControlFlag::TopSelectEngineCe));
  CHECK(c.range.base == 0x1000);
  CHECK(c.range.size == 0x20);
  auto d = body<model::SyncCmd>(cmds[3]);
  CHECK(!d.spelled.gl1);
  CHECK(d.range.size == 0x400000);
}

TEST_CASE("sync: a MARGIN written as a number counts as spelled, an OR of names does not") {
  ParseResult r = with_prelude("on gfx:\n  SyncTopOfPipeX(0x4000 | 0x1800, NONE, grid, grid)\n");
  CHECK(diags(r) == "");
  CHECK(std::get<model::SyncCmd>(r.c.queues[0].commands[0].body).spelled.gl2);
  r = with_prelude(
      "on gfx:\n  SyncTopOfPipeX(GL2_INVALIDATE | GL2_VOLATILE | GL2_RANGE, NONE, grid, grid)\n");
  CHECK(only(r) ==
        "9:35: warning: D3D12XBOX_SYNC_FLAG_GL2_VOLATILE | D3D12XBOX_SYNC_FLAG_GL2_RANGE is the "
        "value of D3D12XBOX_SYNC_FLAG_GL2_MARGIN: only the first and last cache line of the range "
        "are invalidated or written back");
}

TEST_CASE("sync: BOP value writes") {
  auto cmds = commands(
      "on gfx:\n"
      "  Write64BitValueBottomOfPipe2X(done, 0x1234567890, GL2_WRITEBACK | VCACHE_INVALIDATE, "
      "GCR_SEQUENCE_REVERSE, NONE)\n"
      "  Write32BitValueBottomOfPipe2X(0x700000, 7, 0, NONE, "
      "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP)\n");
  auto a = body<model::BopWriteCmd>(cmds[0]);
  CHECK(a.api == model::SyncApi::Write64BitValueBottomOfPipe2X);
  REQUIRE(a.label);
  CHECK(*a.label == 0);
  CHECK(a.address == 0x700000);
  CHECK(a.value == 0x1234567890);
  CHECK(a.flags == (0x8000u | 0x100u));
  CHECK(a.control.has(model::ControlFlag::GcrSequenceReverse));
  CHECK(a.source == model::WriteValueSource::Value);
  auto b = body<model::BopWriteCmd>(cmds[1]);
  CHECK(b.api == model::SyncApi::Write32BitValueBottomOfPipe2X);
  REQUIRE(b.label);  // the number is the label's address
  CHECK(b.value == 7);
  CHECK(b.source == model::WriteValueSource::SystemTimestamp);
}

TEST_CASE("sync: Wait32/64BitValueX, comparisons with or without prefix") {
  auto cmds = commands(
      "on acs:\n  Wait64BitValueX(done, GREATER_EQUAL, 1)\n"
      "  Wait32BitValueX(0x700000, D3D12_COMPARISON_FUNC_NOT_EQUAL, 0)\n"
      "on gfx:\n  Write64BitValueBottomOfPipe2X(done, 1, NONE, NONE, NONE)\n",
      1);
  auto a = body<model::WaitValueCmd>(cmds[0]);
  CHECK(a.is64);
  REQUIRE(a.label);
  CHECK(a.address == 0x700000);
  CHECK(a.cmp == model::Comparison::GreaterEqual);
  CHECK(a.value == 1);
  auto b = body<model::WaitValueCmd>(cmds[1]);
  CHECK(!b.is64);
  CHECK(b.cmp == model::Comparison::NotEqual);
  CHECK(b.value == 0);
}

TEST_CASE("sync: fences, Xbox and standard") {
  auto cmds = commands(
      "on gfx:\n"
      "  Signal2X(f, 5, CS_PARTIAL_FLUSH | GL2_WRITEBACK)\n"
      "  Signal(f, 6)\n"
      "  WaitX(f, 5, VCACHE_INVALIDATE)\n"
      "  Wait(f, 6)\n");
  auto a = body<model::SignalCmd>(cmds[0]);
  CHECK(a.xbox);
  CHECK(a.fence == 0);
  CHECK(a.value == 5);
  CHECK(a.flags == (0x100000u | 0x8000u));
  auto b = body<model::SignalCmd>(cmds[1]);
  CHECK(!b.xbox);
  CHECK(b.flags == 0);
  auto c = body<model::WaitFenceCmd>(cmds[2]);
  CHECK(c.xbox);
  CHECK(c.value == 5);
  CHECK(c.flags == 0x100u);
  auto d = body<model::WaitFenceCmd>(cmds[3]);
  CHECK(!d.xbox);
  CHECK(d.value == 6);
  auto host = commands("on cpu:\n  Wait(f, 1)\n  Signal(f, 1)\n", 2);
  CHECK(body<model::WaitFenceCmd>(host[0]).fence == 0);
}

TEST_CASE("a command with an error is left out, its label still names it (no cascade)") {
  ParseResult r = with_prelude(
      "on gfx:\n  a: Draw writes grid as srv\n  b: Draw reads grid as srv\nprove ordered a -> b\n");
  CHECK(only(r) ==
        "9:26: error: 'srv' is a read-only access kind: 'writes ... as srv' is not allowed");
  CHECK(r.c.queues[0].commands.size() == 1);
  CHECK(r.c.queues[0].commands[0].label == "b");
  CHECK(r.c.properties.empty());
}

}  // namespace syncproof::lang
