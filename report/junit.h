#pragma once
// `syncproof check --format junit`: JUnit XML, the format every CI shows natively, valid under
// the Jenkins xUnit plugin's JUnit schema (tests/report/junit-10.xsd, checked by CTest). One
// <testsuite> per case file, one <testcase> per property, named by what it states ("prove visible
// a -> b"; a repeat within the file gets " (2)", ...), never by its line, so CI test history
// survives edits that move lines; every <testcase> has a time. A property that came out against
// its expectation is a <failure> carrying the verdict and the counterexample, a solver that gave
// up or an error is an <error>. A case with input errors, or whose diagnostics differ from its
// `# expect:` markers, is one failing <testcase> named "lint"; a lint-only case passes as
// "diagnostics as expected". The files of several shards merge as they are: each holds its own
// <testsuite>s.
#include <string>

#include "report/run.h"

namespace syncproof::report {

std::string write_junit(const Run& r);

}  // namespace syncproof::report
