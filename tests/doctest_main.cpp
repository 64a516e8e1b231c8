// The unit tests' main: doctest's, except that a run whose --test-case filter selects no test case
// fails. CTest runs each test case in its own process, selected by name (doctest_discover_tests);
// a name the filter cannot match would otherwise run nothing and pass. (CMake splits a name at
// ';', which is how 17 test cases once ran nowhere.)
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "util/heap.h"

namespace {

// How many test cases passed the filters in the last run; -1: no run (a query such as
// --list-test-cases, which discovery uses).
int& selected() {
  static int n = -1;
  return n;
}

struct CountSelected : doctest::IReporter {
  explicit CountSelected(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& s) override {
    selected() = static_cast<int>(s.numTestCasesPassingFilters);
  }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};

bool filters_test_cases(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a.rfind("--dt-", 0) == 0) a.remove_prefix(5);
    while (!a.empty() && a[0] == '-') a.remove_prefix(1);
    if (a.rfind("test-case=", 0) == 0 || a.rfind("tc=", 0) == 0) return true;
  }
  return false;
}

}  // namespace

DOCTEST_REGISTER_LISTENER("count-selected", 1, CountSelected);

int main(int argc, char** argv) {
  // As the syncproof tool does (util/heap.h).
  syncproof::util::use_huge_pages(argv);
  syncproof::util::keep_large_blocks();
  doctest::Context context(argc, argv);
#ifdef SYNCPROOF_SANITIZED
  // The full-size comparisons (test suite "full-size": one algorithm against another over the
  // whole library, the fuzz corpus or the generated frames) run in the optimised build only. Under
  // the sanitizers they cost two thirds of the run and reach no code the smaller tests of the
  // same algorithms do not; excluded here, they are neither listed (so CTest does not register
  // them) nor run.
  context.addFilter("test-suite-exclude", "full-size");
#endif
  const int rc = context.run();
  if (rc == 0 && selected() == 0 && filters_test_cases(argc, argv)) {
    std::fprintf(stderr, "no test case matches the --test-case filter: nothing was tested\n");
    return 1;
  }
  return rc;
}
