#pragma once
// `fix --apply` edits a case file the way its author wrote it. The parser and the fix work on the
// text without a UTF-8 byte order mark and with LF line breaks (lang/parser.cpp drops both); the
// file written back gets its own conventions again: the byte order mark stays, every line keeps
// its own line break (LF or CRLF), and a line the fix inserts gets the break of the line it goes
// before (at the end of the file, the last line's).
#include <string>
#include <vector>

#include "properties/verdict.h"

namespace syncproof::cli {

struct FileText {
  std::string text;      // as parsed: no byte order mark, CRLF as LF
  bool bom = false;      // the file starts with EF BB BF
  std::vector<bool> cr;  // per line of `text`: its break was CRLF (or it ended in CR)
};
FileText split_conventions(const std::string& raw);

// `edits` (text edits of FileText::text's lines, properties::SourceEdit) made to the file with
// its conventions kept, as bytes to write.
std::string apply_keeping_conventions(const FileText& f,
                                      const std::vector<properties::SourceEdit>& edits);

}  // namespace syncproof::cli
