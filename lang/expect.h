#pragma once
// Inline expectations of lint cases: a line ends with `# expect: error TEXT` or
// `# expect: warning TEXT` (several may follow one another); `# expect-file: SEVERITY TEXT`
// stands for a diagnostic that has no line in the file. The diagnostics must be exactly those:
// each marker matched by its own diagnostic on its line, of its severity, whose message contains
// TEXT, and no diagnostic left over.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostic.h"

namespace syncproof::lang {

struct ExpectedDiag {
  model::Severity severity = model::Severity::Error;
  uint32_t line = 0;  // 0: `# expect-file:`
  uint32_t col = 0;   // of the marker's '#'
  std::string text;
};

struct Expectations {
  std::vector<ExpectedDiag> expected;
  std::vector<Diagnostic> malformed;  // markers that do not read `SEVERITY TEXT`
};
Expectations read_expectations(std::span<const std::string> lines);

struct ExpectationReport {
  std::vector<ExpectedDiag> missing;   // markers no diagnostic matched
  std::vector<Diagnostic> unexpected;  // diagnostics no marker matched
  std::vector<Diagnostic> malformed;
  bool ok() const { return missing.empty() && unexpected.empty() && malformed.empty(); }
};
ExpectationReport compare_expectations(std::span<const std::string> lines,
                                       std::span<const Diagnostic> diags);

// One line per problem, e.g.
//   FILE:12: missing error containing 'unknown sync flag'
//   FILE:14:5: unexpected warning: nothing signals fence 'f': this wait never completes
//   FILE:3:20: malformed expectation: ...
std::string render_report(const ExpectationReport& r, std::string_view file);

}  // namespace syncproof::lang
