#include "report/junit.h"

#include <fmt/format.h>

#include <map>
#include <pugixml.hpp>
#include <sstream>

#include "lang/utf8.h"
#include "properties/obligation.h"
#include "report/text.h"

namespace syncproof::report {

namespace {

// XML 1.0 cannot hold most control characters (not even as &#N;), U+FFFE and U+FFFF, nor bytes
// that are not UTF-8: each becomes U+FFFD. Everything else passes as it is (pugixml escapes
// <, & and quotes).
std::string xml_safe(std::string_view s) {
  constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u < 0x80) {
      if (u < 0x20 && u != '\n' && u != '\t' && u != '\r')
        out += kReplacement;
      else
        out += s[i];
      ++i;
      continue;
    }
    const size_t n = lang::utf8_sequence_length(s.substr(i));
    if (n == 0 || s.substr(i, n) == "\xEF\xBF\xBE" || s.substr(i, n) == "\xEF\xBF\xBF") {
      out += kReplacement;
      i += n ? n : 1;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
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

// One test per property, named by what it states; `seen` makes repeats unique (" (2)", ...).
void property_case(pugi::xml_node suite, const CaseEntry& e, const properties::PropertyResult& r,
                   std::map<std::string, size_t>& seen, Counts& n) {
  const model::Property& p = e.c.properties.at(r.property);
  const std::string what = fmt::format("{} {}", expectation_word(p.expect), property_text(e.c, p));
  const size_t repeat = ++seen[what];
  pugi::xml_node tc = suite.append_child("testcase");
  attr(tc, "name", repeat == 1 ? what : fmt::format("{} ({})", what, repeat));
  attr(tc, "classname", class_name(e.path));
  seconds(tc, r.ms);
  ++n.tests;
  n.ms += r.ms;
  const std::string verdict = properties::verdict_name(r.verdict);
  const auto* v = std::get_if<properties::Violated>(&r.verdict);
  // The text report's lines for the property, without colour or the quiet filter.
  const std::string body = property_report(e.c, p, r, TextStyle{});
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

const char* lint_case_name(CaseStatus s) {
  switch (s) {
    case CaseStatus::LintOnly:
      return "diagnostics as expected";
    case CaseStatus::InputErrors:
    case CaseStatus::NotAsExpected:
      return "lint";
    case CaseStatus::Unreadable:
    case CaseStatus::Rejected:
      return "read";
    default:
      return "check";
  }
}

// A case without property tests: one test for its diagnostics, its reading, or what stopped it.
void lint_case(pugi::xml_node suite, const CaseEntry& e, Counts& n) {
  pugi::xml_node tc = suite.append_child("testcase");
  attr(tc, "name", lint_case_name(e.status));
  attr(tc, "classname", class_name(e.path));
  seconds(tc, e.ms);
  ++n.tests;
  const auto fail = [&](const char* element, std::string_view message, std::string_view type,
                        std::string_view body) {
    pugi::xml_node f = tc.append_child(element);
    attr(f, "message", message);
    attr(f, "type", type);
    text(f, body);
    ++(std::string_view(element) == "error" ? n.errors : n.failures);
  };
  switch (e.status) {
    case CaseStatus::LintOnly:
      text(tc.append_child("system-out"), diagnostics_text(e));
      return;
    case CaseStatus::InputErrors:
      fail("failure", "the case has errors: no verdict is given", "input-error",
           diagnostics_text(e));
      return;
    case CaseStatus::NotAsExpected:
      fail("failure", "diagnostics differ from the # expect: markers", "not-as-expected",
           e.message);
      return;
    default:
      fail("error", e.message, to_string(e.status), e.message);
      return;
  }
}

}  // namespace

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
      std::map<std::string, size_t> seen;
      for (const properties::PropertyResult& pr : e.result.results)
        property_case(suite, e, pr, seen, n);
      if (!e.disagreements.empty()) {
        pugi::xml_node tc = suite.append_child("testcase");
        attr(tc, "name", "engines agree");
        attr(tc, "classname", class_name(e.path));
        seconds(tc, 0);
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
    n.ms = e.ms;
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
