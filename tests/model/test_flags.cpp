// The flag catalogue against an independent transcription of the seeds (000, 001, 002, 003, 004),
// and the decoding of sync words into their fields.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "model/flags.h"
#include "tests/line_lists.h"

using namespace syncproof::model;

namespace {

struct Expect {
  FlagFamily family;
  std::string name;  // full header spelling
  std::optional<uint32_t> value;
  FlagKind kind;
};

// Transcribed from the seeds' header excerpts, independently of model/flags.cpp and flags.h.
const std::vector<Expect>& expected() {
  using F = FlagFamily;
  using K = FlagKind;
  static const std::vector<Expect> e = {
      {F::Sync, "D3D12XBOX_SYNC_FLAG_NONE", 0x00000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE", 0x00000001, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_RANGE", 0x00000002, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN", 0x00000003, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE", 0x00000080, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE", 0x00000100, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE", 0x00000020, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK", 0x00000010, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE", 0x00000100, K::Alias},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE", 0x00000200, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_RANGE", 0x00000008, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL1_MARGIN", 0x0000000C, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE", 0x00004000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED", 0x00000400, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK", 0x00008000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_VOLATILE", 0x00000800, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_RANGE", 0x00001000, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_GL2_MARGIN", 0x00001800, K::Field},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_BASE_COHERENCY", 0x01000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY", 0x40000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY", 0x20000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE", 0x02000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE", 0x04000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH", 0x00040000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH", 0x00080000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH", 0x08000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH", 0x10000000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH", 0x00100000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH", 0x00200000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH", 0x00400000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH", 0x00800000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME", 0x00000040, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA", 0x00020000, K::Bit},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_IDLE", 0x80000000, K::Bit},
      // The masks, as the seed's ORs evaluate (checked member by member below as well).
      {F::Sync, "D3D12XBOX_SYNC_FLAG_TOP_MASK", 0xE700DFFF, K::Mask},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_BOP_MASK", 0x98FCDF30, K::Mask},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_TOP_COMPUTE_MASK", 0x8000DFBF, K::Mask},
      {F::Sync, "D3D12XBOX_SYNC_FLAG_BOP_COMPUTE_MASK", 0x8010DF30, K::Mask},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_NONE", 0, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD", std::nullopt, K::Bit},
      {F::SyncControl, "D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE", std::nullopt, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_NONE", 0x00000000, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000", 0x00000004, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND", 0x00000008, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP", 0x00000010,
       K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS", 0x00000020, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER", 0x00000040, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1", 0x00000080, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1", 0x00000200, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1", 0x00000400, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1", 0x00000800, K::Bit},
      {F::Dispatch, "D3D12XBOX_DISPATCH_FLAG_W32", 0x00008000, K::Bit},
      {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE", 0, K::Bit},
      {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP", std::nullopt, K::Bit},
      {F::WriteValueBop, "D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP", std::nullopt, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_NEVER", 1, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_LESS", 2, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_EQUAL", 3, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_LESS_EQUAL", 4, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_GREATER", 5, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_NOT_EQUAL", 6, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_GREATER_EQUAL", 7, K::Bit},
      {F::Comparison, "D3D12_COMPARISON_FUNC_ALWAYS", 8, K::Bit},
  };
  return e;
}

uint32_t expected_sync(const std::string& short_name) {
  for (const Expect& e : expected()) {
    if (e.name == "D3D12XBOX_SYNC_FLAG_" + short_name) return *e.value;
  }
  FAIL("no expected value for ", short_name);
  return 0;
}

// OR of the members a mask lists in seed 000, values from the independent table above.
uint32_t or_of(const std::vector<std::string>& members) {
  uint32_t v = 0;
  for (const auto& m : members) v |= expected_sync(m);
  return v;
}

}  // namespace

TEST_CASE("every catalogued constant has its exact seed value, kind and family") {
  for (const Expect& e : expected()) {
    CAPTURE(e.name);
    const FlagDef* d = find_flag(e.family, e.name);
    REQUIRE(d != nullptr);
    CHECK(d->name == e.name);
    CHECK(d->value == e.value);
    CHECK(d->kind == e.kind);
    CHECK(d->family == e.family);
    CHECK(!d->meaning.empty());
    CHECK(!d->source.empty());
  }
}

TEST_CASE("the catalogue has no entries beyond the seeds and no duplicate names") {
  std::set<std::string> want;
  for (const Expect& e : expected()) want.insert(e.name);
  std::set<std::string> seen;
  for (const FlagDef& d : all_flags()) {
    CAPTURE(d.name);
    CHECK(want.count(std::string(d.name)) == 1);
    CHECK(seen.insert(std::string(d.name)).second);
    CHECK(d.name.starts_with(family_prefix(d.family)));
    if (d.family != FlagFamily::Comparison) CHECK(d.source.find(".txt") != std::string::npos);
  }
  CHECK(seen.size() == want.size());
  CHECK(all_flags().size() == 38 + 8 + 11 + 3 + 8);
}

TEST_CASE("short names are unique across families except NONE") {
  std::map<std::string, int> count;
  for (const FlagDef& d : all_flags())
    ++count[std::string(d.name.substr(family_prefix(d.family).size()))];
  for (const auto& [name, n] : count) {
    const auto& flag_name = name;  // clang 14: no structured binding in a lambda
    CAPTURE(flag_name);
    CHECK(n == (name == "NONE" ? 4 : 1));
  }
}

TEST_CASE("each mask is the OR the seed lists") {
  const uint32_t top = or_of({"ICACHE_INVALIDATE",
                              "ICACHE_RANGE",
                              "ICACHE_MARGIN",
                              "KCACHE_INVALIDATE",
                              "VCACHE_INVALIDATE",
                              "MCACHE_INVALIDATE",
                              "MCACHE_WRITEBACK",
                              "GL1_INVALIDATE",
                              "GL1_RANGE",
                              "GL1_MARGIN",
                              "GL2_INVALIDATE",
                              "GL2_WRITEBACK",
                              "GL2_VOLATILE",
                              "GL2_MARGIN",
                              "GL2_RANGE",
                              "GL2_INVALIDATE_UNSHARED",
                              "BASE_COHERENCY",
                              "COLOR_BLOCK_COHERENCY",
                              "DEPTH_BLOCK_COHERENCY",
                              "COLOR_BLOCK_INVALIDATE",
                              "DEPTH_BLOCK_INVALIDATE",
                              "PFP_SYNC_ME",
                              "IDLE"});
  const uint32_t bop =
      or_of({"VCACHE_INVALIDATE", "MCACHE_INVALIDATE", "MCACHE_WRITEBACK", "GL1_INVALIDATE",
             "GL2_INVALIDATE", "GL2_WRITEBACK", "GL2_VOLATILE", "GL2_RANGE", "GL2_MARGIN",
             "GL2_INVALIDATE_UNSHARED", "COLOR_BLOCK_DATA_FLUSH", "DEPTH_BLOCK_DATA_FLUSH",
             "COLOR_BLOCK_META_FLUSH", "DEPTH_BLOCK_META_FLUSH", "CS_PARTIAL_FLUSH",
             "VS_PARTIAL_FLUSH", "PS_PARTIAL_FLUSH", "STREAMOUT_FLUSH", "IDLE"});
  const uint32_t top_compute =
      or_of({"ICACHE_INVALIDATE", "ICACHE_RANGE", "ICACHE_MARGIN", "KCACHE_INVALIDATE",
             "VCACHE_INVALIDATE", "MCACHE_INVALIDATE", "MCACHE_WRITEBACK", "GL1_INVALIDATE",
             "GL1_RANGE", "GL1_MARGIN", "GL2_INVALIDATE", "GL2_WRITEBACK", "GL2_VOLATILE",
             "GL2_RANGE", "GL2_MARGIN", "GL2_INVALIDATE_UNSHARED", "IDLE"});
  const uint32_t bop_compute =
      or_of({"VCACHE_INVALIDATE", "MCACHE_INVALIDATE", "MCACHE_WRITEBACK", "GL1_INVALIDATE",
             "GL2_INVALIDATE", "GL2_WRITEBACK", "GL2_VOLATILE", "GL2_RANGE", "GL2_MARGIN",
             "GL2_INVALIDATE_UNSHARED", "CS_PARTIAL_FLUSH", "IDLE"});
  CHECK(find_flag(FlagFamily::Sync, "TOP_MASK")->value == top);
  CHECK(find_flag(FlagFamily::Sync, "BOP_MASK")->value == bop);
  CHECK(find_flag(FlagFamily::Sync, "TOP_COMPUTE_MASK")->value == top_compute);
  CHECK(find_flag(FlagFamily::Sync, "BOP_COMPUTE_MASK")->value == bop_compute);
  CHECK(sync::kTopMask == top);
  CHECK(sync::kBopMask == bop);
  CHECK(sync::kTopComputeMask == top_compute);
  CHECK(sync::kBopComputeMask == bop_compute);
  CHECK(sync::kBopWriteAccepted ==
        or_of({"VCACHE_INVALIDATE", "MCACHE_INVALIDATE", "MCACHE_WRITEBACK", "GL1_INVALIDATE",
               "GL2_INVALIDATE", "GL2_WRITEBACK", "GL2_VOLATILE"}));
}

TEST_CASE("the flags.h constants agree with the seed values") {
  const std::vector<std::pair<uint32_t, std::string>> k = {
      {sync::kNone, "NONE"},
      {sync::kIcacheInvalidate, "ICACHE_INVALIDATE"},
      {sync::kIcacheRange, "ICACHE_RANGE"},
      {sync::kIcacheMargin, "ICACHE_MARGIN"},
      {sync::kGl1Range, "GL1_RANGE"},
      {sync::kGl1Margin, "GL1_MARGIN"},
      {sync::kMcacheWriteback, "MCACHE_WRITEBACK"},
      {sync::kMcacheInvalidate, "MCACHE_INVALIDATE"},
      {sync::kPfpSyncMe, "PFP_SYNC_ME"},
      {sync::kKcacheInvalidate, "KCACHE_INVALIDATE"},
      {sync::kVcacheInvalidate, "VCACHE_INVALIDATE"},
      {sync::kGl0Invalidate, "GL0_INVALIDATE"},
      {sync::kGl1Invalidate, "GL1_INVALIDATE"},
      {sync::kGl2InvalidateUnshared, "GL2_INVALIDATE_UNSHARED"},
      {sync::kGl2Volatile, "GL2_VOLATILE"},
      {sync::kGl2Range, "GL2_RANGE"},
      {sync::kGl2Margin, "GL2_MARGIN"},
      {sync::kGl2Invalidate, "GL2_INVALIDATE"},
      {sync::kGl2Writeback, "GL2_WRITEBACK"},
      {sync::kSyncCpdma, "SYNC_CPDMA"},
      {sync::kColorBlockDataFlush, "COLOR_BLOCK_DATA_FLUSH"},
      {sync::kDepthBlockDataFlush, "DEPTH_BLOCK_DATA_FLUSH"},
      {sync::kCsPartialFlush, "CS_PARTIAL_FLUSH"},
      {sync::kVsPartialFlush, "VS_PARTIAL_FLUSH"},
      {sync::kPsPartialFlush, "PS_PARTIAL_FLUSH"},
      {sync::kStreamoutFlush, "STREAMOUT_FLUSH"},
      {sync::kBaseCoherency, "BASE_COHERENCY"},
      {sync::kColorBlockInvalidate, "COLOR_BLOCK_INVALIDATE"},
      {sync::kDepthBlockInvalidate, "DEPTH_BLOCK_INVALIDATE"},
      {sync::kColorBlockMetaFlush, "COLOR_BLOCK_META_FLUSH"},
      {sync::kDepthBlockMetaFlush, "DEPTH_BLOCK_META_FLUSH"},
      {sync::kDepthBlockCoherency, "DEPTH_BLOCK_COHERENCY"},
      {sync::kColorBlockCoherency, "COLOR_BLOCK_COHERENCY"},
      {sync::kIdle, "IDLE"},
  };
  for (const auto& [constant, name] : k) {
    const auto& flag_name = name;  // clang 14: no structured binding in a lambda
    CAPTURE(flag_name);
    CHECK(constant == expected_sync(name));
  }
  CHECK(dispatch::kW32 == 0x8000);
  CHECK(dispatch::kEnableOutOfOrder == 0x40);
  CHECK(known_dispatch_bits() == 0x8EFC);
}

TEST_CASE("find_flag: with or without prefix, case-sensitive, one family") {
  const FlagDef* a = find_flag(FlagFamily::Sync, "GL1_INVALIDATE");
  const FlagDef* b = find_flag(FlagFamily::Sync, "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE");
  REQUIRE(a != nullptr);
  CHECK(a == b);
  CHECK(find_flag(FlagFamily::Sync, "gl1_invalidate") == nullptr);
  CHECK(find_flag(FlagFamily::Sync, "D3D12XBOX_SYNC_FLAG_gl1_INVALIDATE") == nullptr);
  CHECK(find_flag(FlagFamily::Dispatch, "GL1_INVALIDATE") == nullptr);
  CHECK(find_flag(FlagFamily::Sync, "D3D12XBOX_DISPATCH_FLAG_W32") == nullptr);
  CHECK(find_flag(FlagFamily::Sync, "") == nullptr);
  CHECK(find_flag(FlagFamily::Sync, "D3D12XBOX_SYNC_FLAG_") == nullptr);
  CHECK(find_flag(FlagFamily::Comparison, "GREATER_EQUAL")->value == 7u);
  CHECK(find_flag(FlagFamily::SyncControl, "GCR_SEQUENCE_REVERSE")->value == std::nullopt);
}

TEST_CASE("find_any_flag searches every family in order") {
  CHECK(find_any_flag("NONE")->family == FlagFamily::Sync);
  CHECK(find_any_flag("W32")->name == "D3D12XBOX_DISPATCH_FLAG_W32");
  CHECK(find_any_flag("D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE")->family == FlagFamily::WriteValueBop);
  CHECK(find_any_flag("IDLE_SELECT_ENGINE_CE")->family == FlagFamily::SyncControl);
  CHECK(find_any_flag("LESS_EQUAL")->value == 4u);
  CHECK(find_any_flag("NOPE") == nullptr);
}

TEST_CASE("suggest_flags proposes full names of close spellings") {
  auto s = suggest_flags(FlagFamily::Sync, "GL1_INVALIDTE");
  REQUIRE(!s.empty());
  CHECK(s[0] == "D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE");
  CHECK(s.size() <= 3);
  CHECK(suggest_flags(FlagFamily::Sync, "gl2_writeback").at(0) ==
        "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK");
  CHECK(suggest_flags(FlagFamily::Sync, "D3D12XBOX_SYNC_FLAG_GL2_WRITEBAKC").at(0) ==
        "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK");
  CHECK(suggest_flags(FlagFamily::Sync, "D3D12XBOX_SYNCFLAG_IDLE").at(0) ==
        "D3D12XBOX_SYNC_FLAG_IDLE");
  CHECK(suggest_flags(FlagFamily::Sync, "TOTALLY_UNRELATED_WORDS").empty());
  CHECK(suggest_flags(FlagFamily::Sync, "GL2_INVALIDATE_X", 1).size() == 1);
  CHECK(suggest_flags(FlagFamily::Dispatch, "GL1_INVALIDTE").empty());
  CHECK(suggest_any_flags("D3D12XBOX_SYNC_FLAG_W32").at(0) == "D3D12XBOX_DISPATCH_FLAG_W32");
  CHECK(suggest_any_flags("greater_equal").at(0) == "D3D12_COMPARISON_FUNC_GREATER_EQUAL");
}

TEST_CASE("decode_sync: every value of the three 2-bit fields") {
  CHECK(decode_sync(0x0).icache == IcacheSel::None);
  CHECK(decode_sync(0x1).icache == IcacheSel::All);
  CHECK(decode_sync(0x2).icache == IcacheSel::Range);
  CHECK(decode_sync(0x3).icache == IcacheSel::Margin);
  CHECK(decode_sync(0x0).gl1_range == Gl1RangeSel::All);
  CHECK(decode_sync(0x4).gl1_range == Gl1RangeSel::Reserved);
  CHECK(decode_sync(0x8).gl1_range == Gl1RangeSel::Range);
  CHECK(decode_sync(0xC).gl1_range == Gl1RangeSel::Margin);
  CHECK(decode_sync(0x0).gl2_range == Gl2RangeSel::All);
  CHECK(decode_sync(0x800).gl2_range == Gl2RangeSel::Volatile);
  CHECK(decode_sync(0x1000).gl2_range == Gl2RangeSel::Range);
  CHECK(decode_sync(0x1800).gl2_range == Gl2RangeSel::Margin);
  // Fields do not leak into each other or into the bits.
  const SyncFields f = decode_sync(0x180F);
  CHECK(f.icache == IcacheSel::Margin);
  CHECK(f.gl1_range == Gl1RangeSel::Margin);
  CHECK(f.gl2_range == Gl2RangeSel::Margin);
  CHECK(encode_sync(f) == 0x180F);
  CHECK(encode_sync(SyncFields{}) == 0);
  CHECK(to_string(IcacheSel::Margin) == "MARGIN");
  CHECK(to_string(Gl1RangeSel::Reserved) == "RESERVED");
  CHECK(to_string(Gl2RangeSel::Volatile) == "VOLATILE");
  CHECK(to_string(IcacheSel::None) == "NONE");
}

TEST_CASE("OR-ing two field constants selects a third value (aliases)") {
  CHECK(decode_sync(expected_sync("ICACHE_INVALIDATE") | expected_sync("ICACHE_RANGE")).icache ==
        IcacheSel::Margin);
  CHECK(decode_sync(expected_sync("GL2_VOLATILE") | expected_sync("GL2_RANGE")).gl2_range ==
        Gl2RangeSel::Margin);
  CHECK(decode_sync(expected_sync("GL0_INVALIDATE")).vcache_inv);
  // Every mask selects MARGIN in the fields it covers.
  CHECK(decode_sync(sync::kTopMask).icache == IcacheSel::Margin);
  CHECK(decode_sync(sync::kTopMask).gl1_range == Gl1RangeSel::Margin);
  CHECK(decode_sync(sync::kTopMask).gl2_range == Gl2RangeSel::Margin);
  CHECK(decode_sync(sync::kBopMask).gl2_range == Gl2RangeSel::Margin);
  CHECK(decode_sync(sync::kBopMask).icache == IcacheSel::None);
}

TEST_CASE("decode_sync: each independent bit sets exactly its own member") {
  const std::vector<std::pair<std::string, bool SyncFields::*>> bits = {
      {"MCACHE_WRITEBACK", &SyncFields::mcache_wb},
      {"MCACHE_INVALIDATE", &SyncFields::mcache_inv},
      {"PFP_SYNC_ME", &SyncFields::pfp_sync_me},
      {"KCACHE_INVALIDATE", &SyncFields::kcache_inv},
      {"VCACHE_INVALIDATE", &SyncFields::vcache_inv},
      {"GL1_INVALIDATE", &SyncFields::gl1_inv},
      {"GL2_INVALIDATE_UNSHARED", &SyncFields::gl2_inv_unshared},
      {"GL2_INVALIDATE", &SyncFields::gl2_inv},
      {"GL2_WRITEBACK", &SyncFields::gl2_wb},
      {"SYNC_CPDMA", &SyncFields::sync_cpdma},
      {"COLOR_BLOCK_DATA_FLUSH", &SyncFields::color_data_flush},
      {"DEPTH_BLOCK_DATA_FLUSH", &SyncFields::depth_data_flush},
      {"CS_PARTIAL_FLUSH", &SyncFields::cs_partial},
      {"VS_PARTIAL_FLUSH", &SyncFields::vs_partial},
      {"PS_PARTIAL_FLUSH", &SyncFields::ps_partial},
      {"STREAMOUT_FLUSH", &SyncFields::streamout_flush},
      {"BASE_COHERENCY", &SyncFields::base_coherency},
      {"COLOR_BLOCK_INVALIDATE", &SyncFields::color_inv},
      {"DEPTH_BLOCK_INVALIDATE", &SyncFields::depth_inv},
      {"COLOR_BLOCK_META_FLUSH", &SyncFields::color_meta_flush},
      {"DEPTH_BLOCK_META_FLUSH", &SyncFields::depth_meta_flush},
      {"DEPTH_BLOCK_COHERENCY", &SyncFields::depth_coherency},
      {"COLOR_BLOCK_COHERENCY", &SyncFields::color_coherency},
      {"IDLE", &SyncFields::idle},
  };
  for (const auto& [name, member] : bits) {
    const auto& flag_name = name;  // clang 14: no structured binding in a lambda
    CAPTURE(flag_name);
    const uint32_t v = expected_sync(name);
    const SyncFields f = decode_sync(v);
    for (const auto& [other, m] : bits) CHECK(f.*m == (m == member));
    CHECK(f.icache == IcacheSel::None);
    CHECK(f.gl1_range == Gl1RangeSel::All);
    CHECK(f.gl2_range == Gl2RangeSel::All);
    CHECK(f.unknown_bits == 0);
    CHECK(encode_sync(f) == v);
  }
}

TEST_CASE("decode_sync collects the bits no constant names") {
  CHECK(decode_sync(0x2000).unknown_bits == 0x2000);
  CHECK(decode_sync(0x10000).unknown_bits == 0x10000);
  CHECK(decode_sync(0xFFFFFFFF).unknown_bits == 0x12000);
  CHECK(decode_sync(0x6000).unknown_bits == 0x2000);
  CHECK(encode_sync(decode_sync(0xFFFFFFFF)) == 0xFFFFFFFF);
  for (uint32_t v : {0x0u, 0x12345678u, 0xDEADBEEFu, 0x80000001u, 0x7FFFFFFFu})
    CHECK(encode_sync(decode_sync(v)) == v);
}

TEST_CASE("field helpers") {
  CHECK(field_mask(SyncField::Icache) == 0x3);
  CHECK(field_mask(SyncField::Gl1Range) == 0xC);
  CHECK(field_mask(SyncField::Gl2Range) == 0x1800);
  CHECK(field_value(SyncField::Gl2Range, 0x1000) == 2);
  CHECK(field_constant_name(SyncField::Icache, 1) == "D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE");
  CHECK(field_constant_name(SyncField::Icache, 3) == "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN");
  CHECK(field_constant_name(SyncField::Gl1Range, 1) == "");
  CHECK(field_constant_name(SyncField::Gl1Range, 2) == "D3D12XBOX_SYNC_FLAG_GL1_RANGE");
  CHECK(field_constant_name(SyncField::Gl2Range, 1) == "D3D12XBOX_SYNC_FLAG_GL2_VOLATILE");
  CHECK(field_constant_name(SyncField::Gl2Range, 0) == "");
}

TEST_CASE("describe_sync: one line per flag and field, full names") {
  using V = std::vector<std::string>;
  CHECK(describe_sync(0) == V{"D3D12XBOX_SYNC_FLAG_NONE"});
  CHECK(describe_sync(0x3) ==
        V{"instruction-cache selector = MARGIN (first and last line only) [= "
          "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN; note: ICACHE_INVALIDATE | ICACHE_RANGE is this same "
          "value]"});
  CHECK(
      describe_sync(0x1) ==
      V{"instruction-cache selector = ALL (every line) [= D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE]"});
  CHECK(describe_sync(0x2) == V{"instruction-cache selector = RANGE (only lines inside the range) "
                                "[= D3D12XBOX_SYNC_FLAG_ICACHE_RANGE]"});
  CHECK(describe_sync(0x4) == V{"GL1 range selector = RESERVED (value 1, not a valid selector)"});
  CHECK(describe_sync(0x208) == V{"D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE",
                                  "GL1 range selector = RANGE (only lines inside the range) [= "
                                  "D3D12XBOX_SYNC_FLAG_GL1_RANGE]"});
  CHECK(describe_sync(0xC) == V{"GL1 range selector = MARGIN (first and last line only) [= "
                                "D3D12XBOX_SYNC_FLAG_GL1_MARGIN]"});
  CHECK(describe_sync(0x5800) == V{"D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE",
                                   "GL2 range selector = MARGIN (first and last line only) [= "
                                   "D3D12XBOX_SYNC_FLAG_GL2_MARGIN = GL2_VOLATILE | GL2_RANGE]"});
  CHECK(describe_sync(0x800) == V{"GL2 range selector = VOLATILE (only lines marked volatile; "
                                  "range ignored) [= D3D12XBOX_SYNC_FLAG_GL2_VOLATILE]"});
  CHECK(describe_sync(0x1000) == V{"GL2 range selector = RANGE (only lines inside the range) [= "
                                   "D3D12XBOX_SYNC_FLAG_GL2_RANGE]"});
  CHECK(describe_sync(0x100) ==
        V{"D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE (alias D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE)"});
  CHECK(describe_sync(0x80122000) == V{"D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH",
                                       "D3D12XBOX_SYNC_FLAG_SYNC_CPDMA", "D3D12XBOX_SYNC_FLAG_IDLE",
                                       "unknown bits 0x00002000"});
  CHECK(describe_sync(0x10000) == V{"unknown bits 0x00010000"});
  // TOP_MASK: 3 field lines (all MARGIN) + its 15 independent bits.
  const auto top = describe_sync(sync::kTopMask);
  CHECK(top.size() == 3 + 15);
  CHECK(top.front().starts_with("instruction-cache selector = MARGIN"));
  CHECK(top.back() == "D3D12XBOX_SYNC_FLAG_IDLE");
}

TEST_CASE("describe_dispatch and describe_write_value_bop") {
  using V = std::vector<std::string>;
  CHECK(describe_dispatch(0) == V{"D3D12XBOX_DISPATCH_FLAG_NONE"});
  CHECK(describe_dispatch(0x8040) ==
        V{"D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER", "D3D12XBOX_DISPATCH_FLAG_W32"});
  CHECK(describe_dispatch(0x8003) == V{"D3D12XBOX_DISPATCH_FLAG_W32", "unknown bits 0x00000003"});
  CHECK(describe_dispatch(0x100) == V{"unknown bits 0x00000100"});
  CHECK(describe_write_value_bop(0) == V{"D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE"});
  CHECK(describe_write_value_bop(1) == V{"unknown bits 0x00000001"});
}

TEST_CASE("control flags and write-value sources map to and from their names") {
  const std::vector<std::pair<std::string, ControlFlag>> control = {
      {"TOP_SELECT_ENGINE_PFP", ControlFlag::TopSelectEnginePfp},
      {"TOP_SELECT_ENGINE_CE", ControlFlag::TopSelectEngineCe},
      {"IDLE_SELECT_ENGINE_PFP", ControlFlag::IdleSelectEnginePfp},
      {"IDLE_SELECT_ENGINE_CE", ControlFlag::IdleSelectEngineCe},
      {"CPDMA_SELECT_ENGINE_PFP", ControlFlag::CpdmaSelectEnginePfp},
      {"GCR_SEQUENCE_FORWARD", ControlFlag::GcrSequenceForward},
      {"GCR_SEQUENCE_REVERSE", ControlFlag::GcrSequenceReverse},
  };
  REQUIRE(control.size() == kControlFlagCount);
  for (const auto& [name, flag] : control) {
    const auto& flag_name = name;  // clang 14: no structured binding in a lambda
    CAPTURE(flag_name);
    const FlagDef* d = find_flag(FlagFamily::SyncControl, name);
    REQUIRE(d != nullptr);
    CHECK(control_flag_from_def(*d) == flag);
    CHECK(full_name(flag) == "D3D12XBOX_SYNC_CONTROL_FLAG_" + name);
  }
  CHECK(control_flag_from_def(*find_flag(FlagFamily::SyncControl, "NONE")) == std::nullopt);
  CHECK(control_flag_from_def(*find_flag(FlagFamily::Sync, "IDLE")) == std::nullopt);
  ControlFlags cf;
  cf.set(ControlFlag::GcrSequenceReverse);
  CHECK(cf.has(ControlFlag::GcrSequenceReverse));
  CHECK(!cf.has(ControlFlag::GcrSequenceForward));

  CHECK(write_value_source_from_def(*find_flag(FlagFamily::WriteValueBop, "NONE")) ==
        WriteValueSource::Value);
  CHECK(write_value_source_from_def(*find_flag(FlagFamily::WriteValueBop, "GPU_TIMESTAMP")) ==
        WriteValueSource::GpuTimestamp);
  CHECK(write_value_source_from_def(*find_flag(FlagFamily::WriteValueBop, "SYSTEM_TIMESTAMP")) ==
        WriteValueSource::SystemTimestamp);
  CHECK(write_value_source_from_def(*find_flag(FlagFamily::Sync, "NONE")) == std::nullopt);
}

TEST_CASE("family prefixes and names") {
  CHECK(family_prefix(FlagFamily::Sync) == "D3D12XBOX_SYNC_FLAG_");
  CHECK(family_prefix(FlagFamily::SyncControl) == "D3D12XBOX_SYNC_CONTROL_FLAG_");
  CHECK(family_prefix(FlagFamily::Dispatch) == "D3D12XBOX_DISPATCH_FLAG_");
  CHECK(family_prefix(FlagFamily::WriteValueBop) == "D3D12XBOX_WRITE_VALUE_BOP_FLAG_");
  CHECK(family_prefix(FlagFamily::Comparison) == "D3D12_COMPARISON_FUNC_");
  CHECK(family_name(FlagFamily::Sync) == "D3D12XBOX_SYNC_FLAGS");
  CHECK(family_name(FlagFamily::SyncControl) == "D3D12XBOX_SYNC_CONTROL_FLAGS");
  CHECK(family_name(FlagFamily::Dispatch) == "D3D12XBOX_DISPATCH_FLAGS");
  CHECK(family_name(FlagFamily::WriteValueBop) == "D3D12XBOX_WRITE_VALUE_BOP_FLAGS");
  CHECK(family_name(FlagFamily::Comparison) == "D3D12_COMPARISON_FUNC");
}
