#include "report/sarif.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "lang/utf8.h"
#include "properties/obligation.h"
#include "report/json.h"

namespace syncproof::report {

using json = nlohmann::ordered_json;

namespace {

constexpr model::PropertyKind kKinds[] = {
    model::PropertyKind::Visible, model::PropertyKind::Ordered, model::PropertyKind::NoHazards,
    model::PropertyKind::DeadlockFree};
constexpr size_t kLintRule = 4;

json rules() {
  json out = json::array();
  for (model::PropertyKind k : kKinds) {
    const properties::PropertyDef& d = properties::property_def(k);
    out.push_back({{"id", d.id},
                   {"name", std::string(model::to_string(k))},
                   {"shortDescription", {{"text", d.description}}},
                   {"fullDescription", {{"text", d.description}}},
                   {"defaultConfiguration", {{"level", "error"}}},
                   {"help", {{"text", "See model/SEMANTICS.md section 6 for the definition."}}}});
  }
  out.push_back({{"id", "L-CASE"},
                 {"name", "case-language"},
                 {"shortDescription", {{"text", "a problem the case-language linter reports"}}},
                 {"defaultConfiguration", {{"level", "error"}}},
                 {"help", {{"text", "See docs/CASE-LANGUAGE.md."}}}});
  return out;
}

// SARIF URIs are URI references (RFC 3986): the path's raw bytes, its separators kept and every
// byte that is not an unreserved character percent-encoded.
std::string uri(std::string_view path) {
  std::string out;
  for (unsigned char ch : path) {
    const bool unreserved = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                            (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_' ||
                            ch == '~' || ch == '/';
    if (unreserved)
      out += static_cast<char>(ch);
    else
      out += fmt::format("%{:02X}", ch);
  }
  return out;
}

// SARIF counts columns in Unicode code points (columnKind "unicodeCodePoints"); the case language
// counts bytes. A byte that is not part of valid UTF-8 counts as one code point (viewers show it
// as U+FFFD), and a column past the end of the line keeps its distance from the end.
uint32_t column(const model::Case& c, uint32_t line, uint32_t byte_col) {
  if (line == 0 || line > c.lines.size() || byte_col == 0) return byte_col;
  const std::string_view l = c.lines[line - 1];
  const size_t bytes = std::min<size_t>(byte_col - 1, l.size());
  uint32_t points = 0;
  for (size_t i = 0; i < bytes;) {
    const size_t n = lang::utf8_sequence_length(l.substr(i));
    i += n ? n : 1;
    ++points;
  }
  return 1 + points + static_cast<uint32_t>(byte_col - 1 - bytes);
}

json location(const CaseEntry& e, uint32_t line, uint32_t byte_col, const std::string& message) {
  json region = {{"startLine", std::max<uint32_t>(line, 1)}};
  if (byte_col) region["startColumn"] = column(e.c, line, byte_col);
  json loc = {
      {"physicalLocation", {{"artifactLocation", {{"uri", uri(e.path)}}}, {"region", region}}}};
  if (!message.empty()) loc["message"] = {{"text", message}};
  return loc;
}

// The region a text edit replaces. Deleting a whole line takes its line break with it, whatever
// the file's line breaks are; an insertion is an empty region.
json deleted_region(const model::Case& c, const properties::SourceEdit& x) {
  const bool whole_line = x.col == 1 && x.line >= 1 && x.line <= c.lines.size() &&
                          x.len == c.lines[x.line - 1].size() + 1;
  if (whole_line)
    return {{"startLine", x.line}, {"startColumn", 1}, {"endLine", x.line + 1}, {"endColumn", 1}};
  return {{"startLine", x.line},
          {"startColumn", column(c, x.line, x.col)},
          {"endLine", x.line},
          {"endColumn", column(c, x.line, x.col + x.len)}};
}

json code_flow(const CaseEntry& e, const properties::Trace& t) {
  json steps = json::array();
  for (size_t i = 0; i < t.lines.size(); ++i) {
    const properties::TraceLine& l = t.lines[i];
    steps.push_back(
        {{"location", location(e, l.line, 0,
                               fmt::format("t={} {}: {}: {}", l.time, l.queue, l.command, l.what))},
         {"executionOrder", i + 1},
         {"nestingLevel", 0}});
  }
  return {{"message", {{"text", t.why}}}, {"threadFlows", json::array({{{"locations", steps}}})}};
}

// Which properties are results: the ones that came out against their expectation (errors), and
// a `check` line's verdict when it is not a proof (a note: the case asked to be told). A `refute`
// line's violation is what the case states: it is no result at all (docs/REPORTS.md says why).
std::optional<std::string_view> level_of(const model::Property& p,
                                         const properties::PropertyResult& r) {
  if (!r.as_expected) return "error";
  if (p.expect == model::Expectation::Report &&
      !std::holds_alternative<properties::Proved>(r.verdict))
    return "note";
  return std::nullopt;
}

json property_result(const CaseEntry& e, const properties::PropertyResult& r,
                     std::string_view level) {
  const model::Property& p = e.c.properties.at(r.property);
  const auto* v = std::get_if<properties::Violated>(&r.verdict);
  const size_t rule = static_cast<size_t>(p.kind);
  std::string msg = fmt::format("{} {}: {}", expectation_word(p.expect), property_text(e.c, p),
                                properties::verdict_name(r.verdict));
  if (!r.as_expected) msg += " (not as expected)";
  if (v) {
    msg += ". " + v->trace.why;
    if (!v->trace.blamed.empty())
      msg += fmt::format(". Missing: {}", fmt::join(v->trace.blamed, " or "));
  } else if (const auto* u = std::get_if<properties::Unknown>(&r.verdict)) {
    msg += ": " + u->reason;
  } else if (const auto* er = std::get_if<properties::Error>(&r.verdict)) {
    msg += ": " + er->message;
  } else if (p.expect == model::Expectation::Violated) {
    msg += ": the case expects a counterexample and there is none";
  }
  json res = {{"ruleId", properties::property_def(p.kind).id},
              {"ruleIndex", rule},
              {"level", level},
              {"message", {{"text", msg}}},
              {"locations", json::array({location(e, p.loc.line, p.loc.col, "")})},
              {"partialFingerprints",
               {{"syncproofProperty/v1", fmt::format("{}:{}", e.path, property_text(e.c, p))}}},
              {"properties", to_json(r.verdict)}};
  res["properties"].erase("trace");  // it is the code flow
  if (v) res["codeFlows"] = json::array({code_flow(e, v->trace)});
  if (v && v->trace.fix && !v->trace.fix->changes.empty()) {
    // The cheapest complete fix (docs/FIX.md) as SARIF's fix object: text replacements.
    const properties::Fix& f = *v->trace.fix;
    json replacements = json::array();
    for (const properties::SourceEdit& x : f.changes)
      replacements.push_back(
          {{"deletedRegion", deleted_region(e.c, x)}, {"insertedContent", {{"text", x.text}}}});
    // Each edit line ends with its own cost; several add up to the total.
    std::string what = fmt::format("{}", fmt::join(f.edits, "; "));
    if (f.edits.size() > 1) what += fmt::format("; total cost {:+}", f.cost);
    res["fixes"] = json::array(
        {{{"description", {{"text", what}}},
          {"artifactChanges", json::array({{{"artifactLocation", {{"uri", uri(e.path)}}},
                                            {"replacements", replacements}}})}}});
  }
  return res;
}

json lint_result(const CaseEntry& e, const lang::Diagnostic& d) {
  return {{"ruleId", "L-CASE"},
          {"ruleIndex", kLintRule},
          {"level", d.severity == model::Severity::Error ? "error" : "warning"},
          {"message", {{"text", d.message}}},
          {"locations", json::array({location(e, d.loc.line, d.loc.col, "")})}};
}

}  // namespace

std::string write_sarif(const Run& r) {
  json results = json::array();
  json notifications = json::array();
  for (const CaseEntry& e : r.cases) {
    // A case whose `# expect:` markers all match lists diagnostics it means to have.
    // An unreadable file is a notification: there is no line to show a result on.
    if (e.status != CaseStatus::LintOnly && e.status != CaseStatus::Unreadable &&
        e.status != CaseStatus::Rejected && !e.expected_diags)
      for (const lang::Diagnostic& d : e.diags) results.push_back(lint_result(e, d));
    if (e.status == CaseStatus::Unreadable || e.status == CaseStatus::Rejected ||
        e.status == CaseStatus::InternalError || e.status == CaseStatus::NotAsExpected)
      notifications.push_back({{"level", "error"},
                               {"message", {{"text", fmt::format("{}: {}", e.display, e.message)}}},
                               {"locations", json::array({location(e, 1, 0, "")})}});
    for (const std::string& d : e.disagreements)
      notifications.push_back({{"level", "error"}, {"message", {{"text", d}}}});
    for (const properties::PropertyResult& pr : e.result.results)
      if (auto level = level_of(e.c.properties.at(pr.property), pr))
        results.push_back(property_result(e, pr, *level));
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", "syncproof"},
                  {"version", r.version},
                  {"semanticVersion", r.version},
                  {"rules", rules()}}}}},
              // Successful means complete (SARIF 2.1.0 §3.20.14): every question answered, so
              // the results are all there is, violations included.
              {"invocations", json::array({{{"executionSuccessful", complete(r)},
                                            {"exitCode", r.exit_code},
                                            {"toolExecutionNotifications", notifications}}})},
              {"columnKind", "unicodeCodePoints"},
              {"results", results}};
  json doc = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
              {"version", "2.1.0"},
              {"runs", json::array({run})}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace syncproof::report
