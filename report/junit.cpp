#include "report/junit.h"

#include <fmt/format.h>

#include <pugixml.hpp>
#include <sstream>

#include "properties/obligation.h"

namespace syncproof::report {

namespace {

// XML 1.0 has no way to write most control characters: they become U+FFFD.
std::string xml_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (u < 0x20 && ch != '\n' && ch != '\t' && ch != '\r')
      out += "\xEF\xBF\xBD";
    else
      out += ch;
  }
  return out;
}

void attr(pugi::xml_node n, const char* name, std::string_view value) {
  n.append_attribute(name).set_value(xml_safe(value).c_str());
}
void attr(pugi::xml_node n, const char* name, size_t value) {
  n.append_attribute(name).set_value(static_cast<unsigned long long>(value));
}
void seconds(pugi::xml_node n, double ms) {
  attr(n, "time", fmt::format("{:.3f}", ms / 1000));
}
void text(pugi::xml_node n, std::string_view body) {
  n.append_child(pugi::node_pcdata).set_value(xml_safe(body).c_str());
}

// "cases/same-queue/uav-to-srv.sync" -> "cases.same-queue.uav-to-srv": Jenkins and GitLab group
// test cases by class name.
std::string class_name(std::string path) {
  if (path.size() > 5 && path.ends_with(".sync")) path.resize(path.size() - 5);
  for (char& ch : path)
    if (ch == '/' || ch == '\\') ch = '.';
  while (!path.empty() && path.front() == '.') path.erase(path.begin());
  return path;
}

std::string diagnostics_text(const CaseEntry& e) {
  std::string out;
  for (const lang::Diagnostic& d : e.diags) out += lang::render(d, e.c.file, e.c.lines);
  return out;
}

struct Counts {
  size_t tests = 0, failures = 0, errors = 0;
  double ms = 0;
};

std::string verdict_detail(const properties::Verdict& v) {
  if (const auto* p = std::get_if<properties::Proved>(&v))
    return p->assumptions.empty() ? "" : fmt::format(" [{}]", fmt::join(p->assumptions, ", "));
  if (const auto* u = std::get_if<properties::Unknown>(&v)) return ": " + u->reason;
  if (const auto* e = std::get_if<properties::Error>(&v)) return ": " + e->message;
  return "";
}

void property_case(pugi::xml_node suite, const CaseEntry& e, const properties::PropertyResult& r,
                   Counts& n) {
  const model::Property& p = e.c.properties.at(r.property);
  const std::string what = fmt::format("{} {}", expectation_word(p.expect), property_text(e.c, p));
  pugi::xml_node tc = suite.append_child("testcase");
  attr(tc, "name", fmt::format("line {}: {}", p.loc.line, what));
  attr(tc, "classname", class_name(e.path));
  attr(tc, "file", e.c.file);
  attr(tc, "line", p.loc.line);
  seconds(tc, r.ms);
  ++n.tests;
  n.ms += r.ms;
  const std::string verdict = properties::verdict_name(r.verdict);
  const auto* v = std::get_if<properties::Violated>(&r.verdict);
  std::string body = fmt::format("{}:{}: {}: {}{}\n", e.c.file, p.loc.line, what, verdict,
                                 verdict_detail(r.verdict));
  if (v) body += trace_text(v->trace, v->failing);
  const char* rule = properties::property_def(p.kind).id;
  if (!r.as_expected) {
    const bool gave_up = std::holds_alternative<properties::Unknown>(r.verdict) ||
                         std::holds_alternative<properties::Error>(r.verdict);
    pugi::xml_node f = tc.append_child(gave_up ? "error" : "failure");
    std::string msg =
        fmt::format("{}: {} ({} expected)", rule, verdict, expectation_word(p.expect));
    if (v && p.expect == model::Expectation::Violated && !p.missing.empty())
      msg += fmt::format("; the explanation should name {}", fmt::join(p.missing, ", "));
    attr(f, "message", msg);
    attr(f, "type", gave_up ? verdict : rule);
    text(f, body);
    ++(gave_up ? n.errors : n.failures);
  } else {
    text(tc.append_child("system-out"), body);
  }
}

void lint_case(pugi::xml_node suite, const CaseEntry& e, Counts& n) {
  pugi::xml_node tc = suite.append_child("testcase");
  attr(tc, "classname", class_name(e.path));
  attr(tc, "file", e.c.file.empty() ? e.path : e.c.file);
  ++n.tests;
  switch (e.status) {
    case CaseStatus::LintOnly:
      attr(tc, "name", "diagnostics as expected");
      text(tc.append_child("system-out"), diagnostics_text(e));
      return;
    case CaseStatus::InputErrors: {
      attr(tc, "name", "lint");
      pugi::xml_node f = tc.append_child("failure");
      attr(f, "message", "the case has errors: no verdict is given");
      attr(f, "type", "input-error");
      text(f, diagnostics_text(e));
      ++n.failures;
      return;
    }
    case CaseStatus::NotAsExpected: {
      attr(tc, "name", "lint");
      pugi::xml_node f = tc.append_child("failure");
      attr(f, "message", "diagnostics differ from the # expect: markers");
      attr(f, "type", "not-as-expected");
      text(f, e.message);
      ++n.failures;
      return;
    }
    default: {
      attr(tc, "name",
           e.status == CaseStatus::Unreadable || e.status == CaseStatus::Rejected ? "read"
                                                                                  : "check");
      pugi::xml_node f = tc.append_child("error");
      attr(f, "message", e.message);
      attr(f, "type", to_string(e.status));
      text(f, e.message);
      ++n.errors;
      return;
    }
  }
}

}  // namespace

std::string trace_text(const properties::Trace& t, int failing) {
  std::string out = "counterexample (one execution the model allows; times in order):\n";
  size_t n = 0;
  for (const auto& l : t.lines)
    out += fmt::format("{:>3}. t={:<3} {:<8} line {:<4} {:<40} {}\n", ++n, l.time, l.queue, l.line,
                       l.command, l.what);
  out += fmt::format("why: {}\n", t.why);
  if (!t.blamed.empty()) out += fmt::format("missing: {}\n", fmt::join(t.blamed, " or "));
  if (failing > 1) out += fmt::format("({} obligations fail; the first is shown)\n", failing);
  return out;
}

std::string write_junit(const Run& r) {
  pugi::xml_document doc;
  pugi::xml_node decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "UTF-8";
  pugi::xml_node root = doc.append_child("testsuites");
  attr(root, "name", "syncproof");
  Counts all;
  for (const CaseEntry& e : r.cases) {
    pugi::xml_node suite = root.append_child("testsuite");
    attr(suite, "name", e.path);
    attr(suite, "file", e.path);
    Counts n;
    if (e.status == CaseStatus::Checked) {
      for (const properties::PropertyResult& pr : e.result.results) property_case(suite, e, pr, n);
      if (!e.disagreements.empty()) {
        pugi::xml_node tc = suite.append_child("testcase");
        attr(tc, "name", "engines agree");
        attr(tc, "classname", class_name(e.path));
        pugi::xml_node f = tc.append_child("failure");
        attr(f, "message", "the SMT engine and the executor disagree");
        attr(f, "type", "engine-disagreement");
        std::string body;
        for (const std::string& d : e.disagreements) body += d;
        text(f, body);
        ++n.tests, ++n.failures;
      }
    } else {
      lint_case(suite, e, n);
    }
    n.ms = e.result.ms;
    attr(suite, "tests", n.tests);
    attr(suite, "failures", n.failures);
    attr(suite, "errors", n.errors);
    attr(suite, "skipped", size_t{0});
    seconds(suite, n.ms);
    all.tests += n.tests, all.failures += n.failures, all.errors += n.errors, all.ms += n.ms;
  }
  attr(root, "tests", all.tests);
  attr(root, "failures", all.failures);
  attr(root, "errors", all.errors);
  seconds(root, r.ms);
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace syncproof::report
