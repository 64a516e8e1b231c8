// The d3d12.h name tables (model/d3d12.h): read from the installed header, so a few values are
// checked here against what the public header says, with the spellings the case language
// accepts (with or without prefix, the INDEX_INPUT / INPUT_ASSEMBLER alias) and the text it
// prints back.
#include <doctest/doctest.h>

#include "model/barrier.h"
#include "model/d3d12.h"

using namespace syncproof::model;
using d3d12::Family;

TEST_CASE("the tables hold the header's values") {
  CHECK(d3d12::kSync.pixel_shading == 0x10);
  CHECK(d3d12::kSync.split == 0x80000000u);
  CHECK(d3d12::kState.generic_read == 0xAC3);
  CHECK(d3d12::kState.common == 0);
  CHECK(d3d12::kAccess.no_access == 0x80000000u);
  CHECK(d3d12::kAccess.shader_resource == 0x80);
  CHECK(d3d12::kLayout.undefined == 0xFFFFFFFFu);
  CHECK(d3d12::kLayout.shader_resource == 6);
  CHECK(d3d12::kFlag.end_only == 2);
  CHECK(d3d12::kFlag.discard == 1);
  size_t layouts = 0;
  for (const d3d12::Name& n : d3d12::names()) layouts += n.family == Family::BarrierLayout;
  CHECK(layouts >= 30);  // UNDEFINED ... VIDEO_QUEUE_COMMON
}

TEST_CASE("names are found with or without their prefix, and across header spellings") {
  const d3d12::Name* a = d3d12::find(Family::BarrierSync, "COMPUTE_SHADING");
  const d3d12::Name* b = d3d12::find(Family::BarrierSync, "D3D12_BARRIER_SYNC_COMPUTE_SHADING");
  REQUIRE(a);
  CHECK(a == b);
  CHECK(a->value == 0x80);
  const d3d12::Name* idx = d3d12::find(Family::BarrierSync, "INDEX_INPUT");
  const d3d12::Name* ia = d3d12::find(Family::BarrierSync, "INPUT_ASSEMBLER");
  REQUIRE(idx);
  CHECK(idx == ia);
  CHECK(idx->value == d3d12::kSync.index_input);
  CHECK(d3d12::find(Family::ResourceState, "COMPUTE_SHADING") == nullptr);
  const d3d12::Name* other = d3d12::find_any("COMPUTE_SHADING");
  REQUIRE(other);
  CHECK(other->family == Family::BarrierSync);
  CHECK(d3d12::suggest(Family::ResourceState, "PIXEL_SHADER_RESOURSE").front() ==
        "D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE");
}

TEST_CASE("values are printed with the fewest names, combinations the header names first") {
  CHECK(d3d12::describe(Family::ResourceState, d3d12::kState.generic_read) == "GENERIC_READ");
  CHECK(d3d12::describe(Family::ResourceState, 0) == "COMMON");
  CHECK(d3d12::describe(Family::BarrierSync, 0) == "NONE");
  CHECK(d3d12::describe(Family::BarrierAccess, 0x80 | 0x800) == "SHADER_RESOURCE | COPY_SOURCE");
  CHECK(d3d12::describe(Family::BarrierAccess, 0x80 | 0x40000000, true) ==
        "D3D12_BARRIER_ACCESS_SHADER_RESOURCE | 0x40000000");
  CHECK(d3d12::describe(Family::BarrierLayout, d3d12::kLayout.common) == "COMMON");
}

TEST_CASE("legacy states map to the specification's sync, access and layout") {
  CHECK(state_sync(d3d12::kState.common) == d3d12::kSync.all);
  CHECK(state_access(d3d12::kState.common) == d3d12::kAccess.common);
  CHECK(state_sync(d3d12::kState.pixel_shader_resource) == d3d12::kSync.pixel_shading);
  CHECK(state_access(d3d12::kState.render_target) == d3d12::kAccess.render_target);
  CHECK(state_layout(d3d12::kState.depth_read) == d3d12::kLayout.depth_stencil_read);
  CHECK(state_layout(d3d12::kState.pixel_shader_resource | d3d12::kState.depth_read) ==
        d3d12::kLayout.direct_generic_read);
  const SyncScope s = sync_scope(d3d12::kSync.non_pixel_shading);
  CHECK(s.vs);
  CHECK(s.cs);
  CHECK_FALSE(s.ps);
  CHECK(sync_scope(d3d12::kSync.draw).color);
  CHECK_FALSE(sync_scope(d3d12::kSync.draw).cs);
  CHECK((queue_states(QueueType::Compute) & d3d12::kState.pixel_shader_resource) == 0);
  CHECK((queue_states(QueueType::Compute) & d3d12::kState.non_pixel_shader_resource) != 0);
  CHECK(incompatible_accesses(d3d12::kAccess.copy_source, d3d12::kSync.pixel_shading) ==
        d3d12::kAccess.copy_source);
  CHECK(incompatible_accesses(d3d12::kAccess.shader_resource, d3d12::kSync.pixel_shading) == 0);
}
