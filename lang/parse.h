#pragma once
// The case-language front end: text -> model::Case plus located diagnostics (syntax and lint).
// Parsing never throws on bad input and never stops at the first error: each bad line gets a
// diagnostic and parsing goes on with the next line. See docs/CASE-LANGUAGE.md.
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostic.h"
#include "lang/source_file.h"
#include "model/case.h"

namespace syncproof::lang {

struct ParseResult {
  model::Case c;                  // c.file and c.lines are always filled
  std::vector<Diagnostic> diags;  // sorted by line, then column
  bool has_errors() const;
  bool unreadable() const;  // the file could not be read or was refused (no case at all)
  bool rejected() const;    // ... refused: not a regular file, or over the size limit
  size_t errors() const;
  size_t warnings() const;
};

ParseResult parse_case(std::string_view file_name, std::string_view text);

// Reads the file (lang/source_file.h: regular files only, at most max_bytes); a path that cannot
// be read yields one file-level diagnostic with `unreadable` set (and `rejected` when it was
// refused). c.file is the path as printed (display_path: escaped).
ParseResult parse_case_file(const std::string& path, uint64_t max_bytes = kDefaultMaxFileSize);

// Every diagnostic rendered (header, source line, caret line), in order.
std::string render_all(const ParseResult& r);

}  // namespace syncproof::lang
