#pragma once
// `syncproof check --format sarif`: SARIF 2.1.0, for code-scanning views. The rules are the
// properties (P-VISIBLE, P-ORDERED, P-NO-HAZARDS, P-DEADLOCK-FREE, from properties::property_def)
// and L-CASE for the case language's own diagnostics. One result per violated property and per
// property that came out against its expectation, at the property's line, with the
// counterexample as a code flow whose steps point at the commands' lines; one result per lint
// diagnostic. A violation the case expects (`refute`) is a "note", a surprise an "error".
#include <string>

#include "report/run.h"

namespace syncproof::report {

std::string write_sarif(const Run& r);

}  // namespace syncproof::report
