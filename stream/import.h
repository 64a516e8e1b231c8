#pragma once
// `syncproof check stream.json`: a JSON command stream (docs/STREAM-FORMAT.md) read as a case.
// The stream is written out as case-language text, one line per declaration, command and
// property, and that text is parsed and linted by lang/ exactly like a case file; every
// diagnostic and every source position of the resulting Case is then moved to the line:col in
// the JSON file of the object that produced the line. Bad JSON, a missing or mistyped field and
// an unknown API are located errors of their own (at the offending value).
#include <string>
#include <string_view>

#include "lang/parse.h"
#include "lang/source_file.h"

namespace syncproof::stream {

lang::ParseResult import_text(const std::string& file, std::string_view json_text);
// Reads the file as lang::parse_case_file does (only a regular file, at most max_bytes); a file
// that cannot be read or is refused is one diagnostic with `unreadable` (and `rejected`) set.
lang::ParseResult import_file(const std::string& path,
                              uint64_t max_bytes = lang::kDefaultMaxFileSize);

}  // namespace syncproof::stream
