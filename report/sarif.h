#pragma once
// `syncproof check --format sarif`: SARIF 2.1.0, for code-scanning views. The rules are the
// properties (P-VISIBLE, P-ORDERED, P-NO-HAZARDS, P-DEADLOCK-FREE, from properties::property_def)
// and L-CASE for the case language's own diagnostics. Results: every property that came out
// against its expectation ("error"), every `check` line that is not proved ("note"), at the
// property's line, with the counterexample as a code flow whose steps point at the commands'
// lines and the cheapest fix as a fix object; every lint diagnostic. A violation the case states
// (`refute`) is not a result: code scanning would raise an alert for it (docs/REPORTS.md).
// executionSuccessful says whether the run is complete (report::complete), not whether it passed.
#include <string>

#include "report/run.h"

namespace syncproof::report {

std::string write_sarif(const Run& r);

}  // namespace syncproof::report
