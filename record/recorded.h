#pragma once
// Internal to record/ and its tests: a recording as case text with, for each line, the call that
// wrote it, and that text parsed and linted.
#include <string>
#include <vector>

#include "lang/parse.h"
#include "record/impl.h"
#include "syncproof/record.h"

namespace syncproof::record {

struct CaseText {
  std::vector<std::string> lines;
  std::vector<Origin> origins;       // per line; empty file for lines no call wrote
  std::vector<Diagnostic> problems;  // the recorder's own (names that are no identifiers, ...)
  std::string text() const;
};

CaseText case_text(const Recorder& r);

// The case text parsed as `recording.sync`: its Case and the linter's diagnostics (at the lines
// of the case text).
lang::ParseResult parse_recording(const Recorder& r);

}  // namespace syncproof::record
