#pragma once
// `syncproof encode` and `syncproof decode`: flag names <-> flag words. The logic is here, apart
// from CLI11, so that tests drive it with plain strings and streams; cmd_encode.cpp and
// cmd_decode.cpp only bind it to the command line. Return values are tools/exit_codes.h codes.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncproof::cli {

// `syncproof encode NAME[|NAME...]`: names may be split across arguments or joined by '|', with
// or without spaces and prefixes; all of one enumeration. Prints "0x%08X", then (for two or more
// names) one "  0x%08X  FULL_NAME" line per name, then "note: ..." lines for sync words whose
// MARGIN fields come from OR-ing or from a mask.
int run_encode(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct DecodeOptions {
  std::string value{};          // hex "0x..." or decimal
  std::string family = "sync";  // sync | dispatch | write-value
  std::string api{};            // sync only: check the word against this API ("" = no check)
  std::string queue{};          // graphics | compute ("" = graphics when --api is given)
  bool ranged = false;          // sync: the range is not the whole memory
  bool wave32 = false;          // dispatch: the shader is compiled for wave32
};

// `syncproof decode VALUE`: one line per flag/field (model::describe_*); with --api (sync) or
// --queue (dispatch) also "error: ..." / "warning: ..." lines for what that API/queue does not
// accept. Exit: Ok, Warnings (warnings only), InputError (bad value or errors), Usage.
int run_decode(const DecodeOptions& opts, std::ostream& out, std::ostream& err);

// "0x1F" / "31" -> 31. On failure returns nullopt and sets `error` (without the command prefix):
// "'xyz' is not a number (expected hex 0x... or decimal)" or
// "'0x100000000' does not fit a 32-bit flag word".
std::optional<uint32_t> parse_flag_word(std::string_view text, std::string& error);

}  // namespace syncproof::cli
