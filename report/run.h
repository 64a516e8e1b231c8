#pragma once
// What one `syncproof check` run found, as data: the input of every machine-readable report
// (JSON, JUnit XML, SARIF). The CLI fills it from the same objects its text report prints
// (model::Case, lang::Diagnostic, properties::CaseResult), in input order.
#include <string>
#include <vector>

#include "lang/diagnostic.h"
#include "model/case.h"
#include "properties/result.h"

namespace syncproof::report {

// What became of one input file.
enum class CaseStatus : uint8_t {
  Checked,        // linted, then every property decided by an engine
  LintOnly,       // `# expect:` markers matched and there is nothing to check
  InputErrors,    // the case has errors: no verdict is given
  NotAsExpected,  // its diagnostics differ from its `# expect:` markers
  Unreadable,     // the file or directory could not be read
  Rejected,       // refused unread: not a regular file, over --max-file-size, or over the caps
  InternalError,  // an engine threw (a bug): `message` says what
};
std::string_view to_string(CaseStatus s);  // "checked", "lint-only", "input-errors", ...

struct CaseEntry {
  std::string path;  // as the run collected it
  CaseStatus status = CaseStatus::Checked;
  model::Case c;                           // c.file, c.lines and c.properties are what reports cite
  std::vector<lang::Diagnostic> diags;     // lint diagnostics, sorted
  properties::CaseResult result;           // Checked: one result per property
  std::string message;                     // Unreadable / InternalError / NotAsExpected: the text
  std::vector<std::string> disagreements;  // --engine both: one text block per problem
};

struct Run {
  std::string version;  // syncproof's
  std::string engine;   // smt | exec | both
  std::string profile;  // --profile, "" when each case's own
  std::vector<std::string> assume;
  unsigned jobs = 1;
  unsigned shard = 1, shards = 1;
  std::vector<CaseEntry> cases;
  double ms = 0;
  int exit_code = 0;
};

// Counts over a run, as the text report's last line gives them.
struct Totals {
  size_t cases = 0, properties = 0, proved = 0, violated = 0, unknown = 0, errors = 0;
  size_t as_expected = 0, not_as_expected = 0, input_errors = 0, unreadable = 0, rejected = 0;
  size_t internal = 0;
  size_t lint_cases = 0;
};
Totals totals(const Run& r);

// "visible produce -> consume on grid", "no-hazards", ...
std::string property_text(const model::Case& c, const model::Property& p);
// "prove" / "refute" / "check"
std::string_view expectation_word(model::Expectation e);

}  // namespace syncproof::report
