// crosscheck::cross_check lowers a case once for both engines and the replays when their options
// select the same model, and lowers it for the executor alone when they do not: each engine's
// result is then what it gives on its own.
#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "crosscheck/cross_check.h"
#include "model/assumptions.h"
#include "properties/verdict.h"
#include "report/text.h"
#include "tests/case_fixture.h"
#include "tests/sample.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

namespace {

// cases/profiles/gcr-outer-first-off.sync: refuted without A-GCR-OUTER-FIRST, proved with it.
const std::string kOuterFirstOff =
    "case \"one-sync GL1 + GL0 invalidation\"\nassume -A-GCR-OUTER-FIRST\n" +
    testing::kUavSrvCommands + "refute visible produce -> consume\n";

}  // namespace

TEST_CASE("cross_check: engines with other models each get their own lowering") {
  const model::Case c = testing::parse_case_text(kOuterFirstOff);
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  ex.assume = {{true, "A-GCR-OUTER-FIRST"}};
  const crosscheck::CrossResult x = crosscheck::cross_check(c, smt, ex);
  CHECK_FALSE(x.smt.config.assumptions.enabled(model::AssumptionId::GcrOuterFirst));
  CHECK(x.exec.config.assumptions.enabled(model::AssumptionId::GcrOuterFirst));
  REQUIRE(x.smt.results.size() == 1);
  REQUIRE(x.exec.results.size() == 1);
  CHECK(std::holds_alternative<properties::Violated>(x.smt.results[0].verdict));
  const auto* proof = std::get_if<properties::Proved>(&x.exec.results[0].verdict);
  REQUIRE(proof);
  CHECK(proof->assumptions ==
        std::vector<std::string>{"A-GCR-OUTER-FIRST", "A-WAVE-END-STORES-IN-GL2"});
  // The verdicts differ because the models do: reported, as any disagreement is.
  REQUIRE(x.problems.size() == 1);
  CHECK(x.problems[0].kind == crosscheck::Problem::Kind::Verdict);
  CHECK(x.problems[0].detail == "smt violated, exec proved");
}

TEST_CASE("cross_check: on one lowering each engine gives what it gives alone, the library" *
          doctest::test_suite("full-size")) {
  const encode::CheckOptions smt;
  const exec::ExecOptions ex;
  const report::TextStyle plain;
  size_t compared = 0;
  for (const auto& input : testing::sampled(testing::library_cases())) {
    const std::string& file = input.first;  // (clang 14: no structured binding in CAPTURE)
    CAPTURE(file);
    const model::Case c = testing::parse_case_text(input.second);
    const crosscheck::CrossResult x = crosscheck::cross_check(c, smt, ex);
    const properties::CaseResult s = encode::check_case(c, smt), e = exec::check_case(c, ex);
    CHECK(x.smt.events == s.events);
    REQUIRE(x.smt.results.size() == s.results.size());
    for (size_t i = 0; i < s.results.size(); ++i) {
      // The verdict, its assumptions or its trace, and the fix advice, as `check` prints them.
      const model::Property& prop = c.properties[i];
      CHECK(report::property_report(c, prop, x.smt.results[i], plain) ==
            report::property_report(c, prop, s.results[i], plain));
      CHECK(report::property_report(c, prop, x.exec.results[i], plain) ==
            report::property_report(c, prop, e.results[i], plain));
      ++compared;
    }
    CHECK(x.problems.empty());
  }
  CHECK(compared > testing::scaled(100));
}
