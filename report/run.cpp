#include "report/run.h"

#include <fmt/format.h>

namespace syncproof::report {

std::string_view to_string(CaseStatus s) {
  switch (s) {
    case CaseStatus::Checked:
      return "checked";
    case CaseStatus::LintOnly:
      return "lint-only";
    case CaseStatus::InputErrors:
      return "input-errors";
    case CaseStatus::NotAsExpected:
      return "diagnostics-not-as-expected";
    case CaseStatus::Unreadable:
      return "unreadable";
    case CaseStatus::Rejected:
      return "rejected";
    case CaseStatus::InternalError:
      return "internal-error";
  }
  return "?";
}

Totals totals(const Run& r) {
  Totals t;
  for (const CaseEntry& e : r.cases) {
    if (e.status == CaseStatus::Unreadable || e.status == CaseStatus::Rejected) {
      ++(e.status == CaseStatus::Rejected ? t.rejected : t.unreadable);
      continue;
    }
    ++t.cases;
    switch (e.status) {
      case CaseStatus::LintOnly:
        ++t.lint_cases;
        break;
      case CaseStatus::InputErrors:
        ++t.input_errors;
        break;
      case CaseStatus::NotAsExpected:
        ++t.not_as_expected;
        break;
      case CaseStatus::InternalError:
        ++t.internal;
        break;
      default:
        break;
    }
    for (const properties::PropertyResult& pr : e.result.results) {
      ++t.properties;
      switch (pr.verdict.index()) {
        case 0:
          ++t.proved;
          break;
        case 1:
          ++t.violated;
          break;
        case 2:
          ++t.unknown;
          break;
        default:
          ++t.errors;
          break;
      }
      ++(pr.as_expected ? t.as_expected : t.not_as_expected);
    }
  }
  return t;
}

std::string property_text(const model::Case& c, const model::Property& p) {
  std::string s{model::to_string(p.kind)};
  if (p.kind == model::PropertyKind::Visible || p.kind == model::PropertyKind::Ordered)
    s += fmt::format(" {} -> {}", p.from, p.to);
  if (p.resource && *p.resource < c.resources.size()) s += " on " + c.resources[*p.resource].name;
  return s;
}

std::string_view expectation_word(model::Expectation e) {
  switch (e) {
    case model::Expectation::Holds:
      return "prove";
    case model::Expectation::Violated:
      return "refute";
    case model::Expectation::Report:
      return "check";
  }
  return "?";
}

}  // namespace syncproof::report
