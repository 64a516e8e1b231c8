#pragma once
// What one `syncproof check` run found, as data: the input of every report format (text,
// JSON, JUnit XML, SARIF: report/text.h, json.h, junit.h, sarif.h), so that each says the same
// thing. The CLI fills it from the engines' results (model::Case, lang::Diagnostic,
// properties::CaseResult), in input order.
#include <map>
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
  std::string path;     // the raw bytes of the path as the run collected it ("-": standard input)
  std::string display;  // as the text report prints it (escaped: lang::display_path; "<stdin>")
  CaseStatus status = CaseStatus::Checked;
  model::Case c;                        // c.file (== display), c.lines, c.properties: what is cited
  std::vector<lang::Diagnostic> diags;  // lint diagnostics, sorted
  bool expected_diags = false;          // its `# expect:` markers name exactly these diagnostics
  properties::CaseResult result;        // Checked: one result per property
  std::string message;                  // Unreadable / Rejected / InternalError / NotAsExpected
  std::vector<std::string> disagreements;  // --engine both: the engines disagree, one block each
  std::vector<std::string> engine_notes;   // --engine both: one engine undecided, the other not
  std::string redundant;                   // check --redundant: its report (docs/FIX.md)
  double ms = 0;                           // wall time on the whole case (read, lint, engines)
};

// --engine both: what the cross-validation did over the run.
struct EngineTotals {
  size_t cases = 0, problems = 0, notes = 0, smt_replayed = 0, exec_confirmed = 0;
  double smt_ms = 0, exec_ms = 0;
  void add(const EngineTotals& o);
};

struct Run {
  std::string version;  // syncproof's
  std::string engine;   // smt | exec | both
  std::string profile;  // --profile, "" when each case's own
  std::vector<std::string> assume;
  unsigned jobs = 1;
  unsigned shard = 1, shards = 1;
  std::vector<CaseEntry> cases;
  EngineTotals engines;  // filled under --engine both
  double ms = 0;
  int exit_code = 0;
};

// Counts over cases, as the text report's summary gives them.
struct Totals {
  size_t cases = 0, properties = 0, proved = 0, violated = 0, unknown = 0, errors = 0;
  size_t as_expected = 0;
  // A definite verdict against the expectation or an engine error, and cases whose diagnostics
  // differ from their `# expect:` markers.
  size_t not_as_expected = 0;
  size_t gave_up = 0;  // unknown on a prove/refute property (a `check` line's is as expected)
  size_t input_errors = 0, unreadable = 0, rejected = 0, internal = 0, lint_cases = 0;
  double ms = 0;  // the engines' time
  void count(const model::Property& p, const properties::PropertyResult& r);
  void count(const CaseEntry& e);
  void add(const Totals& o);
};
Totals totals(const Run& r);
// By the directory of each case (unreadable and refused inputs are in totals() only).
std::map<std::string, Totals> totals_by_directory(const Run& r);

// Whether the run answered every question it was asked: every input read, linted without
// errors and checked to a definite verdict (no unknown, no engine error), no internal error and
// no engine disagreement. Violations, even unexpected ones, leave a run complete.
bool complete(const Run& r);

using properties::property_text;  // properties/result.h
// "prove" / "refute" / "check"
std::string_view expectation_word(model::Expectation e);

}  // namespace syncproof::report
