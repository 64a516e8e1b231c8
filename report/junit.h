#pragma once
// `syncproof check --format junit`: JUnit XML, the format every CI shows natively. One
// <testsuite> per case file, one <testcase> per property (name "line N: prove visible a -> b");
// a property that came out against its expectation is a <failure> carrying the verdict and the
// counterexample, a solver that gave up or an error is an <error>. A case with input errors, or
// whose diagnostics differ from its `# expect:` markers, is one failing <testcase> named "lint";
// a lint-only case passes as "diagnostics as expected". The files of several shards merge as they
// are: each holds its own <testsuite>s.
#include <string>

#include "report/run.h"

namespace syncproof::report {

std::string write_junit(const Run& r);

// The counterexample as the text report prints it (numbered steps, why, missing).
std::string trace_text(const properties::Trace& t, int failing);

}  // namespace syncproof::report
