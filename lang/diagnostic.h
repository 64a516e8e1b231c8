#pragma once
// Diagnostics as data, and their rendering in the Bitwuzla/clang style:
//   FILE:LINE:COL: error: MESSAGE
//   <the source line>
//   <spaces>^~~~~
// A diagnostic with line 0 is about the file as a whole ("FILE: error: MESSAGE", nothing more).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.h"
#include "model/validity.h"

namespace syncproof::lang {

struct Diagnostic {
  model::Severity severity = model::Severity::Error;
  model::SrcLoc loc;  // line 0: the file as a whole
  std::string message;
  uint32_t length = 1;      // bytes of the offending token: '^' then length-1 '~'
  bool unreadable = false;  // the file could not be read at all (the CLI exits Unreadable)
  bool rejected = false;    // ... because it was refused (not a regular file, too large: Rejected)
};

std::string_view to_string(model::Severity s);  // "error" / "warning"

// The header line alone, without a newline: "FILE:LINE:COL: error: MESSAGE".
std::string render_header(const Diagnostic& d, std::string_view file);

// Header, source line and caret line, each ending in '\n'. The source line is shown when `lines`
// has it; control bytes and invalid UTF-8 print as '?', and a line longer than 160 bytes is
// shown as a window around the column.
std::string render(const Diagnostic& d, std::string_view file, std::span<const std::string> lines);

// Order for output: by line, then column (stable otherwise).
void sort_diagnostics(std::vector<Diagnostic>& diags);

size_t count(std::span<const Diagnostic> diags, model::Severity s);

// `text` quoted for a message, cut to a readable length: 'GL1_INVALIDTE', '0123456789...'.
std::string quote(std::string_view text);

}  // namespace syncproof::lang
