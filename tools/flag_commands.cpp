// `syncproof encode` / `syncproof decode` (see flag_commands.h). All flag knowledge comes from
// model/flags.h and model/validity.h; this file only parses, resolves and prints.
#include "tools/flag_commands.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <ostream>

#include <fmt/format.h>

#include "model/flags.h"
#include "model/validity.h"
#include "tools/exit_codes.h"

namespace syncproof::cli {
namespace {

using model::FlagDef;
using model::FlagFamily;

constexpr std::array kFamilies = {FlagFamily::Sync, FlagFamily::SyncControl, FlagFamily::Dispatch,
                                  FlagFamily::WriteValueBop, FlagFamily::Comparison};

int code(Exit e) {
  return static_cast<int>(e);
}

// "A|B", "A | B", "A", "|", "B" ... -> {"A", "B"}.
std::vector<std::string> split_names(const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const std::string& arg : args) {
    std::string cur;
    for (char c : arg) {
      if (c == '|' || std::isspace(static_cast<unsigned char>(c))) {
        if (!cur.empty()) names.push_back(std::move(cur));
        cur.clear();
      } else {
        cur += c;
      }
    }
    if (!cur.empty()) names.push_back(std::move(cur));
  }
  return names;
}

std::string join_and(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += i + 1 == items.size() ? " and " : ", ";
    s += items[i];
  }
  return s;
}

// Notes for a sync word built from `defs`: masks that select MARGIN, MARGIN obtained by OR-ing.
void sync_notes(const std::vector<const FlagDef*>& defs, uint32_t value, std::ostream& out) {
  using model::SyncField;
  static constexpr std::array kFields = {SyncField::Icache, SyncField::Gl1Range,
                                         SyncField::Gl2Range};
  static constexpr std::array<std::string_view, 3> kFieldNames = {"instruction-cache", "GL1 range",
                                                                  "GL2 range"};
  bool spelled[3] = {false, false, false};
  for (const FlagDef* d : defs) {
    std::vector<std::string> margins;
    for (size_t i = 0; i < kFields.size(); ++i) {
      const uint8_t v = model::field_value(kFields[i], *d->value);
      spelled[i] |= v != 0 && v == model::field_value(kFields[i], value);
      if (d->kind == model::FlagKind::Mask && v == 3) margins.emplace_back(kFieldNames[i]);
    }
    if (!margins.empty())
      out << fmt::format("note: {} selects MARGIN (first and last line only) in the {} field{}\n",
                         d->name, join_and(margins), margins.size() > 1 ? "s" : "");
  }
  for (const auto& p : model::check_margin_aliasing(value, spelled[0], spelled[1], spelled[2]))
    out << "note: " << p.message << "\n";
}

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::optional<model::SyncApi> parse_api(std::string_view s) {
  for (int i = 0; i <= static_cast<int>(model::SyncApi::WaitX); ++i) {
    auto api = static_cast<model::SyncApi>(i);
    if (iequals(s, model::to_string(api))) return api;
  }
  return std::nullopt;
}

// Prints problems as "error: ..." / "warning: ..." and folds them into the exit code.
Exit report(const std::vector<model::FlagProblem>& problems, Exit rc, std::ostream& out) {
  for (const auto& p : problems) {
    const bool error = p.severity == model::Severity::Error;
    out << (error ? "error: " : "warning: ") << p.message << "\n";
    if (error)
      rc = Exit::InputError;
    else if (rc == Exit::Ok)
      rc = Exit::Warnings;
  }
  return rc;
}

}  // namespace

std::optional<uint32_t> parse_flag_word(std::string_view text, std::string& error) {
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string_view digits = hex ? text.substr(2) : text;
  const bool ok = !digits.empty() && std::all_of(digits.begin(), digits.end(), [hex](char c) {
    return hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0
               : std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
  if (!ok) {
    error = fmt::format("'{}' is not a number (expected hex 0x... or decimal)", text);
    return std::nullopt;
  }
  uint64_t v = 0;
  for (char c : digits) {
    const unsigned d = std::isdigit(static_cast<unsigned char>(c))
                           ? static_cast<unsigned>(c - '0')
                           : static_cast<unsigned>(std::tolower(c) - 'a' + 10);
    v = v * (hex ? 16 : 10) + d;
    if (v > 0xFFFFFFFFull) {  // checked every digit, so v never overflows 64 bits
      error = fmt::format("'{}' does not fit a 32-bit flag word", text);
      return std::nullopt;
    }
  }
  return static_cast<uint32_t>(v);
}

int run_encode(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const std::vector<std::string> names = split_names(args);
  if (names.empty()) {
    err << "syncproof encode: no flag names given\n";
    return code(Exit::Usage);
  }
  // The families every known name belongs to (only NONE is in several).
  std::vector<FlagFamily> common(kFamilies.begin(), kFamilies.end());
  std::vector<std::string> unknown;
  for (const std::string& n : names) {
    std::vector<FlagFamily> mine;
    for (FlagFamily f : kFamilies) {
      if (model::find_flag(f, n)) mine.push_back(f);
    }
    if (mine.empty()) {
      unknown.push_back(n);
      continue;
    }
    std::erase_if(common, [&](FlagFamily f) { return !std::ranges::count(mine, f); });
  }
  for (const std::string& n : unknown) {
    auto hint =
        common.size() == 1 ? model::suggest_flags(common[0], n, 1) : model::suggest_any_flags(n, 1);
    err << fmt::format("syncproof encode: unknown flag '{}'", n);
    if (!hint.empty()) err << fmt::format("; did you mean {}?", hint[0]);
    err << "\n";
  }
  if (!unknown.empty()) return code(Exit::InputError);
  if (common.empty()) {
    std::vector<std::string> parts;
    for (const std::string& n : names) {
      const FlagDef* d = model::find_any_flag(n);
      parts.push_back(fmt::format("{} ({})", d->name, model::family_name(d->family)));
    }
    err << fmt::format(
        "syncproof encode: {} are of different enumerations; encode each enumeration separately\n",
        join_and(parts));
    return code(Exit::InputError);
  }
  const FlagFamily family = common.front();
  std::vector<const FlagDef*> defs;  // distinct, in the order given
  for (const std::string& n : names) {
    const FlagDef* d = model::find_flag(family, n);
    if (std::ranges::find(defs, d) == defs.end()) defs.push_back(d);
  }
  if (family == FlagFamily::Comparison && defs.size() > 1) {
    err << "syncproof encode: D3D12_COMPARISON_FUNC is an enumeration, not a set of flags: give "
           "one name\n";
    return code(Exit::InputError);
  }
  bool missing = false;
  for (const FlagDef* d : defs) {
    if (d->value) continue;
    err << fmt::format(
        "syncproof encode: the seeds publish no numeric value for {} (case files accept it by "
        "name only)\n",
        d->name);
    missing = true;
  }
  if (missing) return code(Exit::InputError);

  uint32_t value = 0;
  for (const FlagDef* d : defs) value |= *d->value;
  out << fmt::format("0x{:08X}\n", value);
  if (defs.size() > 1) {
    for (const FlagDef* d : defs) out << fmt::format("  0x{:08X}  {}\n", *d->value, d->name);
  }
  if (family == FlagFamily::Sync) sync_notes(defs, value, out);
  return code(Exit::Ok);
}

int run_decode(const DecodeOptions& opts, std::ostream& out, std::ostream& err) {
  const std::string_view fam = opts.family;
  if (fam != "sync" && fam != "dispatch" && fam != "write-value") {
    err << fmt::format(
        "syncproof decode: unknown --family '{}' (expected sync, dispatch or write-value)\n", fam);
    return code(Exit::Usage);
  }
  std::optional<model::SyncApi> api;
  std::optional<model::QueueType> queue;
  if (!opts.api.empty()) {
    if (fam != "sync") {
      err << "syncproof decode: --api applies to --family sync only\n";
      return code(Exit::Usage);
    }
    api = parse_api(opts.api);
    if (!api) {
      err << fmt::format(
          "syncproof decode: unknown API '{}' (expected SyncTopOfPipeX, SyncBottomOfPipeX, "
          "Write32BitValueBottomOfPipe2X, Write64BitValueBottomOfPipe2X, Signal2X or WaitX)\n",
          opts.api);
      return code(Exit::Usage);
    }
  }
  if (!opts.queue.empty()) {
    if (fam == "write-value" || (fam == "sync" && !api)) {
      err << fmt::format("syncproof decode: --queue needs {}\n",
                         fam == "sync" ? "--api for --family sync" : "--family sync or dispatch");
      return code(Exit::Usage);
    }
    if (iequals(opts.queue, "graphics"))
      queue = model::QueueType::Graphics;
    else if (iequals(opts.queue, "compute"))
      queue = model::QueueType::Compute;
    else {
      err << fmt::format(
          "syncproof decode: unknown queue type '{}' (expected graphics or compute)\n", opts.queue);
      return code(Exit::Usage);
    }
  }
  std::string error;
  const std::optional<uint32_t> value = parse_flag_word(opts.value, error);
  if (!value) {
    err << "syncproof decode: " << error << "\n";
    return code(Exit::InputError);
  }

  Exit rc = Exit::Ok;
  if (fam == "sync") {
    for (const std::string& line : model::describe_sync(*value)) out << line << "\n";
    for (const FlagDef& d : model::all_flags()) {
      if (d.family == FlagFamily::Sync && d.kind == model::FlagKind::Mask && d.value == *value)
        out << fmt::format("note: 0x{:08X} is the value of {}\n", *value, d.name);
    }
    const model::SyncFields f = model::decode_sync(*value);
    if (f.unknown_bits || f.gl1_range == model::Gl1RangeSel::Reserved) rc = Exit::InputError;
    if (api) {
      model::SyncFlagContext ctx{.api = *api,
                                 .queue = queue.value_or(model::QueueType::Graphics),
                                 .whole_memory = !opts.ranged};
      rc = report(model::check_sync_flags(*value, ctx), rc, out);
    }
  } else if (fam == "dispatch") {
    for (const std::string& line : model::describe_dispatch(*value)) out << line << "\n";
    if (*value & ~model::known_dispatch_bits()) rc = Exit::InputError;
    if (queue) rc = report(model::check_dispatch_flags(*value, *queue, opts.wave32), rc, out);
  } else {
    for (const std::string& line : model::describe_write_value_bop(*value)) out << line << "\n";
    if (*value != 0) {
      out << "note: only D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE (0) has a published value; "
             "GPU_TIMESTAMP and SYSTEM_TIMESTAMP are accepted by name only\n";
      rc = Exit::InputError;
    }
  }
  return code(rc);
}

}  // namespace syncproof::cli
