#pragma once
// `syncproof lint`: the case files named by a list of paths (directories searched recursively
// for *.sync, sorted), each parsed and either printed (diagnostics) or compared with its inline
// `# expect:` markers. The exit code is chosen by the CLI from the summary.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "lang/source_file.h"

namespace syncproof::lang {

// One input: a case file to read, or a problem found while searching (then `problem` says what,
// and `kind` whether it was unreadable or refused). Nothing is left out in silence: a directory
// that cannot be read, an entry whose type cannot be found, a dangling *.sync link and a
// symbolic-link loop each get a CaseInput with a problem (a loop once, where it closes).
struct CaseInput {
  std::string path;     // as given or found (to open)
  std::string display;  // as printed (display_path)
  std::string problem;  // non-empty: e.g. "no .sync files in the directory"
  FileProblem kind = FileProblem::None;
};
// Directories are searched recursively, following symbolic links to directories (each
// directory once); in each, entries are taken in name order.
std::vector<CaseInput> collect_case_files(const std::vector<std::string>& paths);

struct LintSummary {
  size_t files = 0;
  size_t errors = 0, warnings = 0;  // diagnostics printed (unreadable inputs count as errors)
  size_t unreadable = 0;            // inputs that could not be read
  size_t rejected = 0;              // inputs refused (not regular files, over the size limit)
  size_t not_as_expected = 0;       // --expect-inline: files whose diagnostics differ
  size_t internal = 0;              // files whose parsing threw (printed as internal errors)
};

// Prints every diagnostic (or, with expect_inline, every mismatch) and a final summary line:
//   "3 files, 2 errors, 1 warning"            (lint)
//   "3 files, 2 as expected, 1 not as expected" (lint --expect-inline)
LintSummary lint_paths(const std::vector<std::string>& paths, bool expect_inline, std::ostream& out,
                       uint64_t max_file_size = kDefaultMaxFileSize);

}  // namespace syncproof::lang
