#include "tools/report.h"

#include <fmt/format.h>

#include <filesystem>

#include "properties/obligation.h"
#include "tools/exit_codes.h"

namespace syncproof::cli {

using namespace model;

void SummaryRow::count(const Property& p, const encode::PropertyResult& r) {
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
    gave_up += p.expect != Expectation::Report;
  else
    ++not_as_expected;
}

void SummaryRow::add(const SummaryRow& r) {
  cases += r.cases, properties += r.properties, proved += r.proved, violated += r.violated;
  unknown += r.unknown, errors += r.errors, as_expected += r.as_expected;
  not_as_expected += r.not_as_expected, gave_up += r.gave_up, input_errors += r.input_errors;
  lint_cases += r.lint_cases, ms += r.ms;
}

SummaryRow& Summary::row_for(const std::string& file) {
  return rows[std::filesystem::path(file).parent_path().string()];
}

SummaryRow Summary::total() const {
  SummaryRow t;
  for (const auto& [dir, r] : rows) t.add(r);
  return t;
}

Exit Summary::exit_code() const {
  const SummaryRow t = total();
  Exit e = Exit::Ok;
  const auto when = [&](size_t n, Exit x) {
    if (n) e = worse(e, x);
  };
  when(disagreements, Exit::Disagreement);
  when(internal, Exit::Internal);
  when(t.not_as_expected, Exit::NotAsExpected);
  when(t.gave_up, Exit::Unknown);
  when(unreadable, Exit::Unreadable);
  when(rejected, Exit::Rejected);
  when(t.input_errors, Exit::InputError);
  return e;
}

std::string property_text(const Case& c, const Property& p) {
  std::string s{to_string(p.kind)};
  if (p.kind == PropertyKind::Visible || p.kind == PropertyKind::Ordered)
    s += fmt::format(" {} -> {}", p.from, p.to);
  if (p.resource) s += " on " + c.resources[*p.resource].name;
  return s;
}

void print_property(std::ostream& out, const Case& c, const Property& p,
                    const encode::PropertyResult& r, bool quiet) {
  if (quiet && r.as_expected) return;
  const char* verb = p.expect == Expectation::Holds      ? "prove"
                     : p.expect == Expectation::Violated ? "refute"
                                                         : "check";
  std::string detail;
  if (auto* pr = std::get_if<properties::Proved>(&r.verdict)) {
    detail = pr->assumptions.empty() ? "" : fmt::format(" [{}]", fmt::join(pr->assumptions, ", "));
  } else if (auto* u = std::get_if<properties::Unknown>(&r.verdict)) {
    detail = ": " + u->reason;
  } else if (auto* e = std::get_if<properties::Error>(&r.verdict)) {
    detail = ": " + e->message;
  }
  out << fmt::format("{}:{}: {} {}: {}{}{}\n", c.file, p.loc.line, verb, property_text(c, p),
                     properties::verdict_name(r.verdict), detail,
                     r.as_expected ? "" : "  <-- NOT AS EXPECTED");
  auto* v = std::get_if<properties::Violated>(&r.verdict);
  if (!v) return;
  if (!r.as_expected && p.expect == Expectation::Violated && !p.missing.empty())
    out << fmt::format("    expected the explanation to name: {}\n", fmt::join(p.missing, ", "));
  out << "    counterexample (one execution the model allows; times in order):\n";
  size_t n = 0;
  for (const auto& l : v->trace.lines)
    out << fmt::format("    {:>3}. t={:<3} {:<8} line {:<4} {:<40} {}\n", ++n, l.time, l.queue,
                       l.line, l.command, l.what);
  out << fmt::format("    why: {}\n", v->trace.why);
  if (!v->trace.blamed.empty())
    out << fmt::format("    missing: {}\n", fmt::join(v->trace.blamed, " or "));
  if (v->failing > 1)
    out << fmt::format("    ({} obligations fail; the first is shown)\n", v->failing);
  if (const auto& f = v->trace.fix) {
    if (f->edits.empty()) {
      out << fmt::format("    fix: none: {}\n", f->note);
    } else {
      out << fmt::format("    fix (cost {:+}, proved by both engines{}):\n", f->cost,
                         f->note.empty() ? "" : "; the file cannot be edited: " + f->note);
      for (const std::string& e : f->edits) out << "      " << e << "\n";
    }
  }
}

void print_summary(std::ostream& out, const Summary& s) {
  const auto row = [&](const std::string& name, const SummaryRow& r) {
    out << fmt::format("{:<30} {:>5} {:>6} {:>6} {:>8} {:>7} {:>6} {:>6} {:>8.2f}s\n", name,
                       r.cases, r.properties, r.proved, r.violated, r.unknown,
                       r.errors + r.input_errors, r.not_as_expected, r.ms / 1000);
  };
  out << fmt::format("\n{:<30} {:>5} {:>6} {:>6} {:>8} {:>7} {:>6} {:>6} {:>9}\n", "directory",
                     "cases", "props", "proved", "violated", "unknown", "error", "wrong", "time");
  for (const auto& [dir, r] : s.rows) row(dir, r);
  const SummaryRow t = s.total();
  row("total", t);
  out << fmt::format(
      "{} cases, {} properties: {} as expected, {} not as expected, {} gave up; {} input errors, "
      "{} unreadable, {} refused, {} internal errors\n",
      t.cases, t.properties, t.as_expected, t.not_as_expected, t.gave_up, t.input_errors,
      s.unreadable, s.rejected, s.internal);
}

}  // namespace syncproof::cli
