#pragma once
// The d3d12.h enumerations a standard barrier is written in: D3D12_RESOURCE_STATES,
// D3D12_BARRIER_SYNC, D3D12_BARRIER_ACCESS, D3D12_BARRIER_LAYOUT, the barrier types and flags.
// Names and values come from the public header (Debian's directx-headers-dev, MIT) at build time:
// cmake/D3D12Names.cmake lists the names, model/d3d12_names.cpp includes <directx/d3d12.h> and
// lets the compiler give each its value. Nothing here is retyped. Plain data.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::model::d3d12 {

enum class Family : uint8_t {
  ResourceState,        // D3D12_RESOURCE_STATES        (D3D12_RESOURCE_STATE_*)
  ResourceBarrierType,  // D3D12_RESOURCE_BARRIER_TYPE  (TRANSITION, ALIASING, UAV)
  ResourceBarrierFlag,  // D3D12_RESOURCE_BARRIER_FLAGS (BEGIN_ONLY, END_ONLY)
  BarrierType,          // D3D12_BARRIER_TYPE           (GLOBAL, TEXTURE, BUFFER)
  BarrierSync,          // D3D12_BARRIER_SYNC
  BarrierAccess,        // D3D12_BARRIER_ACCESS
  BarrierLayout,        // D3D12_BARRIER_LAYOUT
  TextureBarrierFlag,   // D3D12_TEXTURE_BARRIER_FLAGS  (DISCARD)
};

struct Name {
  Family family;
  std::string_view name;  // the header's spelling, e.g. "D3D12_BARRIER_SYNC_PIXEL_SHADING"
  uint32_t value;
};

// Every constant of the header's enumerations above, in header order.
std::span<const Name> names();
std::string_view prefix(Family f);     // "D3D12_BARRIER_SYNC_", ...
std::string_view type_name(Family f);  // "D3D12_BARRIER_SYNC", ...
// Whether the family's constants are bits that `|` combines (states, syncs, accesses, flags).
bool is_mask(Family f);
// A name with or without its prefix, case-sensitively. Header versions spell some names
// differently (Debian's d3d12.h: D3D12_BARRIER_SYNC_INPUT_ASSEMBLER, the current specification:
// INDEX_INPUT): both are accepted.
const Name* find(Family f, std::string_view name);
// The family a name belongs to, for a name used in the wrong place (first match).
const Name* find_any(std::string_view name);
// Closest valid full names for a misspelt one, best first.
std::vector<std::string> suggest(Family f, std::string_view name, size_t n = 3);
// The short names whose bits make up `value` (mask families: the fewest constants, largest
// first; 0 as the family's zero name), or the one name of a value: "RENDER_TARGET | COPY_SOURCE".
// A value no constant covers is given in hex for the rest: "SHADER_RESOURCE | 0x40000000".
std::string describe(Family f, uint32_t value, bool full_names = false);
// The short name of one constant's value ("" when none).
std::string_view short_name(Family f, uint32_t value);

// The constants the model's rules name, with the header's values.
struct StateBits {
  uint32_t common, vertex_and_constant_buffer, index_buffer, render_target, unordered_access,
      depth_write, depth_read, non_pixel_shader_resource, pixel_shader_resource, stream_out,
      indirect_argument, copy_dest, copy_source, resolve_dest, resolve_source,
      raytracing_acceleration_structure, shading_rate_source, generic_read, video;
};
struct SyncBits {
  uint32_t none, all, draw, index_input, vertex_shading, pixel_shading, depth_stencil,
      render_target, compute_shading, raytracing, copy, resolve, execute_indirect, all_shading,
      non_pixel_shading, emit_postbuild_info, clear_unordered_access_view, video, build_rtas,
      copy_rtas, split;
};
struct AccessBits {
  uint32_t common, vertex_buffer, constant_buffer, index_buffer, render_target, unordered_access,
      depth_stencil_write, depth_stencil_read, shader_resource, stream_output, indirect_argument,
      copy_dest, copy_source, resolve_dest, resolve_source, rtas_read, rtas_write,
      shading_rate_source, video, no_access;
};
struct LayoutValues {
  uint32_t undefined, common, present, generic_read, render_target, unordered_access,
      depth_stencil_write, depth_stencil_read, shader_resource, copy_source, copy_dest,
      resolve_source, resolve_dest, shading_rate_source, direct_common, direct_generic_read,
      direct_unordered_access, direct_shader_resource, direct_copy_source, direct_copy_dest,
      compute_common, compute_generic_read, compute_unordered_access, compute_shader_resource,
      compute_copy_source, compute_copy_dest;
};
// The VIDEO_* layouts (usable on video queues only, which the model does not have).
bool video_layout(uint32_t layout);
struct FlagBits {
  uint32_t begin_only, end_only, discard;
};
extern const StateBits kState;
extern const SyncBits kSync;
extern const AccessBits kAccess;
extern const LayoutValues kLayout;
extern const FlagBits kFlag;

}  // namespace syncproof::model::d3d12
