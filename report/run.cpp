#include "report/run.h"

#include <fmt/format.h>

#include <filesystem>

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

void EngineTotals::add(const EngineTotals& o) {
  cases += o.cases, problems += o.problems, notes += o.notes;
  smt_replayed += o.smt_replayed, exec_confirmed += o.exec_confirmed;
  smt_ms += o.smt_ms, exec_ms += o.exec_ms;
}

void Totals::count(const model::Property& p, const properties::PropertyResult& r) {
  ++properties;
  const bool unknown_verdict = std::holds_alternative<properties::Unknown>(r.verdict);
  if (std::holds_alternative<properties::Proved>(r.verdict))
    ++proved;
  else if (std::holds_alternative<properties::Violated>(r.verdict))
    ++violated;
  else if (unknown_verdict)
    ++unknown;
  else
    ++errors;
  if (r.as_expected)
    ++as_expected;
  else if (unknown_verdict)
    gave_up += p.expect != model::Expectation::Report;
  else
    ++not_as_expected;
}

void Totals::count(const CaseEntry& e) {
  switch (e.status) {
    case CaseStatus::Unreadable:
      ++unreadable;
      return;
    case CaseStatus::Rejected:
      ++rejected;
      return;
    case CaseStatus::NotAsExpected:
      ++cases, ++not_as_expected;
      return;
    case CaseStatus::LintOnly:
      ++cases, ++lint_cases;
      return;
    case CaseStatus::InputErrors:
      ++cases, ++input_errors;
      return;
    case CaseStatus::InternalError:
      ++cases, ++internal;
      return;
    case CaseStatus::Checked:
      break;
  }
  ++cases;
  ms += e.result.ms;
  for (const properties::PropertyResult& r : e.result.results)
    if (r.property < e.c.properties.size()) count(e.c.properties[r.property], r);
}

void Totals::add(const Totals& o) {
  cases += o.cases, properties += o.properties, proved += o.proved, violated += o.violated;
  unknown += o.unknown, errors += o.errors, as_expected += o.as_expected;
  not_as_expected += o.not_as_expected, gave_up += o.gave_up, input_errors += o.input_errors;
  unreadable += o.unreadable, rejected += o.rejected, internal += o.internal;
  lint_cases += o.lint_cases, ms += o.ms;
}

Totals totals(const Run& r) {
  Totals t;
  for (const CaseEntry& e : r.cases) t.count(e);
  return t;
}

std::map<std::string, Totals> totals_by_directory(const Run& r) {
  std::map<std::string, Totals> rows;
  for (const CaseEntry& e : r.cases)
    if (e.status != CaseStatus::Unreadable && e.status != CaseStatus::Rejected)
      rows[std::filesystem::path(e.display).parent_path().string()].count(e);
  return rows;
}

bool complete(const Run& r) {
  const Totals t = totals(r);
  return t.unreadable + t.rejected + t.input_errors + t.internal + t.unknown + t.errors +
             r.engines.problems ==
         0;
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
