// The d3d12.h barrier enumerations, read from the public header itself: the names come from
// cmake/D3D12Names.cmake (generated d3d12_names.inc), the values from the compiler. This is the
// only file that includes <directx/d3d12.h> (with the WSL stubs it needs on Linux); it is kept
// out of the unity build so that the header's Windows definitions reach no other source.
#include <wsl/winadapter.h>
//
#include <directx/d3d12.h>
//
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>

#include "model/d3d12.h"
#include "util/edit_distance.h"

namespace syncproof::model::d3d12 {
namespace {

constexpr Name kNames[] = {
#define SYNCPROOF_D3D12_NAME(family, name) {Family::family, #name, static_cast<uint32_t>(name)},
#include "d3d12_names.inc"
#undef SYNCPROOF_D3D12_NAME
};

constexpr std::string_view kPrefixes[] = {
    "D3D12_RESOURCE_STATE_", "D3D12_RESOURCE_BARRIER_TYPE_", "D3D12_RESOURCE_BARRIER_FLAG_",
    "D3D12_BARRIER_TYPE_",   "D3D12_BARRIER_SYNC_",          "D3D12_BARRIER_ACCESS_",
    "D3D12_BARRIER_LAYOUT_", "D3D12_TEXTURE_BARRIER_FLAG_",
};
constexpr std::string_view kTypes[] = {
    "D3D12_RESOURCE_STATES", "D3D12_RESOURCE_BARRIER_TYPE", "D3D12_RESOURCE_BARRIER_FLAGS",
    "D3D12_BARRIER_TYPE",    "D3D12_BARRIER_SYNC",          "D3D12_BARRIER_ACCESS",
    "D3D12_BARRIER_LAYOUT",  "D3D12_TEXTURE_BARRIER_FLAGS",
};

// Spellings that differ between header versions and the specification (short names).
struct Alias {
  Family family;
  std::string_view a, b;
};
constexpr Alias kAliases[] = {{Family::BarrierSync, "INDEX_INPUT", "INPUT_ASSEMBLER"}};

constexpr std::string_view short_of(const Name& n) {
  return n.name.substr(kPrefixes[static_cast<int>(n.family)].size());
}

constexpr uint32_t kMissing = 0xDEADBEEF;

constexpr uint32_t lookup(Family f, std::string_view s) {
  for (const Name& n : kNames)
    if (n.family == f && short_of(n) == s) return n.value;
  for (const Alias& a : kAliases)
    if (a.family == f && (a.a == s || a.b == s))
      for (const Name& n : kNames)
        if (n.family == f && (short_of(n) == a.a || short_of(n) == a.b)) return n.value;
  return kMissing;
}

// A constant the model's rules need: a header without it fails to build here, not at run time.
constexpr uint32_t must(Family f, std::string_view s) {
  const uint32_t v = lookup(f, s);
  return v == kMissing ? throw "a d3d12.h constant the model needs is missing" : v;
}

constexpr uint32_t all_of(Family f, std::string_view stem) {
  uint32_t v = 0;
  for (const Name& n : kNames)
    if (n.family == f && short_of(n).substr(0, stem.size()) == stem) v |= n.value;
  return v;
}

constexpr StateBits make_state() {
  using F = Family;
  constexpr F s = F::ResourceState;
  return {must(s, "COMMON"),
          must(s, "VERTEX_AND_CONSTANT_BUFFER"),
          must(s, "INDEX_BUFFER"),
          must(s, "RENDER_TARGET"),
          must(s, "UNORDERED_ACCESS"),
          must(s, "DEPTH_WRITE"),
          must(s, "DEPTH_READ"),
          must(s, "NON_PIXEL_SHADER_RESOURCE"),
          must(s, "PIXEL_SHADER_RESOURCE"),
          must(s, "STREAM_OUT"),
          must(s, "INDIRECT_ARGUMENT"),
          must(s, "COPY_DEST"),
          must(s, "COPY_SOURCE"),
          must(s, "RESOLVE_DEST"),
          must(s, "RESOLVE_SOURCE"),
          must(s, "RAYTRACING_ACCELERATION_STRUCTURE"),
          must(s, "SHADING_RATE_SOURCE"),
          must(s, "GENERIC_READ"),
          all_of(s, "VIDEO_")};
}

constexpr SyncBits make_sync() {
  constexpr Family s = Family::BarrierSync;
  return {must(s, "NONE"),
          must(s, "ALL"),
          must(s, "DRAW"),
          must(s, "INDEX_INPUT"),
          must(s, "VERTEX_SHADING"),
          must(s, "PIXEL_SHADING"),
          must(s, "DEPTH_STENCIL"),
          must(s, "RENDER_TARGET"),
          must(s, "COMPUTE_SHADING"),
          must(s, "RAYTRACING"),
          must(s, "COPY"),
          must(s, "RESOLVE"),
          must(s, "EXECUTE_INDIRECT"),
          must(s, "ALL_SHADING"),
          must(s, "NON_PIXEL_SHADING"),
          must(s, "EMIT_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO"),
          must(s, "CLEAR_UNORDERED_ACCESS_VIEW"),
          all_of(s, "VIDEO_"),
          must(s, "BUILD_RAYTRACING_ACCELERATION_STRUCTURE"),
          must(s, "COPY_RAYTRACING_ACCELERATION_STRUCTURE"),
          must(s, "SPLIT")};
}

constexpr AccessBits make_access() {
  constexpr Family a = Family::BarrierAccess;
  return {must(a, "COMMON"),
          must(a, "VERTEX_BUFFER"),
          must(a, "CONSTANT_BUFFER"),
          must(a, "INDEX_BUFFER"),
          must(a, "RENDER_TARGET"),
          must(a, "UNORDERED_ACCESS"),
          must(a, "DEPTH_STENCIL_WRITE"),
          must(a, "DEPTH_STENCIL_READ"),
          must(a, "SHADER_RESOURCE"),
          must(a, "STREAM_OUTPUT"),
          must(a, "INDIRECT_ARGUMENT"),
          must(a, "COPY_DEST"),
          must(a, "COPY_SOURCE"),
          must(a, "RESOLVE_DEST"),
          must(a, "RESOLVE_SOURCE"),
          must(a, "RAYTRACING_ACCELERATION_STRUCTURE_READ"),
          must(a, "RAYTRACING_ACCELERATION_STRUCTURE_WRITE"),
          must(a, "SHADING_RATE_SOURCE"),
          all_of(a, "VIDEO_"),
          must(a, "NO_ACCESS")};
}

constexpr LayoutValues make_layout() {
  constexpr Family l = Family::BarrierLayout;
  return {must(l, "UNDEFINED"),
          must(l, "COMMON"),
          must(l, "PRESENT"),
          must(l, "GENERIC_READ"),
          must(l, "RENDER_TARGET"),
          must(l, "UNORDERED_ACCESS"),
          must(l, "DEPTH_STENCIL_WRITE"),
          must(l, "DEPTH_STENCIL_READ"),
          must(l, "SHADER_RESOURCE"),
          must(l, "COPY_SOURCE"),
          must(l, "COPY_DEST"),
          must(l, "RESOLVE_SOURCE"),
          must(l, "RESOLVE_DEST"),
          must(l, "SHADING_RATE_SOURCE"),
          must(l, "DIRECT_QUEUE_COMMON"),
          must(l, "DIRECT_QUEUE_GENERIC_READ"),
          must(l, "DIRECT_QUEUE_UNORDERED_ACCESS"),
          must(l, "DIRECT_QUEUE_SHADER_RESOURCE"),
          must(l, "DIRECT_QUEUE_COPY_SOURCE"),
          must(l, "DIRECT_QUEUE_COPY_DEST"),
          must(l, "COMPUTE_QUEUE_COMMON"),
          must(l, "COMPUTE_QUEUE_GENERIC_READ"),
          must(l, "COMPUTE_QUEUE_UNORDERED_ACCESS"),
          must(l, "COMPUTE_QUEUE_SHADER_RESOURCE"),
          must(l, "COMPUTE_QUEUE_COPY_SOURCE"),
          must(l, "COMPUTE_QUEUE_COPY_DEST")};
}

std::string fmt_hex(uint32_t v) {
  return fmt::format("0x{:X}", v);
}

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return u;
}

}  // namespace

constinit const StateBits kState = make_state();
constinit const SyncBits kSync = make_sync();
constinit const AccessBits kAccess = make_access();
constinit const LayoutValues kLayout = make_layout();
constinit const FlagBits kFlag = {must(Family::ResourceBarrierFlag, "BEGIN_ONLY"),
                                  must(Family::ResourceBarrierFlag, "END_ONLY"),
                                  must(Family::TextureBarrierFlag, "DISCARD")};

std::span<const Name> names() {
  return kNames;
}

std::string_view prefix(Family f) {
  return kPrefixes[static_cast<int>(f)];
}

std::string_view type_name(Family f) {
  return kTypes[static_cast<int>(f)];
}

bool is_mask(Family f) {
  switch (f) {
    case Family::ResourceState:
    case Family::ResourceBarrierFlag:
    case Family::BarrierSync:
    case Family::BarrierAccess:
    case Family::TextureBarrierFlag:
      return true;
    default:
      return false;
  }
}

bool video_layout(uint32_t layout) {
  for (const Name& n : kNames)
    if (n.family == Family::BarrierLayout && n.value == layout &&
        short_of(n).substr(0, 6) == "VIDEO_")
      return true;
  return false;
}

const Name* find(Family f, std::string_view name) {
  const std::string_view p = prefix(f);
  const std::string_view s =
      name.substr(0, p.size()) == p && name.size() > p.size() ? name.substr(p.size()) : name;
  for (const Name& n : kNames)
    if (n.family == f && short_of(n) == s) return &n;
  for (const Alias& a : kAliases) {
    if (a.family != f || (a.a != s && a.b != s)) continue;
    for (const Name& n : kNames)
      if (n.family == f && (short_of(n) == a.a || short_of(n) == a.b)) return &n;
  }
  return nullptr;
}

const Name* find_any(std::string_view name) {
  for (int f = 0; f <= static_cast<int>(Family::TextureBarrierFlag); ++f)
    if (const Name* n = find(static_cast<Family>(f), name)) return n;
  return nullptr;
}

std::vector<std::string> suggest(Family f, std::string_view name, size_t n) {
  const std::string q = upper(name);
  const size_t limit = std::max<size_t>(2, q.size() / 3);
  std::vector<std::pair<size_t, const Name*>> ranked;
  for (const Name& x : kNames) {
    if (x.family != f) continue;
    const size_t d = std::min(util::edit_distance(q, x.name), util::edit_distance(q, short_of(x)));
    if (d <= limit) ranked.emplace_back(d, &x);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [d, x] : ranked) {
    if (out.size() == n) break;
    if (std::find(out.begin(), out.end(), x->name) == out.end()) out.emplace_back(x->name);
  }
  return out;
}

std::string_view short_name(Family f, uint32_t value) {
  for (const Name& n : kNames)
    if (n.family == f && n.value == value) return short_of(n);
  return "";
}

std::string describe(Family f, uint32_t value, bool full_names) {
  auto name = [&](const Name& n) { return std::string(full_names ? n.name : short_of(n)); };
  if (!is_mask(f) || value == 0) {
    for (const Name& n : kNames)
      if (n.family == f && n.value == value) return name(n);
    return fmt_hex(value);
  }
  // Largest constants first, so that combinations the header names (GENERIC_READ) are used.
  std::vector<const Name*> bits;
  for (const Name& n : kNames)
    if (n.family == f && n.value != 0 && (n.value & value) == n.value) bits.push_back(&n);
  std::stable_sort(bits.begin(), bits.end(), [](const Name* a, const Name* b) {
    return std::popcount(a->value) > std::popcount(b->value);
  });
  std::string out;
  uint32_t left = value;
  for (const Name* n : bits) {
    if ((left & n->value) != n->value) continue;
    left &= ~n->value;
    out += (out.empty() ? "" : " | ") + name(*n);
  }
  if (left) out += (out.empty() ? "" : " | ") + fmt_hex(left);
  return out;
}

}  // namespace syncproof::model::d3d12
