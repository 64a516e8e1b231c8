#pragma once
// Helpers shared by the case-language tests.
#include <string>
#include <string_view>

#include "lang/parse.h"

namespace syncproof::lang::test {

inline ParseResult parse(std::string_view text) {
  return parse_case("t.sync", text);
}

// Every diagnostic as "LINE:COL: error: MESSAGE", one per line.
inline std::string diags(const ParseResult& r) {
  std::string out;
  for (const Diagnostic& d : r.diags) out += render_header(d, "").substr(1) + "\n";
  return out;
}

// The only diagnostic, as above (or a description of what was there instead).
inline std::string only(const ParseResult& r) {
  if (r.diags.size() != 1) return "expected one diagnostic, got:\n" + diags(r);
  return render_header(r.diags[0], "").substr(1);
}

// Declarations most tests need, 7 lines: queues gfx/acs/cpu, buffer grid, texture color,
// fence f, label done. A snippet appended to it starts at line 8.
inline constexpr std::string_view kPrelude =
    "queue gfx graphics\n"
    "queue acs compute\n"
    "queue cpu host\n"
    "buffer grid 0x10000 0x4000\n"
    "texture color 0x200000 0x400000 compressed\n"
    "fence f\n"
    "label done 0x700000\n";

inline ParseResult with_prelude(std::string_view rest) {
  return parse(std::string(kPrelude) + std::string(rest));
}

}  // namespace syncproof::lang::test
