#include "tools/report.h"

#include <fmt/format.h>

#include <filesystem>

#include "properties/obligation.h"
#include "tools/exit_codes.h"

namespace syncproof::cli {

using namespace model;

void SummaryRow::count(const encode::PropertyResult& r) {
  ++properties;
  switch (r.verdict.index()) {
    case 0:
      ++proved;
      break;
    case 1:
      ++violated;
      break;
    case 2:
      ++unknown;
      break;
    default:
      ++errors;
      break;
  }
  if (r.as_expected)
    ++as_expected;
  else
    ++not_as_expected;
}

SummaryRow& Summary::row_for(const std::string& file) {
  return rows[std::filesystem::path(file).parent_path().string()];
}

int Summary::exit_code() const {
  SummaryRow t;
  for (const auto& [k, r] : rows) {
    t.input_errors += r.input_errors, t.not_as_expected += r.not_as_expected;
    t.unknown += r.unknown;
  }
  if (unreadable) return static_cast<int>(Exit::Unreadable);
  if (t.input_errors) return static_cast<int>(Exit::InputError);
  // An unknown verdict on a property that expected one is reported as unknown, not as wrong.
  if (t.not_as_expected > t.unknown) return static_cast<int>(Exit::NotAsExpected);
  if (t.unknown) return static_cast<int>(Exit::Unknown);
  return static_cast<int>(Exit::Ok);
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
  SummaryRow t;
  for (const auto& [dir, r] : s.rows) {
    row(dir, r);
    t.cases += r.cases, t.properties += r.properties, t.proved += r.proved;
    t.violated += r.violated, t.unknown += r.unknown, t.errors += r.errors;
    t.input_errors += r.input_errors, t.as_expected += r.as_expected;
    t.not_as_expected += r.not_as_expected, t.ms += r.ms;
  }
  row("total", t);
  out << fmt::format(
      "{} cases, {} properties: {} as expected, {} not as expected, {} input "
      "errors, {} unreadable\n",
      t.cases, t.properties, t.as_expected, t.not_as_expected, t.input_errors, s.unreadable);
}

}  // namespace syncproof::cli
