// The standard barriers in the case language: every form parses into the command it names, and
// each bad form gets its exact, located diagnostic; the state tracker's errors and warnings.
#include <doctest/doctest.h>

#include "lang_test_util.h"
#include "model/d3d12.h"

using namespace syncproof;
using namespace syncproof::lang::test;
namespace d3d12 = model::d3d12;

namespace barrier_test {

const model::BarrierCmd& barrier(const lang::ParseResult& r, size_t q, size_t i) {
  return std::get<model::BarrierCmd>(r.c.queues[q].commands[i].body);
}

}  // namespace barrier_test

using barrier_test::barrier;

TEST_CASE("every form of ResourceBarrier and Barrier parses") {
  auto r = with_prelude(
      "on gfx:\n"
      "  ResourceBarrier(TRANSITION, grid, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, "
      "NON_PIXEL_SHADER_RESOURCE | PIXEL_SHADER_RESOURCE)\n"
      "  ResourceBarrier(TRANSITION, color, RENDER_TARGET, COPY_SOURCE, BEGIN_ONLY)\n"
      "  ResourceBarrier(TRANSITION, color, RENDER_TARGET, COPY_SOURCE, END_ONLY)\n"
      "  ResourceBarrier(UAV, NULL)\n"
      "  ResourceBarrier(ALIASING, grid, NULL)\n"
      "  Barrier(GLOBAL, COMPUTE_SHADING, INDEX_INPUT, UNORDERED_ACCESS, INDEX_BUFFER)\n"
      "  Barrier(BUFFER, grid, 0x80, PIXEL_SHADING, 0x10, SHADER_RESOURCE)\n"
      "  Barrier(TEXTURE, color, NONE, RENDER_TARGET, NO_ACCESS, RENDER_TARGET, UNDEFINED, "
      "RENDER_TARGET, DISCARD)\n");
  REQUIRE_MESSAGE(r.diags.empty(), diags(r));
  const auto& t = barrier(r, 0, 0);
  CHECK(t.kind == model::BarrierKind::Transition);
  CHECK(t.state_before == d3d12::kState.unordered_access);
  CHECK(t.state_after ==
        (d3d12::kState.non_pixel_shader_resource | d3d12::kState.pixel_shader_resource));
  CHECK(model::split_part(barrier(r, 0, 1)) == model::SplitPart::Begin);
  CHECK(model::split_part(barrier(r, 0, 2)) == model::SplitPart::End);
  CHECK_FALSE(barrier(r, 0, 3).resource.has_value());
  CHECK(barrier(r, 0, 4).resource.has_value());
  CHECK_FALSE(barrier(r, 0, 4).resource_after.has_value());
  CHECK(barrier(r, 0, 5).sync_after == d3d12::kSync.index_input);
  CHECK(barrier(r, 0, 6).sync_before == d3d12::kSync.compute_shading);
  CHECK(barrier(r, 0, 7).discard);
  CHECK(barrier(r, 0, 7).layout_before == d3d12::kLayout.undefined);
  CHECK(model::barrier_source(r.c, barrier(r, 0, 6)) ==
        "Barrier(BUFFER, grid, COMPUTE_SHADING, PIXEL_SHADING, UNORDERED_ACCESS, SHADER_RESOURCE)");
}

TEST_CASE("bad barriers: names, arity, queue types, DISCARD on a buffer") {
  CHECK(only(with_prelude("on gfx:\n  ResourceBarrier(TRANSITION, grid, UNORDERD_ACCESS, "
                          "COMMON)\n")) ==
        "9:37: error: unknown D3D12_RESOURCE_STATES 'UNORDERD_ACCESS'; did you mean "
        "D3D12_RESOURCE_STATE_UNORDERED_ACCESS?");
  CHECK(only(with_prelude("on gfx:\n  ResourceBarrier(TRANSITION, grid, COMMON)\n")) ==
        "9:43: error: missing argument STATE_AFTER: ResourceBarrier(TRANSITION, RESOURCE, "
        "STATE_BEFORE, STATE_AFTER[, BEGIN_ONLY|END_ONLY])");
  CHECK(only(with_prelude("on gfx:\n  ResourceBarrier(UAV, grid, grid)\n")) ==
        "9:30: error: too many arguments: ResourceBarrier(UAV, RESOURCE|NULL)");
  CHECK(only(with_prelude("on gfx:\n  ResourceBarrier(BUFFER, grid)\n")) ==
        "9:19: error: unknown ResourceBarrier barrier type 'BUFFER'; expected TRANSITION, UAV or "
        "ALIASING (BUFFER is a Barrier type)");
  CHECK(only(with_prelude("on acs:\n  ResourceBarrier(TRANSITION, grid, UNORDERED_ACCESS, "
                          "PIXEL_SHADER_RESOURCE)\n")) ==
        "9:55: error: D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE cannot be used on compute queue "
        "'acs'");
  CHECK(only(with_prelude("on acs:\n  Barrier(GLOBAL, PIXEL_SHADING, COMPUTE_SHADING, "
                          "UNORDERED_ACCESS, UNORDERED_ACCESS)\n")) ==
        "9:19: error: D3D12_BARRIER_SYNC_PIXEL_SHADING cannot be used on compute queue 'acs'");
  CHECK(only(with_prelude("on gfx:\n  Barrier(TEXTURE, grid, COPY, COPY, COPY_DEST, COPY_SOURCE, "
                          "UNDEFINED, COPY_SOURCE, DISCARD)\n")) ==
        "9:86: error: DISCARD on buffer 'grid': buffers have no layout and no metadata to discard "
        "(use Barrier(BUFFER, ...))");
  CHECK(only(with_prelude("on gfx:\n  Barrier(BUFFER, color, COPY, COPY, COPY_DEST, "
                          "COPY_SOURCE)\n")) ==
        "9:19: error: Barrier(BUFFER, ...) names texture 'color': use Barrier(TEXTURE, ...)");
  CHECK(only(with_prelude(
            "on gfx:\n  Barrier(GLOBAL, COPY, COPY, COPY_DEST, PIXEL_SHADER_RESOURCE)\n")) ==
        "9:42: error: 'PIXEL_SHADER_RESOURCE' is a D3D12_RESOURCE_STATES constant "
        "(D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE), not a D3D12_BARRIER_ACCESS: ACCESS_AFTER "
        "takes D3D12_BARRIER_ACCESS");
  CHECK(only(with_prelude("on cpu:\n  ResourceBarrier(UAV, NULL)\n")) ==
        "9:3: error: ResourceBarrier is not allowed on host queue 'cpu': it is a GPU command-list "
        "API");
}

TEST_CASE("the specification's own rules are warnings") {
  CHECK(only(with_prelude("on gfx:\n  Barrier(GLOBAL, NONE, COPY, UNORDERED_ACCESS, "
                          "COPY_SOURCE)\n")) ==
        "9:31: warning: SYNC_BEFORE is NONE, so ACCESS_BEFORE must be NO_ACCESS "
        "(D3D12_BARRIER_SYNC_NONE means no work before the barrier touches the resource)");
  CHECK(only(with_prelude("on gfx:\n  Barrier(GLOBAL, COPY, PIXEL_SHADING, COPY_DEST, "
                          "INDEX_BUFFER)\n")) ==
        "9:51: warning: D3D12_BARRIER_ACCESS_INDEX_BUFFER does not go with SYNC_AFTER "
        "PIXEL_SHADING: the specification's \"Access Bits Barrier Sync Compatibility\" needs one "
        "of its sync scopes");
}

TEST_CASE("state tracking: a mismatched STATE_BEFORE is an error naming both states") {
  auto r = parse(
      "queue gfx graphics\n"
      "buffer grid 0x10000 0x4000 state UNORDERED_ACCESS\n"
      "on gfx:\n"
      "  Dispatch writes grid as uav\n"
      "  ResourceBarrier(TRANSITION, grid, COPY_DEST, PIXEL_SHADER_RESOURCE)\n"
      "  Draw reads grid as srv in ps\n");
  CHECK(only(r) ==
        "5:37: error: ResourceBarrier: STATE_BEFORE COPY_DEST of 'grid' does not match its state "
        "UNORDERED_ACCESS (as declared)");
}

// A texture a transition put in a state keeps it when its ExecuteCommandLists ends (a buffer would
// decay to COMMON there: cases/lint/state_decay.sync).
TEST_CASE("state tracking flows along a fence to another queue") {
  auto r = parse(
      "queue gfx graphics\n"
      "queue acs compute\n"
      "texture grid 0x10000 0x4000 state UNORDERED_ACCESS\n"
      "fence f\n"
      "on acs:\n"
      "  Dispatch writes grid as uav\n"
      "  ResourceBarrier(TRANSITION, grid, UNORDERED_ACCESS, NON_PIXEL_SHADER_RESOURCE)\n"
      "  Signal(f, 1)\n"
      "on gfx:\n"
      "  Wait(f, 1)\n"
      "  Draw reads grid as srv in vs\n"
      "  Draw reads grid as srv in ps\n");
  CHECK(only(r) ==
        "12:8: warning: Draw reads grid as srv in ps, but 'grid' is in state "
        "NON_PIXEL_SHADER_RESOURCE (since line 7): this access needs PIXEL_SHADER_RESOURCE");
}

TEST_CASE("state tracking: unordered transitions on two queues are said, not guessed") {
  auto r = parse(
      "queue gfx graphics\n"
      "queue acs compute\n"
      "buffer grid 0x10000 0x4000 state UNORDERED_ACCESS\n"
      "on acs:\n"
      "  ResourceBarrier(TRANSITION, grid, UNORDERED_ACCESS, NON_PIXEL_SHADER_RESOURCE)\n"
      "on gfx:\n"
      "  Draw reads grid as srv in vs\n");
  CHECK(only(r) ==
        "7:8: warning: the state of 'grid' here depends on the order of line 5, which nothing "
        "orders against this command: its state is not checked");
}

TEST_CASE("split barriers pair up on their queue") {
  CHECK(only(with_prelude("on gfx:\n  ResourceBarrier(TRANSITION, grid, COPY_DEST, COPY_SOURCE, "
                          "END_ONLY)\n")) ==
        "9:19: error: ResourceBarrier ends a split barrier on 'grid' that no BEGIN_ONLY before it "
        "on queue 'gfx' begins");
  CHECK(only(with_prelude("on gfx:\n  Barrier(BUFFER, grid, COPY, SPLIT, COPY_DEST, "
                          "COPY_SOURCE)\n")) ==
        "9:11: warning: this split barrier on 'grid' is never ended on queue 'gfx': nothing waits "
        "for its work");
}
