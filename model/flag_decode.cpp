// Decoding of flag words. Bits 0-15 of a sync word follow the gfx10 ACQUIRE_MEM GCR_CNTL layout
// (research/semantics.md §1.1-1.3): three 2-bit *enum* fields (I$ bits 1:0, GL1 range bits 3:2,
// GL2 range bits 12:11) and independent bits. A field value of 3 is its own mode (MARGIN /
// FIRST_LAST), not "INVALIDATE + RANGE", so OR-ing two field constants silently selects a third.
#include <array>
#include <utility>

#include <fmt/format.h>

#include "model/flags.h"

namespace syncproof::model {
namespace {

using namespace sync;

// The independent bits of a sync word and where decode_sync stores them.
constexpr std::array<std::pair<bool SyncFields::*, uint32_t>, 24> kBits = {{
    {&SyncFields::mcache_wb, kMcacheWriteback},
    {&SyncFields::mcache_inv, kMcacheInvalidate},
    {&SyncFields::pfp_sync_me, kPfpSyncMe},
    {&SyncFields::kcache_inv, kKcacheInvalidate},
    {&SyncFields::vcache_inv, kVcacheInvalidate},
    {&SyncFields::gl1_inv, kGl1Invalidate},
    {&SyncFields::gl2_inv_unshared, kGl2InvalidateUnshared},
    {&SyncFields::gl2_inv, kGl2Invalidate},
    {&SyncFields::gl2_wb, kGl2Writeback},
    {&SyncFields::sync_cpdma, kSyncCpdma},
    {&SyncFields::color_data_flush, kColorBlockDataFlush},
    {&SyncFields::depth_data_flush, kDepthBlockDataFlush},
    {&SyncFields::cs_partial, kCsPartialFlush},
    {&SyncFields::vs_partial, kVsPartialFlush},
    {&SyncFields::ps_partial, kPsPartialFlush},
    {&SyncFields::streamout_flush, kStreamoutFlush},
    {&SyncFields::base_coherency, kBaseCoherency},
    {&SyncFields::color_inv, kColorBlockInvalidate},
    {&SyncFields::depth_inv, kDepthBlockInvalidate},
    {&SyncFields::color_meta_flush, kColorBlockMetaFlush},
    {&SyncFields::depth_meta_flush, kDepthBlockMetaFlush},
    {&SyncFields::depth_coherency, kDepthBlockCoherency},
    {&SyncFields::color_coherency, kColorBlockCoherency},
    {&SyncFields::idle, kIdle},
}};

constexpr uint32_t kFieldBits = 0x3 | 0xC | 0x1800;

constexpr uint32_t known_sync_bits() {
  uint32_t bits = kFieldBits;
  for (const auto& [member, bit] : kBits) bits |= bit;
  return bits;
}

constexpr unsigned field_shift(SyncField f) {
  switch (f) {
    case SyncField::Icache:
      return 0;
    case SyncField::Gl1Range:
      return 2;
    case SyncField::Gl2Range:
      return 11;
  }
  return 0;
}

std::optional<SyncField> field_of(const FlagDef& d) {
  if (d.kind != FlagKind::Field || !d.value) return std::nullopt;
  for (SyncField f : {SyncField::Icache, SyncField::Gl1Range, SyncField::Gl2Range}) {
    if (*d.value & field_mask(f)) return f;
  }
  return std::nullopt;
}

// The explained line for a field value, "" when the value needs no line (the defaults).
std::string describe_field(SyncField f, uint8_t v) {
  static constexpr std::string_view kRange = "RANGE (only lines inside the range)";
  static constexpr std::string_view kMargin = "MARGIN (first and last line only)";
  const std::string_view name = field_constant_name(f, v);
  switch (f) {
    case SyncField::Icache:
      if (v == 1) return fmt::format("instruction-cache selector = ALL (every line) [= {}]", name);
      if (v == 2) return fmt::format("instruction-cache selector = {} [= {}]", kRange, name);
      if (v == 3)
        return fmt::format(
            "instruction-cache selector = {} [= {}; note: ICACHE_INVALIDATE | ICACHE_RANGE is "
            "this same value]",
            kMargin, name);
      return "";
    case SyncField::Gl1Range:
      if (v == 1) return "GL1 range selector = RESERVED (value 1, not a valid selector)";
      if (v == 2) return fmt::format("GL1 range selector = {} [= {}]", kRange, name);
      if (v == 3) return fmt::format("GL1 range selector = {} [= {}]", kMargin, name);
      return "";
    case SyncField::Gl2Range:
      if (v == 1)
        return fmt::format(
            "GL2 range selector = VOLATILE (only lines marked volatile; range ignored) [= {}]",
            name);
      if (v == 2) return fmt::format("GL2 range selector = {} [= {}]", kRange, name);
      if (v == 3)
        return fmt::format("GL2 range selector = {} [= {} = GL2_VOLATILE | GL2_RANGE]", kMargin,
                           name);
      return "";
  }
  return "";
}

std::string unknown_line(uint32_t bits) {
  return fmt::format("unknown bits 0x{:08X}", bits);
}

// describe_dispatch / describe_write_value_bop: one full name per set bit in catalogue order.
std::vector<std::string> describe_bits(FlagFamily family, uint32_t value) {
  std::vector<std::string> lines;
  uint32_t named = 0;
  for (const FlagDef& d : all_flags()) {
    if (d.family != family || !d.value) continue;
    if (*d.value == 0 ? value == 0 : (value & *d.value) == *d.value) {
      lines.emplace_back(d.name);
      named |= *d.value;
    }
  }
  if (value & ~named) lines.push_back(unknown_line(value & ~named));
  return lines;
}

}  // namespace

uint32_t field_mask(SyncField f) {
  return 0x3u << field_shift(f);
}

uint8_t field_value(SyncField f, uint32_t word) {
  return static_cast<uint8_t>((word >> field_shift(f)) & 0x3u);
}

std::string_view field_constant_name(SyncField f, uint8_t v) {
  if (v == 0 || v > 3) return "";
  const uint32_t bits = static_cast<uint32_t>(v) << field_shift(f);
  for (const FlagDef& d : all_flags()) {
    if (d.family == FlagFamily::Sync && d.kind == FlagKind::Field && d.value == bits) return d.name;
  }
  return "";  // GL1 value 1 is reserved and has no constant
}

SyncFields decode_sync(uint32_t value) {
  SyncFields f;
  f.icache = static_cast<IcacheSel>(field_value(SyncField::Icache, value));
  f.gl1_range = static_cast<Gl1RangeSel>(field_value(SyncField::Gl1Range, value));
  f.gl2_range = static_cast<Gl2RangeSel>(field_value(SyncField::Gl2Range, value));
  for (const auto& [member, bit] : kBits) f.*member = (value & bit) != 0;
  f.unknown_bits = value & ~known_sync_bits();
  return f;
}

uint32_t encode_sync(const SyncFields& f) {
  uint32_t v = f.unknown_bits & ~known_sync_bits();
  v |= static_cast<uint32_t>(f.icache) << field_shift(SyncField::Icache);
  v |= static_cast<uint32_t>(f.gl1_range) << field_shift(SyncField::Gl1Range);
  v |= static_cast<uint32_t>(f.gl2_range) << field_shift(SyncField::Gl2Range);
  for (const auto& [member, bit] : kBits) {
    if (f.*member) v |= bit;
  }
  return v;
}

std::string_view to_string(IcacheSel s) {
  static constexpr std::array<std::string_view, 4> k = {"NONE", "ALL", "RANGE", "MARGIN"};
  return k[static_cast<size_t>(s) & 3];
}
std::string_view to_string(Gl1RangeSel s) {
  static constexpr std::array<std::string_view, 4> k = {"ALL", "RESERVED", "RANGE", "MARGIN"};
  return k[static_cast<size_t>(s) & 3];
}
std::string_view to_string(Gl2RangeSel s) {
  static constexpr std::array<std::string_view, 4> k = {"ALL", "VOLATILE", "RANGE", "MARGIN"};
  return k[static_cast<size_t>(s) & 3];
}

std::vector<std::string> describe_sync(uint32_t value) {
  if (value == 0) return {"D3D12XBOX_SYNC_FLAG_NONE"};
  std::vector<std::string> lines;
  bool field_done[3] = {false, false, false};
  for (const FlagDef& d : all_flags()) {  // header order; a field at its first constant
    if (d.family != FlagFamily::Sync || !d.value) continue;
    if (auto field = field_of(d)) {
      auto& done = field_done[static_cast<int>(*field)];
      if (done) continue;
      done = true;
      std::string line = describe_field(*field, field_value(*field, value));
      if (!line.empty()) lines.push_back(std::move(line));
    } else if (d.kind == FlagKind::Bit && *d.value != 0 && (value & *d.value)) {
      if (*d.value == kVcacheInvalidate)
        lines.push_back(fmt::format("{} (alias D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE)", d.name));
      else
        lines.emplace_back(d.name);
    }
  }
  if (uint32_t unknown = value & ~known_sync_bits()) lines.push_back(unknown_line(unknown));
  return lines;
}

std::vector<std::string> describe_dispatch(uint32_t value) {
  return describe_bits(FlagFamily::Dispatch, value);
}

std::vector<std::string> describe_write_value_bop(uint32_t value) {
  // Only NONE (0) has a published value: any set bit is unknown.
  return describe_bits(FlagFamily::WriteValueBop, value);
}

}  // namespace syncproof::model
