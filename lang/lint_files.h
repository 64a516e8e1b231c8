#pragma once
// `syncproof lint`: the case files named by a list of paths (directories searched recursively
// for *.sync, sorted), each parsed and either printed (diagnostics) or compared with its inline
// `# expect:` markers. The exit code is chosen by the CLI from the summary.
#include <iosfwd>
#include <string>
#include <vector>

namespace syncproof::lang {

struct CaseInput {
  std::string path;
  std::string problem;  // non-empty: unreadable (e.g. "no .sync files in the directory")
};
std::vector<CaseInput> collect_case_files(const std::vector<std::string>& paths);

struct LintSummary {
  size_t files = 0;
  size_t errors = 0, warnings = 0;  // diagnostics printed (unreadable inputs count as errors)
  size_t unreadable = 0;            // inputs that could not be read
  size_t not_as_expected = 0;       // --expect-inline: files whose diagnostics differ
};

// Prints every diagnostic (or, with expect_inline, every mismatch) and a final summary line:
//   "3 files, 2 errors, 1 warning"            (lint)
//   "3 files, 2 as expected, 1 not as expected" (lint --expect-inline)
LintSummary lint_paths(const std::vector<std::string>& paths, bool expect_inline,
                       std::ostream& out);

}  // namespace syncproof::lang
