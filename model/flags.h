#pragma once
// The D3D12XBOX flag catalogue: every constant of the seeds with its exact value, and the
// decoding of a flag word into its fields. Plain data; no semantics beyond the seeds' text.
// Sources: ../shared/seeds/000_3461cea83383a99a.txt (D3D12XBOX_SYNC_FLAGS),
//          002_0f38f14abf452083.txt (write flags, control flags of the BOP writes),
//          001/004 (control flags of SyncTopOfPipeX / SyncBottomOfPipeX),
//          003_6a30c1c3257a7cfa.txt (D3D12XBOX_DISPATCH_FLAGS).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::model {

// Which enumeration a name belongs to.
enum class FlagFamily {
  Sync,           // D3D12XBOX_SYNC_FLAG_*
  SyncControl,    // D3D12XBOX_SYNC_CONTROL_FLAG_*  (no published numeric values)
  Dispatch,       // D3D12XBOX_DISPATCH_FLAG_*
  WriteValueBop,  // D3D12XBOX_WRITE_VALUE_BOP_FLAG_*
  Comparison,     // D3D12_COMPARISON_FUNC_*  (Wait64BitValueX)
};

enum class FlagKind {
  Bit,    // an independent bit (or NONE)
  Field,  // a value of a multi-bit field (ICACHE/GL1/GL2 range selectors)
  Alias,  // another name for a value (GL0_INVALIDATE == VCACHE_INVALIDATE)
  Mask,   // a convenience OR of other flags (TOP_MASK, ...)
};

struct FlagDef {
  FlagFamily family;
  std::string_view name;          // full header spelling, e.g. "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE"
  std::optional<uint32_t> value;  // nullopt: the seeds publish no number (sync control flags)
  FlagKind kind;
  std::string_view meaning;  // one line, English, paraphrasing the seed
  std::string_view source;   // seed file name
};

// Prefix of each family ("D3D12XBOX_SYNC_FLAG_", ...).
std::string_view family_prefix(FlagFamily f);
std::string_view family_name(FlagFamily f);  // "D3D12XBOX_SYNC_FLAGS", ...

// Every catalogued constant, in header order per family.
std::span<const FlagDef> all_flags();

// Look a name up, case-sensitively, with or without its family prefix.
const FlagDef* find_flag(FlagFamily f, std::string_view name);
// Look a name up in every family (first match in family order).
const FlagDef* find_any_flag(std::string_view name);
// Closest valid names (full spelling) for a misspelt one, best first, at most `n`.
std::vector<std::string> suggest_flags(FlagFamily f, std::string_view name, size_t n = 3);
// The same over every family, for a name whose family is not known yet (e.g. `syncproof encode`).
std::vector<std::string> suggest_any_flags(std::string_view name, size_t n = 3);

// D3D12XBOX_FLUSH_RANGE_ALL: named by the seeds (001, 004) for whole-memory syncs, with no
// published number; accepted by name only.
inline constexpr std::string_view kFlushRangeAllName = "D3D12XBOX_FLUSH_RANGE_ALL";

// ---- decoded fields of a D3D12XBOX_SYNC_FLAGS word (bits 0-15 follow the gfx10 GCR_CNTL
// layout, research/semantics.md §1.1-1.3) ----
enum class IcacheSel : uint8_t { None = 0, All = 1, Range = 2, Margin = 3 };        // bits 1:0
enum class Gl1RangeSel : uint8_t { All = 0, Reserved = 1, Range = 2, Margin = 3 };  // bits 3:2
enum class Gl2RangeSel : uint8_t { All = 0, Volatile = 1, Range = 2, Margin = 3 };  // bits 12:11

struct SyncFields {
  IcacheSel icache = IcacheSel::None;
  Gl1RangeSel gl1_range = Gl1RangeSel::All;
  Gl2RangeSel gl2_range = Gl2RangeSel::All;
  bool mcache_wb = false, mcache_inv = false, pfp_sync_me = false, kcache_inv = false;
  bool vcache_inv = false, gl1_inv = false, gl2_inv_unshared = false, gl2_inv = false;
  bool gl2_wb = false, sync_cpdma = false, color_data_flush = false, depth_data_flush = false;
  bool cs_partial = false, vs_partial = false, ps_partial = false, streamout_flush = false;
  bool base_coherency = false, color_inv = false, depth_inv = false, color_meta_flush = false;
  bool depth_meta_flush = false, depth_coherency = false, color_coherency = false, idle = false;
  uint32_t unknown_bits = 0;  // bits no seed constant names (e.g. 0x2000, 0x10000)
};
SyncFields decode_sync(uint32_t value);
uint32_t encode_sync(const SyncFields& f);  // inverse of decode_sync (unknown bits kept)

std::string_view to_string(IcacheSel s);
std::string_view to_string(Gl1RangeSel s);
std::string_view to_string(Gl2RangeSel s);

// The three multi-bit fields of a sync word, for code that walks them generically.
enum class SyncField : uint8_t { Icache, Gl1Range, Gl2Range };
uint32_t field_mask(SyncField f);                 // 0x3, 0xC, 0x1800
uint8_t field_value(SyncField f, uint32_t word);  // 0..3
// Full name of the constant whose value field `f` holds when it is `v`, e.g. (Gl2Range, 3) ->
// "D3D12XBOX_SYNC_FLAG_GL2_MARGIN"; "" when no constant has that value (ICACHE 0, GL1 0 and the
// reserved 1, GL2 0).
std::string_view field_constant_name(SyncField f, uint8_t v);

// One line per flag and field a value contains, full names, fields explained, e.g.
//   "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE"
//   "GL2 range selector = MARGIN (first and last line only) [= D3D12XBOX_SYNC_FLAG_GL2_MARGIN
//    = GL2_VOLATILE | GL2_RANGE]"   (one line; wrapped here)
//   "unknown bits 0x00002000"
std::vector<std::string> describe_sync(uint32_t value);
std::vector<std::string> describe_dispatch(uint32_t value);
std::vector<std::string> describe_write_value_bop(uint32_t value);

// ---- sync control flags (names only; the seeds publish no values) ----
enum class ControlFlag : uint8_t {
  TopSelectEnginePfp,
  TopSelectEngineCe,
  IdleSelectEnginePfp,
  IdleSelectEngineCe,
  CpdmaSelectEnginePfp,
  GcrSequenceForward,
  GcrSequenceReverse,
};
inline constexpr int kControlFlagCount = 7;
struct ControlFlags {
  uint8_t bits = 0;
  bool has(ControlFlag f) const { return bits & (1u << static_cast<int>(f)); }
  void set(ControlFlag f) { bits |= static_cast<uint8_t>(1u << static_cast<int>(f)); }
};
std::optional<ControlFlag> control_flag_from_def(const FlagDef& d);
std::string_view full_name(ControlFlag f);

// ---- D3D12XBOX_DISPATCH_FLAGS ----
namespace dispatch {
inline constexpr uint32_t kNone = 0x0, kForceStartAt000 = 0x4, kEnableOrderedAppend = 0x8,
                          kOrderedAppendWaveIdPerThreadGroup = 0x10, kUseThreadDimensions = 0x20,
                          kEnableOutOfOrder = 0x40, kDisableVolatileVectorL1 = 0x80,
                          kDisableVolatileScalarL1 = 0x200, kInvalidateVolatileScalarL1 = 0x400,
                          kInvalidateVolatileVectorL1 = 0x800, kW32 = 0x8000;
}
uint32_t known_dispatch_bits();

// ---- D3D12XBOX_WRITE_VALUE_BOP_FLAGS (002 names NONE, GPU_TIMESTAMP, SYSTEM_TIMESTAMP; only
// NONE has an evident value, 0: the others are accepted by name only) ----
enum class WriteValueSource : uint8_t { Value, GpuTimestamp, SystemTimestamp };
std::optional<WriteValueSource> write_value_source_from_def(const FlagDef& d);

// ---- sync flag constants (exact seed values) ----
namespace sync {
inline constexpr uint32_t kNone = 0x0, kIcacheInvalidate = 0x1, kIcacheRange = 0x2,
                          kIcacheMargin = 0x3, kGl1Range = 0x8, kGl1Margin = 0xC,
                          kMcacheWriteback = 0x10, kMcacheInvalidate = 0x20, kPfpSyncMe = 0x40,
                          kKcacheInvalidate = 0x80, kVcacheInvalidate = 0x100,
                          kGl0Invalidate = kVcacheInvalidate, kGl1Invalidate = 0x200,
                          kGl2InvalidateUnshared = 0x400, kGl2Volatile = 0x800, kGl2Range = 0x1000,
                          kGl2Margin = 0x1800, kGl2Invalidate = 0x4000, kGl2Writeback = 0x8000,
                          kSyncCpdma = 0x20000, kColorBlockDataFlush = 0x40000,
                          kDepthBlockDataFlush = 0x80000, kCsPartialFlush = 0x100000,
                          kVsPartialFlush = 0x200000, kPsPartialFlush = 0x400000,
                          kStreamoutFlush = 0x800000, kBaseCoherency = 0x1000000,
                          kColorBlockInvalidate = 0x2000000, kDepthBlockInvalidate = 0x4000000,
                          kColorBlockMetaFlush = 0x8000000, kDepthBlockMetaFlush = 0x10000000,
                          kDepthBlockCoherency = 0x20000000, kColorBlockCoherency = 0x40000000,
                          kIdle = 0x80000000;
// The four masks are the ORs the seed lists (000), computed here from their members.
inline constexpr uint32_t kTopMask =
    kIcacheInvalidate | kIcacheRange | kIcacheMargin | kKcacheInvalidate | kVcacheInvalidate |
    kMcacheInvalidate | kMcacheWriteback | kGl1Invalidate | kGl1Range | kGl1Margin |
    kGl2Invalidate | kGl2Writeback | kGl2Volatile | kGl2Margin | kGl2Range |
    kGl2InvalidateUnshared | kBaseCoherency | kColorBlockCoherency | kDepthBlockCoherency |
    kColorBlockInvalidate | kDepthBlockInvalidate | kPfpSyncMe | kIdle;
inline constexpr uint32_t kBopMask =
    kVcacheInvalidate | kMcacheInvalidate | kMcacheWriteback | kGl1Invalidate | kGl2Invalidate |
    kGl2Writeback | kGl2Volatile | kGl2Range | kGl2Margin | kGl2InvalidateUnshared |
    kColorBlockDataFlush | kDepthBlockDataFlush | kColorBlockMetaFlush | kDepthBlockMetaFlush |
    kCsPartialFlush | kVsPartialFlush | kPsPartialFlush | kStreamoutFlush | kIdle;
inline constexpr uint32_t kTopComputeMask =
    kIcacheInvalidate | kIcacheRange | kIcacheMargin | kKcacheInvalidate | kVcacheInvalidate |
    kMcacheInvalidate | kMcacheWriteback | kGl1Invalidate | kGl1Range | kGl1Margin |
    kGl2Invalidate | kGl2Writeback | kGl2Volatile | kGl2Range | kGl2Margin |
    kGl2InvalidateUnshared | kIdle;
inline constexpr uint32_t kBopComputeMask = kVcacheInvalidate | kMcacheInvalidate |
                                            kMcacheWriteback | kGl1Invalidate | kGl2Invalidate |
                                            kGl2Writeback | kGl2Volatile | kGl2Range | kGl2Margin |
                                            kGl2InvalidateUnshared | kCsPartialFlush | kIdle;
// Operations the model gives no effect of their own (SEMANTICS.md §3, §4): M$ is read-only, so
// its write-back moves nothing (PAL: "GLM_WB unimplemented in HW"), and the unshared GL2
// invalidation covers no line of a case's resources. On a sync they can only make the command
// exist, so a fix never adds them (synth/candidates.cpp): where the command's own step is what a
// proof needs, a sync with no flags gives it.
inline constexpr uint32_t kNoEffectInModel = kMcacheWriteback | kGl2InvalidateUnshared;
// Write32/64BitValueBottomOfPipe2X accept exactly these (002).
inline constexpr uint32_t kBopWriteAccepted = kVcacheInvalidate | kMcacheInvalidate |
                                              kMcacheWriteback | kGl1Invalidate | kGl2Invalidate |
                                              kGl2Writeback | kGl2Volatile;
}  // namespace sync

}  // namespace syncproof::model
