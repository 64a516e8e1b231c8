#pragma once
// `syncproof check` for people: the text report, one more back-end over report::Run. Standard
// output gets the report: one line per property ("FILE:LINE: prove visible a -> b: proved
// [A-...]"), the counterexample, why, what is missing and the fix under each violation, the
// --redundant report, engine disagreements, and a summary table by directory. Standard error
// gets the diagnostics about inputs (lint errors and warnings with their source line and caret,
// unreadable and refused inputs, internal errors), as a compiler prints them. Colour (ANSI) is
// used only when the caller says so (tools/color.h decides: --color, NO_COLOR, a terminal).
#include <string>

#include "report/run.h"

namespace syncproof::report {

struct TextStyle {
  bool color = false;  // ANSI colours: verdicts, "NOT AS EXPECTED", diagnostic severities
  bool quiet = false;  // print only what is not as expected
};

// One property: its verdict line and, for a violation, the counterexample, why, what is missing
// and the fix, indented by four spaces.
std::string property_report(const model::Case& c, const model::Property& p,
                            const properties::PropertyResult& r, const TextStyle& s);

// A diagnostic as lang::render prints it (header, source line, caret), the severity coloured.
std::string diagnostic_text(const lang::Diagnostic& d, const model::Case& c, const TextStyle& s);

// What the report says about one case, in order: its properties, the --redundant report, its
// engine disagreements; for a lint-only case one line, for a case whose diagnostics differ from
// its markers the differences. Standard output.
std::string case_report(const CaseEntry& e, const TextStyle& s);

// The case's diagnostics: lint errors and warnings (not those its markers expect), why it could
// not be read or was refused, an internal error. Standard error.
std::string case_diagnostics(const CaseEntry& e, const TextStyle& s);

// The summary table by directory, the totals line and, under --engine both, the engines line.
// The table's last column is the engines' time (the only part that differs between runs).
std::string summary_text(const Run& r, const TextStyle& s);

// The whole report: case_report of every case, then summary_text (what --format text writes).
std::string write_text(const Run& r, const TextStyle& s);

}  // namespace syncproof::report
