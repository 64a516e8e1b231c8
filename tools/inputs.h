#pragma once
// What `check` reads besides case files found on disk: standard input (`-`) and a pipe named on
// the command line (`/dev/stdin` from a pipe, `<(cmd)` in bash, a FIFO). Such an input is read
// to its end as it comes (at most --max-file-size), named `<stdin>` for `-` and by its path
// otherwise, and is a JSON command stream when its name ends in .json, or, without a .json or
// .sync name, when its first non-blank byte is `{`; a case file otherwise. A FIFO met while
// searching a directory is still refused (exit 7): only what the command line names is read.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "lang/lint_files.h"
#include "lang/parse.h"

namespace syncproof::cli {

inline constexpr const char* kStdinName = "<stdin>";

// The inputs of a command line: collect_case_files, with `-` shown as <stdin>. `streams` gets
// the paths to read as streams (`-` and the arguments that are pipes); `error` is set when `-`
// is given twice (standard input can be read once).
std::vector<lang::CaseInput> collect_inputs(const std::vector<std::string>& args,
                                            std::set<std::string>& streams, std::string* error);

// Reads and parses one stream input (see above). A stream that cannot be read or grows past the
// limit is one file-level diagnostic, like an unreadable file. *json says whether it was read as
// a JSON command stream.
lang::ParseResult read_stream_case(const lang::CaseInput& in, uint64_t max_bytes, bool* json);

}  // namespace syncproof::cli
