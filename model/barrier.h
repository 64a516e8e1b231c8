#pragma once
// The standard D3D12 barriers, as data: ID3D12GraphicsCommandList::ResourceBarrier (transition,
// UAV, aliasing; split with BEGIN_ONLY/END_ONLY) and the enhanced ID3D12GraphicsCommandList7::
// Barrier (global, buffer, texture; split with SYNC_SPLIT), and what Microsoft's enhanced-barriers
// specification (microsoft/DirectX-Specs d3d/D3D12EnhancedBarriers.md) says they mean: the legacy
// state -> sync/access/layout tables, the aggregate sync scopes, and the queue/layout/access
// compatibility tables the linter checks. Values are d3d12.h's (model/d3d12.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/validity.h"

namespace syncproof::model {

enum class AccessKind : uint8_t;
enum class Stage : uint8_t;

enum class BarrierKind : uint8_t {
  Transition,  // ResourceBarrier(TRANSITION, R, STATE_BEFORE, STATE_AFTER[, BEGIN_ONLY|END_ONLY])
  Uav,         // ResourceBarrier(UAV, R|NULL)
  Aliasing,    // ResourceBarrier(ALIASING, R|NULL, R|NULL)
  Global,      // Barrier(GLOBAL, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER)
  Buffer,      // Barrier(BUFFER, R, ...)
  Texture,     // Barrier(TEXTURE, R, ..., LAYOUT_BEFORE, LAYOUT_AFTER[, DISCARD])
};
std::string_view to_string(BarrierKind k);    // "TRANSITION", "UAV", ..., "TEXTURE"
bool is_legacy(BarrierKind k);                // a ResourceBarrier form
std::string_view barrier_api(BarrierKind k);  // "ResourceBarrier" or "Barrier"

// A split barrier's half: legacy BEGIN_ONLY / END_ONLY, enhanced SYNC_AFTER = SPLIT (begin) and
// SYNC_BEFORE = SPLIT (end).
enum class SplitPart : uint8_t { None, Begin, End };

struct BarrierCmd {
  BarrierKind kind = BarrierKind::Global;
  std::optional<uint32_t> resource;            // index into Case::resources; nullopt: NULL / GLOBAL
  std::optional<uint32_t> resource_after;      // ALIASING's second resource (nullopt: NULL)
  uint32_t state_before = 0, state_after = 0;  // TRANSITION: D3D12_RESOURCE_STATES
  uint32_t flags = 0;                          // TRANSITION: D3D12_RESOURCE_BARRIER_FLAGS
  uint32_t sync_before = 0, sync_after = 0;    // enhanced: D3D12_BARRIER_SYNC
  uint32_t access_before = 0, access_after = 0;  // enhanced: D3D12_BARRIER_ACCESS
  uint32_t layout_before = 0, layout_after = 0;  // TEXTURE: D3D12_BARRIER_LAYOUT
  bool discard = false;                          // TEXTURE: D3D12_TEXTURE_BARRIER_FLAG_DISCARD
  // Where each argument was written (column, length; empty when the command was made, not
  // parsed), for the diagnostics of the state tracker (lang/).
  std::vector<std::pair<uint32_t, uint32_t>> arg_spans;
};

// A barrier as the enhanced API states it: what the legacy forms mean per the specification's
// tables ("Equivalent D3D12_BARRIER_SYNC/ACCESS/LAYOUT for each D3D12_RESOURCE_STATES bit", "UAV
// Barriers", "Resource Aliasing"). Resources: the one it names (two for ALIASING); none = every
// resource (GLOBAL, UAV NULL, ALIASING with a NULL).
struct EnhancedBarrier {
  uint32_t sync_before = 0, sync_after = 0, access_before = 0, access_after = 0;
  bool texture = false;        // a TEXTURE barrier or a transition of a texture
  bool layout_change = false;  // the layout before and after differ (textures)
  uint32_t layout_before = 0, layout_after = 0;
  std::vector<uint32_t> resources;  // empty: every resource
  SplitPart split = SplitPart::None;
};
struct Case;
EnhancedBarrier enhanced(const Case& c, const BarrierCmd& b);
SplitPart split_part(const BarrierCmd& b);

// The legacy state tables: the sync scope, the accesses and (textures) the layout each state bit
// stands for, ORed over the bits.
uint32_t state_sync(uint32_t states);
uint32_t state_access(uint32_t states);
uint32_t state_layout(uint32_t states);

// A sync mask with its aggregate scopes (ALL, DRAW, ALL_SHADING, NON_PIXEL_SHADING) expanded into
// the work of the case language they cover: `all` is every preceding/following command.
struct SyncScope {
  bool all = false, vs = false, ps = false, cs = false, color = false, depth = false;
  bool index = false, indirect = false, copy = false;
  bool any() const { return all || vs || ps || cs || color || depth || index || indirect || copy; }
};
SyncScope sync_scope(uint32_t sync);

// The accesses of an ACCESS mask in the case language's terms; COMMON is every access,
// NO_ACCESS none.
struct AccessUse {
  bool vertex = false, cbv = false, index = false, rt = false, uav = false, depth_write = false;
  bool depth_read = false, srv = false, so = false, indirect = false, copy_dst = false;
  bool copy_src = false;
  bool writes() const { return rt || uav || depth_write || so || copy_dst; }
  bool rb() const { return rt || depth_write || depth_read; }
  bool rb_writes() const { return rt || depth_write; }
  bool non_rb_writes() const { return uav || so || copy_dst; }
  bool shader_reads() const { return vertex || cbv || uav || srv; }
  bool non_rb() const {
    return vertex || cbv || index || uav || srv || so || indirect || copy_dst || copy_src;
  }
};
AccessUse access_use(uint32_t access);

// The D3D12 names of a case-language access: its ACCESS bit, the legacy state it needs, the sync
// scope of the stage it happens in. 0 for accesses that are no barrier's concern (shader code,
// host, label words).
uint32_t access_bit(AccessKind k, bool write);
uint32_t required_state(AccessKind k, Stage s, bool write);
uint32_t stage_sync(AccessKind k, Stage s);

// The specification's compatibility tables ("Command Queue Layout/Access/Sync Compatibility",
// "Layout Access Compatibility", "Access Bits Barrier Sync Compatibility"), for the linter. The
// legacy states a queue type accepts are those whose accesses and sync it accepts.
uint32_t queue_syncs(QueueType q);
uint32_t queue_accesses(QueueType q);
uint32_t queue_states(QueueType q);
bool queue_layout(QueueType q, uint32_t layout);
uint32_t layout_accesses(uint32_t layout);  // NO_ACCESS for UNDEFINED
// The access bits of `access` that no bit of `sync` may go with (0: compatible).
uint32_t incompatible_accesses(uint32_t access, uint32_t sync);

// Two barriers say the same (argument columns aside).
bool same_barrier(const BarrierCmd& a, const BarrierCmd& b);

// "Barrier(...)" / "ResourceBarrier(...)" as the case language spells it, short names.
std::string barrier_source(const Case& c, const BarrierCmd& b);

}  // namespace syncproof::model
