// The standard barriers' meaning per Microsoft's enhanced-barriers specification
// (microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md): the legacy-state tables, the aggregate
// sync scopes, and the compatibility tables the linter checks. The constants are d3d12.h's
// (model/d3d12.h); the tables follow the specification's sections named beside each function.
#include "model/barrier.h"

#include <fmt/format.h>

#include "model/case.h"
#include "model/d3d12.h"

namespace syncproof::model {

namespace {

using d3d12::kAccess;
using d3d12::kLayout;
using d3d12::kState;
using d3d12::kSync;

struct StateRow {
  uint32_t state, sync, access;
};

// "Equivalent D3D12_BARRIER_SYNC/ACCESS bit for each D3D12_RESOURCE_STATES bit".
std::vector<StateRow> state_rows() {
  const uint32_t rtas_syncs = kSync.build_rtas | kSync.copy_rtas | kSync.emit_postbuild_info;
  return {
      {kState.vertex_and_constant_buffer, kSync.all_shading,
       kAccess.vertex_buffer | kAccess.constant_buffer},
      {kState.index_buffer, kSync.index_input, kAccess.index_buffer},
      {kState.render_target, kSync.render_target, kAccess.render_target},
      {kState.unordered_access, kSync.all_shading | rtas_syncs, kAccess.unordered_access},
      {kState.depth_write, kSync.depth_stencil, kAccess.depth_stencil_write},
      {kState.depth_read, kSync.depth_stencil, kAccess.depth_stencil_read},
      {kState.non_pixel_shader_resource, kSync.non_pixel_shading, kAccess.shader_resource},
      {kState.pixel_shader_resource, kSync.pixel_shading, kAccess.shader_resource},
      {kState.stream_out, kSync.vertex_shading, kAccess.stream_output},
      {kState.indirect_argument, kSync.execute_indirect, kAccess.indirect_argument},
      {kState.copy_dest, kSync.copy, kAccess.copy_dest},
      {kState.copy_source, kSync.copy, kAccess.copy_source},
      {kState.resolve_dest, kSync.resolve, kAccess.resolve_dest},
      {kState.resolve_source, kSync.resolve, kAccess.resolve_source},
      {kState.raytracing_acceleration_structure, kSync.raytracing,
       kAccess.rtas_read | kAccess.rtas_write},
      {kState.shading_rate_source, kSync.pixel_shading, kAccess.shading_rate_source},
      {kState.video, kSync.video, kAccess.video},
  };
}

// "Access Bits Barrier Sync Compatibility", with NON_PIXEL_SHADING added wherever the
// specification's own section on that scope lists the access.
struct AccessSyncRow {
  uint32_t access, syncs;
};
std::vector<AccessSyncRow> access_sync_rows() {
  const uint32_t shading =
      kSync.all | kSync.draw | kSync.all_shading | kSync.non_pixel_shading | kSync.vertex_shading;
  return {
      {kAccess.vertex_buffer, shading},
      {kAccess.constant_buffer, shading | kSync.pixel_shading | kSync.compute_shading},
      {kAccess.index_buffer, kSync.all | kSync.index_input | kSync.draw},
      {kAccess.render_target, kSync.all | kSync.draw | kSync.render_target},
      {kAccess.unordered_access, shading | kSync.pixel_shading | kSync.compute_shading |
                                     kSync.clear_unordered_access_view | kSync.emit_postbuild_info |
                                     kSync.raytracing},
      {kAccess.depth_stencil_write, kSync.all | kSync.draw | kSync.depth_stencil},
      {kAccess.depth_stencil_read, kSync.all | kSync.draw | kSync.depth_stencil},
      {kAccess.shader_resource,
       shading | kSync.pixel_shading | kSync.compute_shading | kSync.build_rtas | kSync.raytracing},
      {kAccess.stream_output, shading},
      {kAccess.indirect_argument, kSync.all | kSync.execute_indirect},
      {kAccess.copy_dest, kSync.all | kSync.copy},
      {kAccess.copy_source, kSync.all | kSync.copy},
      {kAccess.resolve_dest, kSync.all | kSync.resolve},
      {kAccess.resolve_source, kSync.all | kSync.resolve},
      {kAccess.rtas_read, kSync.all | kSync.compute_shading | kSync.raytracing | kSync.all_shading |
                              kSync.non_pixel_shading | kSync.build_rtas | kSync.copy_rtas |
                              kSync.emit_postbuild_info},
      {kAccess.rtas_write, kSync.all | kSync.compute_shading | kSync.raytracing |
                               kSync.all_shading | kSync.non_pixel_shading | kSync.build_rtas |
                               kSync.copy_rtas},
      {kAccess.shading_rate_source, kSync.all | kSync.pixel_shading | kSync.all_shading},
      {kAccess.video, kSync.all | kSync.video},
  };
}

}  // namespace

std::string_view to_string(BarrierKind k) {
  switch (k) {
    case BarrierKind::Transition:
      return "TRANSITION";
    case BarrierKind::Uav:
      return "UAV";
    case BarrierKind::Aliasing:
      return "ALIASING";
    case BarrierKind::Global:
      return "GLOBAL";
    case BarrierKind::Buffer:
      return "BUFFER";
    case BarrierKind::Texture:
      return "TEXTURE";
  }
  return "?";
}

bool is_legacy(BarrierKind k) {
  return k == BarrierKind::Transition || k == BarrierKind::Uav || k == BarrierKind::Aliasing;
}

std::string_view barrier_api(BarrierKind k) {
  return is_legacy(k) ? "ResourceBarrier" : "Barrier";
}

uint32_t state_sync(uint32_t states) {
  if (states == kState.common) return kSync.all;
  uint32_t s = 0;
  for (const StateRow& r : state_rows())
    if (states & r.state) s |= r.sync;
  return s;
}

uint32_t state_access(uint32_t states) {
  if (states == kState.common) return kAccess.common;
  uint32_t a = 0;
  for (const StateRow& r : state_rows())
    if (states & r.state) a |= r.access;
  return a;
}

// "Equivalent D3D12_BARRIER_LAYOUT for each D3D12_RESOURCE_STATES bit". The specification's
// internal LEGACY_* layouts are given by their public counterparts; several read states together
// are a generic-read layout (DIRECT_QUEUE_GENERIC_READ when depth reads are among them).
uint32_t state_layout(uint32_t states) {
  struct Row {
    uint32_t state, layout;
  };
  const Row rows[] = {
      {kState.render_target, kLayout.render_target},
      {kState.unordered_access, kLayout.unordered_access},
      {kState.depth_write, kLayout.depth_stencil_write},
      {kState.depth_read, kLayout.depth_stencil_read},
      {kState.non_pixel_shader_resource, kLayout.shader_resource},
      {kState.pixel_shader_resource, kLayout.shader_resource},
      {kState.copy_dest, kLayout.copy_dest},
      {kState.copy_source, kLayout.copy_source},
      {kState.resolve_dest, kLayout.resolve_dest},
      {kState.resolve_source, kLayout.resolve_source},
      {kState.shading_rate_source, kLayout.shading_rate_source},
  };
  uint32_t found = kLayout.common;
  int count = 0;
  for (const Row& r : rows)
    if ((states & r.state) && (count == 0 || r.layout != found)) found = r.layout, ++count;
  if (count <= 1) return found;
  return (states & kState.depth_read) ? kLayout.direct_generic_read : kLayout.generic_read;
}

SplitPart split_part(const BarrierCmd& b) {
  if (b.kind == BarrierKind::Transition) {
    if (b.flags & d3d12::kFlag.begin_only) return SplitPart::Begin;
    if (b.flags & d3d12::kFlag.end_only) return SplitPart::End;
    return SplitPart::None;
  }
  if (is_legacy(b.kind)) return SplitPart::None;
  if (b.sync_after == kSync.split) return SplitPart::Begin;
  if (b.sync_before == kSync.split) return SplitPart::End;
  return SplitPart::None;
}

EnhancedBarrier enhanced(const Case& c, const BarrierCmd& b) {
  EnhancedBarrier e;
  e.split = split_part(b);
  auto is_texture = [&](std::optional<uint32_t> r) {
    return r && c.resources[*r].kind == ResourceKind::Texture;
  };
  switch (b.kind) {
    case BarrierKind::Transition:
      e.sync_before = state_sync(b.state_before), e.sync_after = state_sync(b.state_after);
      e.access_before = state_access(b.state_before);
      e.access_after = state_access(b.state_after);
      e.texture = is_texture(b.resource);
      if (e.texture) {
        e.layout_before = state_layout(b.state_before);
        e.layout_after = state_layout(b.state_after);
        e.layout_change = e.layout_before != e.layout_after;
      }
      break;
    case BarrierKind::Uav:  // "UAV Barriers": shader scopes, UNORDERED_ACCESS on both sides
      e.sync_before = e.sync_after = kSync.all_shading;
      e.access_before = e.access_after = kAccess.unordered_access;
      break;
    case BarrierKind::Aliasing:  // "Resource Aliasing": every access finished and flushed
      e.sync_before = e.sync_after = kSync.all;
      e.access_before = e.access_after = kAccess.common;
      break;
    case BarrierKind::Global:
    case BarrierKind::Buffer:
    case BarrierKind::Texture:
      e.sync_before = b.sync_before, e.sync_after = b.sync_after;
      e.access_before = b.access_before, e.access_after = b.access_after;
      if (b.kind == BarrierKind::Texture) {
        e.texture = true;
        e.layout_before = b.layout_before, e.layout_after = b.layout_after;
        e.layout_change = b.layout_before != b.layout_after;
      }
      break;
  }
  if (b.kind == BarrierKind::Aliasing) {
    if (b.resource && b.resource_after) e.resources = {*b.resource, *b.resource_after};
  } else if (b.resource) {
    e.resources = {*b.resource};
  }
  return e;
}

SyncScope sync_scope(uint32_t sync) {
  SyncScope s;
  if (sync & kSync.all) {
    s.all = s.vs = s.ps = s.cs = s.color = s.depth = s.index = s.indirect = s.copy = true;
    return s;
  }
  const bool draw = sync & kSync.draw;
  const bool shading = sync & kSync.all_shading;
  const bool non_pixel = sync & kSync.non_pixel_shading;
  s.vs = draw || shading || non_pixel || (sync & kSync.vertex_shading);
  s.ps = draw || shading || (sync & kSync.pixel_shading);
  s.cs = shading || non_pixel || (sync & kSync.compute_shading);
  s.color = draw || (sync & kSync.render_target);
  s.depth = draw || (sync & kSync.depth_stencil);
  s.index = draw || (sync & kSync.index_input);
  s.indirect = sync & kSync.execute_indirect;
  s.copy = sync & kSync.copy;
  return s;
}

AccessUse access_use(uint32_t access) {
  AccessUse u;
  if (access & kAccess.no_access) return u;
  const bool all = access == kAccess.common;
  auto has = [&](uint32_t bit) { return all || (access & bit) != 0; };
  u.vertex = has(kAccess.vertex_buffer), u.cbv = has(kAccess.constant_buffer);
  u.index = has(kAccess.index_buffer), u.rt = has(kAccess.render_target);
  u.uav = has(kAccess.unordered_access), u.depth_write = has(kAccess.depth_stencil_write);
  u.depth_read = has(kAccess.depth_stencil_read), u.srv = has(kAccess.shader_resource);
  u.so = has(kAccess.stream_output), u.indirect = has(kAccess.indirect_argument);
  u.copy_dst = has(kAccess.copy_dest), u.copy_src = has(kAccess.copy_source);
  return u;
}

uint32_t access_bit(AccessKind k, bool write) {
  switch (k) {
    case AccessKind::Srv:
      return kAccess.shader_resource;
    case AccessKind::Cbv:
      return kAccess.constant_buffer;
    case AccessKind::Uav:
      return kAccess.unordered_access;
    case AccessKind::Vertex:
      return kAccess.vertex_buffer;
    case AccessKind::Index:
      return kAccess.index_buffer;
    case AccessKind::Indirect:
      return kAccess.indirect_argument;
    case AccessKind::Rt:
      return kAccess.render_target;
    case AccessKind::Depth:
      return write ? kAccess.depth_stencil_write : kAccess.depth_stencil_read;
    case AccessKind::CopySrc:
      return kAccess.copy_source;
    case AccessKind::CopyDst:
      return kAccess.copy_dest;
    case AccessKind::Streamout:
      return kAccess.stream_output;
    case AccessKind::ShaderCode:
    case AccessKind::Host:
    case AccessKind::Label:
      break;
  }
  return 0;
}

uint32_t required_state(AccessKind k, Stage s, bool write) {
  switch (k) {
    case AccessKind::Srv:
      return s == Stage::Ps ? kState.pixel_shader_resource : kState.non_pixel_shader_resource;
    case AccessKind::Cbv:
    case AccessKind::Vertex:
      return kState.vertex_and_constant_buffer;
    case AccessKind::Uav:
      return kState.unordered_access;
    case AccessKind::Index:
      return kState.index_buffer;
    case AccessKind::Indirect:
      return kState.indirect_argument;
    case AccessKind::Rt:
      return kState.render_target;
    case AccessKind::Depth:
      return write ? kState.depth_write : kState.depth_write | kState.depth_read;
    case AccessKind::CopySrc:
      return kState.copy_source;
    case AccessKind::CopyDst:
      return kState.copy_dest;
    case AccessKind::Streamout:
      return kState.stream_out;
    case AccessKind::ShaderCode:
    case AccessKind::Host:
    case AccessKind::Label:
      break;
  }
  return 0;
}

uint32_t stage_sync(AccessKind k, Stage s) {
  switch (k) {
    case AccessKind::Index:
      return kSync.index_input;
    case AccessKind::Indirect:
      return kSync.execute_indirect;
    case AccessKind::Rt:
      return kSync.render_target;
    case AccessKind::Depth:
      return kSync.depth_stencil;
    case AccessKind::CopySrc:
    case AccessKind::CopyDst:
      return kSync.copy;
    case AccessKind::Host:
    case AccessKind::Label:
      return 0;
    default:
      break;
  }
  switch (s) {
    case Stage::Vs:
      return kSync.vertex_shading;
    case Stage::Ps:
      return kSync.pixel_shading;
    case Stage::Cs:
      return kSync.compute_shading;
    default:
      return 0;
  }
}

// "Command Queue Sync Compatibility".
uint32_t queue_syncs(QueueType q) {
  const uint32_t compute = kSync.all | kSync.compute_shading | kSync.raytracing | kSync.copy |
                           kSync.execute_indirect | kSync.all_shading | kSync.non_pixel_shading |
                           kSync.build_rtas | kSync.copy_rtas | kSync.emit_postbuild_info |
                           kSync.clear_unordered_access_view | kSync.split;
  switch (q) {
    case QueueType::Graphics:
      return compute | kSync.draw | kSync.index_input | kSync.vertex_shading | kSync.pixel_shading |
             kSync.depth_stencil | kSync.render_target | kSync.resolve;
    case QueueType::Compute:
      return compute;
    case QueueType::Host:
      break;
  }
  return 0;
}

// "Command Queue Access Compatibility" (NO_ACCESS goes anywhere).
uint32_t queue_accesses(QueueType q) {
  const uint32_t compute = kAccess.constant_buffer | kAccess.unordered_access |
                           kAccess.shader_resource | kAccess.indirect_argument | kAccess.copy_dest |
                           kAccess.copy_source | kAccess.rtas_read | kAccess.rtas_write |
                           kAccess.no_access;
  switch (q) {
    case QueueType::Graphics:
      return compute | kAccess.vertex_buffer | kAccess.index_buffer | kAccess.render_target |
             kAccess.depth_stencil_write | kAccess.depth_stencil_read | kAccess.stream_output |
             kAccess.resolve_dest | kAccess.resolve_source | kAccess.shading_rate_source;
    case QueueType::Compute:
      return compute;
    case QueueType::Host:
      break;
  }
  return 0;
}

uint32_t queue_states(QueueType q) {
  uint32_t out = 0;
  for (const StateRow& r : state_rows())
    if ((r.access & queue_accesses(q)) && (r.sync & queue_syncs(q))) out |= r.state;
  return out;
}

// "Command Queue Layout Compatibility" (UNDEFINED goes anywhere as a layout before).
bool queue_layout(QueueType q, uint32_t l) {
  const uint32_t both[] = {kLayout.undefined,        kLayout.common,          kLayout.generic_read,
                           kLayout.unordered_access, kLayout.shader_resource, kLayout.copy_source,
                           kLayout.copy_dest};
  const uint32_t direct[] = {
      kLayout.render_target,          kLayout.depth_stencil_write, kLayout.depth_stencil_read,
      kLayout.resolve_source,         kLayout.resolve_dest,        kLayout.shading_rate_source,
      kLayout.direct_common,          kLayout.direct_generic_read, kLayout.direct_unordered_access,
      kLayout.direct_shader_resource, kLayout.direct_copy_source,  kLayout.direct_copy_dest};
  const uint32_t compute[] = {kLayout.compute_common,           kLayout.compute_generic_read,
                              kLayout.compute_unordered_access, kLayout.compute_shader_resource,
                              kLayout.compute_copy_source,      kLayout.compute_copy_dest};
  for (uint32_t x : both)
    if (x == l) return q != QueueType::Host;
  for (uint32_t x : direct)
    if (x == l) return q == QueueType::Graphics;
  for (uint32_t x : compute)
    if (x == l) return q == QueueType::Compute;
  return false;
}

// "Layout Access Compatibility".
uint32_t layout_accesses(uint32_t l) {
  const uint32_t common = kAccess.shader_resource | kAccess.copy_dest | kAccess.copy_source;
  if (l == kLayout.undefined) return kAccess.no_access;
  if (l == kLayout.common) return common;
  if (l == kLayout.direct_common || l == kLayout.compute_common)
    return common | kAccess.unordered_access;
  if (l == kLayout.generic_read || l == kLayout.compute_generic_read)
    return kAccess.shader_resource | kAccess.copy_source;
  if (l == kLayout.direct_generic_read)
    return kAccess.shader_resource | kAccess.copy_source | kAccess.depth_stencil_read |
           kAccess.shading_rate_source | kAccess.resolve_source;
  if (l == kLayout.render_target) return kAccess.render_target;
  if (l == kLayout.unordered_access || l == kLayout.direct_unordered_access ||
      l == kLayout.compute_unordered_access)
    return kAccess.unordered_access;
  if (l == kLayout.depth_stencil_write)
    return kAccess.depth_stencil_read | kAccess.depth_stencil_write;
  if (l == kLayout.depth_stencil_read) return kAccess.depth_stencil_read;
  if (l == kLayout.shader_resource || l == kLayout.direct_shader_resource ||
      l == kLayout.compute_shader_resource)
    return kAccess.shader_resource;
  if (l == kLayout.copy_source || l == kLayout.direct_copy_source ||
      l == kLayout.compute_copy_source)
    return kAccess.copy_source;
  if (l == kLayout.copy_dest || l == kLayout.direct_copy_dest || l == kLayout.compute_copy_dest)
    return kAccess.copy_dest;
  if (l == kLayout.resolve_source) return kAccess.resolve_source;
  if (l == kLayout.resolve_dest) return kAccess.resolve_dest;
  if (l == kLayout.shading_rate_source) return kAccess.shading_rate_source;
  if (d3d12::video_layout(l)) return kAccess.video;
  return 0;
}

uint32_t incompatible_accesses(uint32_t access, uint32_t sync) {
  if (access == kAccess.common || (access & kAccess.no_access)) return 0;
  uint32_t bad = 0;
  for (const AccessSyncRow& r : access_sync_rows())
    if ((access & r.access) && !(sync & r.syncs)) bad |= access & r.access;
  return bad;
}

bool same_barrier(const BarrierCmd& a, const BarrierCmd& b) {
  return a.kind == b.kind && a.resource == b.resource && a.resource_after == b.resource_after &&
         a.state_before == b.state_before && a.state_after == b.state_after && a.flags == b.flags &&
         a.sync_before == b.sync_before && a.sync_after == b.sync_after &&
         a.access_before == b.access_before && a.access_after == b.access_after &&
         a.layout_before == b.layout_before && a.layout_after == b.layout_after &&
         a.discard == b.discard;
}

std::string barrier_source(const Case& c, const BarrierCmd& b) {
  using d3d12::describe;
  using F = d3d12::Family;
  auto res = [&](std::optional<uint32_t> r) {
    return r ? c.resources[*r].name : std::string("NULL");
  };
  const std::string head = fmt::format("{}({}", barrier_api(b.kind), to_string(b.kind));
  switch (b.kind) {
    case BarrierKind::Transition: {
      std::string flags;
      if (b.flags) flags = ", " + describe(F::ResourceBarrierFlag, b.flags);
      return fmt::format("{}, {}, {}, {}{})", head, res(b.resource),
                         describe(F::ResourceState, b.state_before),
                         describe(F::ResourceState, b.state_after), flags);
    }
    case BarrierKind::Uav:
      return fmt::format("{}, {})", head, res(b.resource));
    case BarrierKind::Aliasing:
      return fmt::format("{}, {}, {})", head, res(b.resource), res(b.resource_after));
    default:
      break;
  }
  std::string out = head;
  if (b.kind != BarrierKind::Global) out += ", " + res(b.resource);
  out += fmt::format(", {}, {}, {}, {}", describe(F::BarrierSync, b.sync_before),
                     describe(F::BarrierSync, b.sync_after),
                     describe(F::BarrierAccess, b.access_before),
                     describe(F::BarrierAccess, b.access_after));
  if (b.kind == BarrierKind::Texture) {
    out += fmt::format(", {}, {}", describe(F::BarrierLayout, b.layout_before),
                       describe(F::BarrierLayout, b.layout_after));
    if (b.discard) out += ", DISCARD";
  }
  return out + ")";
}

}  // namespace syncproof::model
