// `missing:` over the whole case library (docs/FIX.md, "What missing: names"): every suggestion a
// plain `check` prints is applied to its case and the property checked again. A suggestion marked
// as proving the property proves it; one marked as removing this counterexample leaves it failing
// another way; a `missing:` that is the fix below, its text edits made to the file, proves it.
// No alternative names a flag its command already has or one the linter rejects there. One
// lowering per check; the fix searches run only where the explanation's advice did not hold up.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "encode/check.h"
#include "lang/parse.h"
#include "properties/explain.h"
#include "synth/missing.h"
#include "synth/source_edit.h"
#include "tests/sample.h"
#include "tools/synth_check.h"
#include "tools/synth_engines.h"

using namespace syncproof;
namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::string timeless(const std::string& why) {
  return std::regex_replace(why, std::regex(R"(t=\d+)"), "t=");
}

// The property `prop` of `c` alone, checked with the SMT engine.
properties::Verdict verdict_of(const model::Case& c, size_t prop, const encode::CheckOptions& smt) {
  model::Case asked = c;
  asked.properties = {c.properties[prop]};
  properties::CaseResult r = encode::check_case(asked, smt);
  REQUIRE(r.results.size() == 1);
  return r.results[0].verdict;
}

std::vector<fs::path> library() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SYNCPROOF_SOURCE_DIR) / "cases"))
    if (e.path().extension() == ".sync" && e.path().string().find("/lint/") == std::string::npos)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// ~20 s in the optimised build: there only (the code it reaches runs under the sanitizers in
// tests/tools and on every case file).
TEST_CASE("every missing: suggestion over the library, applied, does what it says" *
          doctest::skip(testing::kSanitized)) {
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  cli::SynthCheck s;
  s.opt = cli::fix_options(smt, ex, costs, 3000);
  size_t proves = 0, removes = 0, fixes = 0, violations = 0;
  for (const fs::path& path : testing::sampled(library())) {
    const std::string rel = fs::relative(path, SYNCPROOF_SOURCE_DIR).string();
    CAPTURE(rel);
    const lang::ParseResult pr = lang::parse_case_file(path.string());
    if (pr.has_errors() || pr.unreadable()) continue;  // cases whose point is a diagnostic
    const model::Case& c = pr.c;
    properties::CaseResult r = encode::check_case(c, smt);
    synth::attach_fixes(c, r, s.fixes, s.opt);
    for (const properties::PropertyResult& res : r.results) {
      const auto* v = std::get_if<properties::Violated>(&res.verdict);
      if (!v || v->witness.obligation < 0) continue;
      ++violations;
      CAPTURE(c.properties[res.property].loc.line);
      for (const std::string& b : v->trace.blamed) {
        CAPTURE(b);
        if (ends_with(b, synth::kTheFix)) {
          // The fix below, made to the file's text and parsed again.
          REQUIRE(v->trace.fix);
          const std::vector<std::string> lines =
              synth::apply_source_edits(c.lines, v->trace.fix->changes);
          std::string text;
          for (const std::string& l : lines) text += l + "\n";
          const lang::ParseResult fixed = lang::parse_case(c.file, text);
          REQUIRE_FALSE(fixed.has_errors());
          CHECK(std::holds_alternative<properties::Proved>(verdict_of(fixed.c, res.property, smt)));
          ++fixes;
          continue;
        }
        const bool marked_proves = ends_with(b, synth::kProves);
        const bool marked_removes = ends_with(b, synth::kRemoves);
        const auto remedy = properties::remedy_of(c, b);
        if (!remedy) {
          CHECK_FALSE(marked_proves);  // a phrase is never marked as checked
          CHECK_FALSE(marked_removes);
          continue;
        }
        // An edit: never one the command has or the linter rejects, and always re-checked.
        const auto e = synth::missing_edit(c, b);
        REQUIRE(e);
        REQUIRE((marked_proves || marked_removes));
        const properties::Verdict now = verdict_of(synth::apply(c, {*e}), res.property, smt);
        if (marked_proves) {
          CHECK(std::holds_alternative<properties::Proved>(now));
          ++proves;
        } else {
          const auto* x = std::get_if<properties::Violated>(&now);
          REQUIRE(x);
          CHECK(timeless(x->trace.why) != timeless(v->trace.why));
          ++removes;
        }
      }
    }
  }
  MESSAGE(fmt::format("{} violations: {} suggestions prove, {} remove the counterexample, {} fixes",
                      violations, proves, removes, fixes));
  CHECK(violations > testing::scaled(150));
  CHECK(proves > testing::scaled(80));
  CHECK(fixes >= 1);  // where no suggestion holds up and no phrase is left
}
