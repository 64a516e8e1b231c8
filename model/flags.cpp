// The flag catalogue: every constant the seeds define, with its exact value, and name lookup.
// Values are copied from the seeds' header excerpts by hand (not from flags.h) so that the unit
// tests, the table and the constants in flags.h are three independent transcriptions.
#include "model/flags.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "util/edit_distance.h"

namespace syncproof::model {
namespace {

using F = FlagFamily;
using K = FlagKind;
constexpr std::string_view k000 = "000_3461cea83383a99a.txt";
constexpr std::string_view k001 = "001_d183bf6edb5056d6.txt";
constexpr std::string_view k002 = "002_0f38f14abf452083.txt";
constexpr std::string_view k003 = "003_6a30c1c3257a7cfa.txt";
constexpr std::string_view k001_004 = "001_d183bf6edb5056d6.txt, 004_db47ec1ea30cab7f.txt";
constexpr std::string_view kD3d12 = "d3d12.h (public Windows SDK; Wait32/64BitValueX)";
constexpr std::nullopt_t kNoValue = std::nullopt;

constexpr std::array kFlags = std::to_array<FlagDef>({
    // ---- D3D12XBOX_SYNC_FLAGS (000), header order ----
    {F::Sync, "D3D12XBOX_SYNC_FLAG_NONE", 0x00000000, K::Bit, "No flag.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE", 0x00000001, K::Field,
     "Invalidate shader instruction-cache lines (all lines by default).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_RANGE", 0x00000002, K::Field,
     "Invalidate only the instruction-cache lines inside the given range.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN", 0x00000003, K::Field,
     "Invalidate only the instruction-cache lines at the start and end of the range (FIRST_LAST).",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE", 0x00000080, K::Bit,
     "Invalidate all lines of the shader scalar constant cache.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE", 0x00000100, K::Bit,
     "Invalidate all lines of the shader vector cache (also called GL0/TCP).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE", 0x00000020, K::Bit,
     "Invalidate all lines of the metadata cache (shader access to compressed color/depth).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK", 0x00000010, K::Bit,
     "Write back all lines of the metadata cache.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE", 0x00000100, K::Alias,
     "Same value as VCACHE_INVALIDATE: invalidate all lines of the shader vector cache.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE", 0x00000200, K::Bit,
     "Invalidate lines of the shader level-1 cache (all lines by default).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_RANGE", 0x00000008, K::Field,
     "Invalidate only the level-1 cache lines inside the given range.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_MARGIN", 0x0000000C, K::Field,
     "Invalidate only the level-1 cache lines at the start and end of the range (FIRST_LAST).",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE", 0x00004000, K::Bit,
     "Invalidate lines of the shader level-2 cache (all lines by default).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED", 0x00000400, K::Bit,
     "Invalidate only the level-2 cache lines that hold unshared data.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK", 0x00008000, K::Bit,
     "Write back lines of the shader level-2 cache (all lines by default).", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_VOLATILE", 0x00000800, K::Field,
     "Invalidate and/or write back all level-2 lines marked volatile (range/margin ignored).",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_RANGE", 0x00001000, K::Field,
     "Invalidate and/or write back only the level-2 lines inside the given range.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_MARGIN", 0x00001800, K::Field,
     "Invalidate and/or write back only the level-2 lines at the start and end of the range "
     "(FIRST_LAST).",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_BASE_COHERENCY", 0x01000000, K::Bit,
     "Before flushing, check whether a valid graphics context has writes in flight in the range.",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY", 0x40000000, K::Bit,
     "Before flushing, check for rendering in flight to RenderTarget0-7 inside the range.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY", 0x20000000, K::Bit,
     "Before flushing, check whether the depth buffer or HTILE surface is inside the range.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE", 0x02000000, K::Bit,
     "Flush and invalidate all lines of the color cache.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE", 0x04000000, K::Bit,
     "Flush and invalidate all lines of the depth cache.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH", 0x00040000, K::Bit,
     "Flush the Color Block data.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH", 0x00080000, K::Bit,
     "Flush the Depth Block data.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH", 0x08000000, K::Bit,
     "Flush the Color Block metadata.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH", 0x10000000, K::Bit,
     "Flush the Depth Block metadata.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH", 0x00100000, K::Bit,
     "Wait until every compute shader has finished before the CP processes more commands.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH", 0x00200000, K::Bit,
     "Wait until every vertex shader has finished before the CP processes more commands.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH", 0x00400000, K::Bit,
     "Wait until every pixel shader has finished before the CP processes more commands.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH", 0x00800000, K::Bit,
     "Flush the stream-out caches.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME", 0x00000040, K::Bit,
     "Synchronize the command processor's PFP with its ME.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA", 0x00020000, K::Bit,
     "Wait until every CPDMA transaction has completed before the CP processes more commands.",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_IDLE", 0x80000000, K::Bit,
     "Wait for the GPU to go idle after the bottom-of-pipe flushes, before the top-of-pipe "
     "invalidations.",
     k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_TOP_MASK", sync::kTopMask, K::Mask,
     "Apply every top-of-pipe (TOP) flag.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_BOP_MASK", sync::kBopMask, K::Mask,
     "Apply every bottom-of-pipe (BOP) flag.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK", sync::kTopComputeMask, K::Mask,
     "Apply every compute flag meant for the top of the pipe.", k000},
    {F::Sync, "D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK", sync::kBopComputeMask, K::Mask,
     "Apply every compute flag meant for the bottom of the pipe.", k000},

    // ---- D3D12XBOX_SYNC_CONTROL_FLAGS: named by 001, 004 and 002, no numbers published ----
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_NONE", 0x00000000, K::Bit,
     "No control flag (not named by the seeds; 0 = empty word, as in every D3D12 flag enum).",
     k001},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP", kNoValue, K::Bit,
     "Make the PFP one of the CP parts that block until the top-of-pipe operations finish.", k001},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE", kNoValue, K::Bit,
     "Make the CE one of the CP parts that block until the top-of-pipe operations finish.", k001},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP", kNoValue, K::Bit,
     "Make the PFP take part in the IDLE operation.", k001_004},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE", kNoValue, K::Bit,
     "Make the CE take part in the IDLE operation.", k001_004},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP", kNoValue, K::Bit,
     "SYNC_CPDMA waits for the PFP's own CPDMA queue instead of the ME's.", k001_004},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD", kNoValue, K::Bit,
     "Run the write's cache (GCR) operations in forward sequence (named only, not explained).",
     k002},
    {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE", kNoValue, K::Bit,
     "Run the write's cache (GCR) operations in reverse sequence (named only, not explained).",
     k002},

    // ---- D3D12XBOX_DISPATCH_FLAGS (003) ----
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_NONE", 0x00000000, K::Bit, "No flag.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000", 0x00000004, K::Bit,
     "Ignore COMPUTE_START_X/Y/Z and start the dispatch at 0,0,0.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND", 0x00000008, K::Bit,
     "Enable Ordered Append.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP", 0x00000010,
     K::Bit, "Give one unique wave ID per thread group instead of per wave.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS", 0x00000020, K::Bit,
     "Read the ThreadGroupCount arguments as total thread counts per dimension.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER", 0x00000040, K::Bit,
     "Let the SPI launch CS waves out of order; only on asynchronous (compute) queues.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1", 0x00000080, K::Bit,
     "Disable the volatile vector L1.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1", 0x00000200, K::Bit,
     "Disable the volatile scalar L1.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1", 0x00000400, K::Bit,
     "Invalidate every scalar-L1 line marked volatile.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1", 0x00000800, K::Bit,
     "Invalidate every vector-L1 line marked volatile.", k003},
    {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_W32", 0x00008000, K::Bit,
     "Run wave32 (default wave64); the shader must be compiled with -D__XBOX_ENABLE_WAVE32=1.",
     k003},

    // ---- D3D12XBOX_WRITE_VALUE_BOP_FLAGS (002): only NONE has an evident value ----
    {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE", 0x00000000, K::Bit,
     "Write the Value parameter.", k002},
    {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP", kNoValue, K::Bit,
     "Write the current value of the GPU clock counter.", k002},
    {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP", kNoValue, K::Bit,
     "Write the current value of the system clock counter.", k002},

    // ---- D3D12_COMPARISON_FUNC (public d3d12.h), the comparison of Wait32/64BitValueX ----
    {F::Comparison, "D3D12_COMPARISON_FUNC_NEVER", 1, K::Bit, "Never passes.", kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_LESS", 2, K::Bit, "Passes if memory < value.", kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_EQUAL", 3, K::Bit, "Passes if memory == value.", kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_LESS_EQUAL", 4, K::Bit, "Passes if memory <= value.",
     kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_GREATER", 5, K::Bit, "Passes if memory > value.",
     kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_NOT_EQUAL", 6, K::Bit, "Passes if memory != value.",
     kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_GREATER_EQUAL", 7, K::Bit, "Passes if memory >= value.",
     kD3d12},
    {F::Comparison, "D3D12_COMPARISON_FUNC_ALWAYS", 8, K::Bit, "Always passes.", kD3d12},
});

constexpr std::array kFamilies = {F::Sync, F::SyncControl, F::Dispatch, F::WriteValueBop,
                                  F::Comparison};

// Control flags in ControlFlag enum order.
constexpr std::array<std::string_view, kControlFlagCount> kControlNames = {
    "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP",
    "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE",
    "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP",
    "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE",
    "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP",
    "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD",
    "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE",
};

std::string upper(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

// Distance of a (possibly misspelt, possibly prefixed, any case) name to a catalogue entry: the
// better of "whole name vs full spelling" and "name without any family prefix vs short name".
size_t name_distance(std::string_view query_upper, const FlagDef& d) {
  std::string_view core = query_upper;
  for (FlagFamily f : kFamilies) {
    if (core.starts_with(family_prefix(f))) {
      core.remove_prefix(family_prefix(f).size());
      break;
    }
  }
  std::string_view short_name = d.name.substr(family_prefix(d.family).size());
  return std::min(util::edit_distance(query_upper, d.name), util::edit_distance(core, short_name));
}

std::vector<std::string> suggest(std::optional<FlagFamily> family, std::string_view name,
                                 size_t n) {
  const std::string q = upper(name);
  // A case-insensitive match has distance 0 and always comes first. Otherwise a name must be
  // within a third of its length (at least 2 edits) to be worth suggesting.
  const size_t limit = std::max<size_t>(2, q.size() / 3);
  std::vector<std::pair<size_t, const FlagDef*>> ranked;
  for (const FlagDef& d : kFlags) {
    if (family && d.family != *family) continue;
    size_t dist = name_distance(q, d);
    if (dist <= limit) ranked.emplace_back(dist, &d);
  }
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (const auto& [dist, d] : ranked) {
    if (out.size() == n) break;
    out.emplace_back(d->name);
  }
  return out;
}

}  // namespace

std::string_view family_prefix(FlagFamily f) {
  switch (f) {
    case F::Sync:
      return "D3D12XBOX_SYNC_FLAG_";
    case F::SyncControl:
      return "D3D12XBOX_SYNC_CONTROL_FLAG_";
    case F::Dispatch:
      return "D3D12XBOX_DISPATCH_FLAG_";
    case F::WriteValueBop:
      return "D3D12XBOX_WRITE_VALUE_BOP_FLAG_";
    case F::Comparison:
      return "D3D12_COMPARISON_FUNC_";
  }
  return "";
}

std::string_view family_name(FlagFamily f) {
  switch (f) {
    case F::Sync:
      return "D3D12XBOX_SYNC_FLAGS";
    case F::SyncControl:
      return "D3D12XBOX_SYNC_CONTROL_FLAGS";
    case F::Dispatch:
      return "D3D12XBOX_DISPATCH_FLAGS";
    case F::WriteValueBop:
      return "D3D12XBOX_WRITE_VALUE_BOP_FLAGS";
    case F::Comparison:
      return "D3D12_COMPARISON_FUNC";
  }
  return "";
}

std::span<const FlagDef> all_flags() {
  return kFlags;
}

const FlagDef* find_flag(FlagFamily f, std::string_view name) {
  const std::string_view prefix = family_prefix(f);
  for (const FlagDef& d : kFlags) {
    if (d.family != f) continue;
    if (d.name == name || d.name.substr(prefix.size()) == name) return &d;
  }
  return nullptr;
}

const FlagDef* find_any_flag(std::string_view name) {
  for (FlagFamily f : kFamilies) {
    if (const FlagDef* d = find_flag(f, name)) return d;
  }
  return nullptr;
}

std::vector<std::string> suggest_flags(FlagFamily f, std::string_view name, size_t n) {
  return suggest(f, name, n);
}

std::vector<std::string> suggest_any_flags(std::string_view name, size_t n) {
  return suggest(std::nullopt, name, n);
}

std::optional<ControlFlag> control_flag_from_def(const FlagDef& d) {
  if (d.family != F::SyncControl) return std::nullopt;
  for (int i = 0; i < kControlFlagCount; ++i) {
    if (kControlNames[i] == d.name) return static_cast<ControlFlag>(i);
  }
  return std::nullopt;  // D3D12XBOX_SYNC_CONTROL_FLAG_NONE
}

std::string_view full_name(ControlFlag f) {
  return kControlNames[static_cast<int>(f)];
}

std::optional<WriteValueSource> write_value_source_from_def(const FlagDef& d) {
  if (d.family != F::WriteValueBop) return std::nullopt;
  if (d.name == "D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE") return WriteValueSource::Value;
  if (d.name == "D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP")
    return WriteValueSource::GpuTimestamp;
  if (d.name == "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP")
    return WriteValueSource::SystemTimestamp;
  return std::nullopt;
}

uint32_t known_dispatch_bits() {
  uint32_t bits = 0;
  for (const FlagDef& d : kFlags) {
    if (d.family == F::Dispatch && d.value) bits |= *d.value;
  }
  return bits;
}

}  // namespace syncproof::model
