#include "stream/flag_text.h"

#include <fmt/format.h>

namespace syncproof::stream {

using namespace model;

std::string short_name(std::string_view full) {
  for (FlagFamily f : {FlagFamily::Sync, FlagFamily::SyncControl, FlagFamily::Dispatch,
                       FlagFamily::WriteValueBop, FlagFamily::Comparison}) {
    if (full.starts_with(family_prefix(f)))
      return std::string(full.substr(family_prefix(f).size()));
  }
  return std::string(full);
}

std::vector<std::string> sync_flag_names(uint32_t value, SpelledMargins spelled) {
  std::vector<std::string> out;
  uint32_t left = value;
  for (const FlagDef& d : all_flags()) {
    if (d.family != FlagFamily::Sync || d.kind != FlagKind::Bit || !d.value || !*d.value) continue;
    if ((left & *d.value) == *d.value) {
      out.push_back(short_name(d.name));
      left &= ~*d.value;
    }
  }
  const struct {
    SyncField field;
    bool spelled;
    const char* pieces;  // the OR of names (and number) that makes MARGIN without naming it
  } fields[] = {{SyncField::Icache, spelled.icache, "ICACHE_INVALIDATE|ICACHE_RANGE"},
                {SyncField::Gl1Range, spelled.gl1, "GL1_RANGE|0x4"},
                {SyncField::Gl2Range, spelled.gl2, "GL2_VOLATILE|GL2_RANGE"}};
  for (const auto& f : fields) {
    const uint8_t v = field_value(f.field, value);
    left &= ~field_mask(f.field);
    if (v == 0) continue;
    const std::string_view name = field_constant_name(f.field, v);
    if (v == 3 && !f.spelled) {
      std::string_view p = f.pieces;
      for (size_t bar; (bar = p.find('|')) != std::string_view::npos; p.remove_prefix(bar + 1))
        out.emplace_back(p.substr(0, bar));
      out.emplace_back(p);
    } else if (!name.empty()) {
      out.push_back(short_name(name));
    } else {
      out.push_back(
          fmt::format("0x{:X}", static_cast<uint32_t>(v) << __builtin_ctz(field_mask(f.field))));
    }
  }
  if (left) out.push_back(fmt::format("0x{:X}", left));
  if (out.empty()) out.push_back("NONE");
  return out;
}

std::vector<std::string> dispatch_flag_names(uint32_t value) {
  std::vector<std::string> out;
  uint32_t left = value;
  for (const FlagDef& d : all_flags()) {
    if (d.family != FlagFamily::Dispatch || d.kind != FlagKind::Bit || !d.value || !*d.value)
      continue;
    if ((left & *d.value) == *d.value) {
      out.push_back(short_name(d.name));
      left &= ~*d.value;
    }
  }
  if (left) out.push_back(fmt::format("0x{:X}", left));
  if (out.empty()) out.push_back("NONE");
  return out;
}

std::vector<std::string> control_flag_names(ControlFlags f) {
  std::vector<std::string> out;
  for (int i = 0; i < kControlFlagCount; ++i)
    if (f.has(static_cast<ControlFlag>(i)))
      out.push_back(short_name(full_name(static_cast<ControlFlag>(i))));
  if (out.empty()) out.push_back("NONE");
  return out;
}

std::string write_flag_name(WriteValueSource s) {
  switch (s) {
    case WriteValueSource::Value:
      return "NONE";
    case WriteValueSource::GpuTimestamp:
      return "GPU_TIMESTAMP";
    case WriteValueSource::SystemTimestamp:
      return "SYSTEM_TIMESTAMP";
  }
  return "NONE";
}

std::string join_flags(const std::vector<std::string>& names) {
  return fmt::format("{}", fmt::join(names, " | "));
}

}  // namespace syncproof::stream
