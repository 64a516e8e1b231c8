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

namespace syncproof::stream {

lang::ParseResult import_text(const std::string& file, std::string_view json_text);
// Reads the file (at most 64 MiB); an unreadable file is one diagnostic with `unreadable` set.
lang::ParseResult import_file(const std::string& path);

}  // namespace syncproof::stream
