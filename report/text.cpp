#include "report/text.h"

#include <fmt/format.h>

namespace syncproof::report {

namespace {

constexpr const char* kReset = "\033[0m";
constexpr const char* kGreen = "\033[32m";
constexpr const char* kYellow = "\033[33m";
constexpr const char* kBoldRed = "\033[1;31m";
constexpr const char* kBoldMagenta = "\033[1;35m";

std::string paint(const TextStyle& s, const char* color, std::string_view text) {
  if (!s.color || text.empty()) return std::string(text);
  return fmt::format("{}{}{}", color, text, kReset);
}

std::string verdict_detail(const properties::Verdict& v) {
  if (const auto* p = std::get_if<properties::Proved>(&v))
    return p->assumptions.empty() ? "" : fmt::format(" [{}]", fmt::join(p->assumptions, ", "));
  if (const auto* u = std::get_if<properties::Unknown>(&v)) return ": " + u->reason;
  if (const auto* e = std::get_if<properties::Error>(&v)) return ": " + e->message;
  return "";
}

const char* verdict_color(const properties::PropertyResult& r) {
  if (!r.as_expected) return kBoldRed;
  if (std::holds_alternative<properties::Unknown>(r.verdict)) return kYellow;
  return kGreen;
}

size_t count_of(const std::vector<lang::Diagnostic>& ds, model::Severity sev) {
  size_t n = 0;
  for (const lang::Diagnostic& d : ds) n += d.severity == sev;
  return n;
}

// The counterexample as numbered steps, then why, missing and how many obligations fail; each
// line starts with `indent`.
std::string trace_text(const properties::Violated& v, std::string_view indent) {
  const properties::Trace& t = v.trace;
  std::string out =
      fmt::format("{}counterexample (one execution the model allows; times in order):\n", indent);
  size_t n = 0;
  for (const auto& l : t.lines)
    out += fmt::format("{}{:>3}. t={:<3} {:<8} line {:<4} {:<40} {}\n", indent, ++n, l.time,
                       l.queue, l.line, l.command, l.what);
  out += fmt::format("{}why: {}\n", indent, t.why);
  if (!t.blamed.empty()) out += fmt::format("{}missing: {}\n", indent, fmt::join(t.blamed, " or "));
  if (v.undecided > 0)
    out += fmt::format("{}(at least {} {}; {} more left undecided; the first is shown)\n", indent,
                       v.failing, v.failing == 1 ? "obligation fails" : "obligations fail",
                       v.undecided);
  else if (v.failing > 1)
    out += fmt::format("{}({} obligations fail; the first is shown)\n", indent, v.failing);
  return out;
}

}  // namespace

// The header is the first line: the file name is escaped, so it holds no line break.
std::string diagnostic_text(const lang::Diagnostic& d, const model::Case& c, const TextStyle& s) {
  std::string out = lang::render(d, c.file, c.lines);
  if (!s.color) return out;
  const std::string word = fmt::format(": {}: ", lang::to_string(d.severity));
  const size_t at = out.find(word, c.file.size());
  if (at == std::string::npos || at > out.find('\n')) return out;
  const char* color = d.severity == model::Severity::Error ? kBoldRed : kBoldMagenta;
  out.replace(at + 2, word.size() - 4, paint(s, color, word.substr(2, word.size() - 4)));
  return out;
}

std::string property_report(const model::Case& c, const model::Property& p,
                            const properties::PropertyResult& r, const TextStyle& s) {
  if (s.quiet && r.as_expected) return "";
  std::string out = fmt::format(
      "{}:{}: {} {}: {}{}{}\n", c.file, p.loc.line, expectation_word(p.expect), property_text(c, p),
      paint(s, verdict_color(r), properties::verdict_name(r.verdict)), verdict_detail(r.verdict),
      r.as_expected ? "" : paint(s, kBoldRed, "  <-- NOT AS EXPECTED"));
  const auto* v = std::get_if<properties::Violated>(&r.verdict);
  if (!v) return out;
  if (!r.as_expected && p.expect == model::Expectation::Violated && !p.missing.empty())
    out += fmt::format("    expected the explanation to name: {}\n", fmt::join(p.missing, ", "));
  out += trace_text(*v, "    ");
  if (const auto& f = v->trace.fix) {
    if (f->edits.empty()) {
      out += fmt::format("    fix: none: {}\n", f->note);
    } else {
      out += fmt::format("    fix (cost {:+}, proved by both engines{}):\n", f->cost,
                         f->note.empty() ? "" : "; the file cannot be edited: " + f->note);
      for (const std::string& e : f->edits) out += "      " + e + "\n";
    }
  }
  return out;
}

std::string case_report(const CaseEntry& e, const TextStyle& s) {
  switch (e.status) {
    case CaseStatus::LintOnly:
      if (s.quiet) return "";
      return fmt::format("{}: diagnostics as expected ({} errors, {} warnings)\n", e.display,
                         count_of(e.diags, model::Severity::Error),
                         count_of(e.diags, model::Severity::Warning));
    case CaseStatus::NotAsExpected:
      return e.message;
    case CaseStatus::Checked:
      break;
    default:
      return "";  // the diagnostics say it all (standard error), the summary counts it
  }
  std::string out;
  for (const properties::PropertyResult& r : e.result.results)
    if (r.property < e.c.properties.size())
      out += property_report(e.c, e.c.properties[r.property], r, s);
  out += e.redundant;
  for (const std::string& n : e.engine_notes) out += n;
  for (const std::string& d : e.disagreements) out += d;
  return out;
}

std::string case_diagnostics(const CaseEntry& e, const TextStyle& s) {
  switch (e.status) {
    case CaseStatus::LintOnly:
    case CaseStatus::NotAsExpected:
      return "";  // the markers name these diagnostics: the report compares them
    case CaseStatus::InternalError:
      return fmt::format("{}: {}\n", e.display, e.message);
    case CaseStatus::Unreadable:
    case CaseStatus::Rejected:
      if (e.diags.empty())
        return fmt::format("{}: {}: {}\n", e.display, paint(s, kBoldRed, "error"), e.message);
      break;
    case CaseStatus::Checked:
      if (e.expected_diags) return "";
      break;
    case CaseStatus::InputErrors:
      break;
  }
  std::string out;
  for (const lang::Diagnostic& d : e.diags) out += diagnostic_text(d, e.c, s);
  return out;
}

std::string summary_text(const Run& r, const TextStyle&) {
  std::string out;
  const auto row = [&](const std::string& name, const Totals& t) {
    out += fmt::format("{:<30} {:>5} {:>6} {:>6} {:>8} {:>7} {:>6} {:>6} {:>8.2f}s\n", name,
                       t.cases, t.properties, t.proved, t.violated, t.unknown,
                       t.errors + t.input_errors, t.not_as_expected, t.ms / 1000);
  };
  out += fmt::format("\n{:<30} {:>5} {:>6} {:>6} {:>8} {:>7} {:>6} {:>6} {:>9}\n", "directory",
                     "cases", "props", "proved", "violated", "unknown", "error", "wrong", "time");
  for (const auto& [dir, t] : totals_by_directory(r)) row(dir, t);
  const Totals t = totals(r);
  row("total", t);
  out += fmt::format(
      "{} cases, {} properties: {} as expected, {} not as expected, {} gave up; {} input errors, "
      "{} unreadable, {} refused, {} internal errors\n",
      t.cases, t.properties, t.as_expected, t.not_as_expected, t.gave_up, t.input_errors,
      t.unreadable, t.rejected, t.internal);
  if (r.engine == "both") {
    const EngineTotals& x = r.engines;
    out += fmt::format(
        "engines: {} cases, smt {:.2f}s, exec {:.2f}s; {} SMT counterexamples replayed on the "
        "executor, {} executor counterexamples accepted by the SMT encoding; {} disagreements, "
        "{} notes\n",
        x.cases, x.smt_ms / 1000, x.exec_ms / 1000, x.smt_replayed, x.exec_confirmed, x.problems,
        x.notes);
  }
  return out;
}

std::string write_text(const Run& r, const TextStyle& s) {
  std::string out;
  for (const CaseEntry& e : r.cases) out += case_report(e, s);
  return out + summary_text(r, s);
}

}  // namespace syncproof::report
