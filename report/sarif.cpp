#include "report/sarif.h"

#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>

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

// SARIF URIs are relative references: a path with its separators, percent-encoding the rest.
std::string uri(std::string_view path) {
  std::string out;
  for (unsigned char ch : path) {
    if (std::isalnum(ch) ||
        std::string_view("/-._~").find(static_cast<char>(ch)) != std::string_view::npos)
      out += static_cast<char>(ch);
    else
      out += fmt::format("%{:02X}", ch);
  }
  return out;
}

json location(const std::string& file, uint32_t line, uint32_t col, const std::string& message) {
  json region = {{"startLine", std::max<uint32_t>(line, 1)}};
  if (col) region["startColumn"] = col;
  json loc = {
      {"physicalLocation", {{"artifactLocation", {{"uri", uri(file)}}}, {"region", region}}}};
  if (!message.empty()) loc["message"] = {{"text", message}};
  return loc;
}

json code_flow(const std::string& file, const properties::Trace& t) {
  json steps = json::array();
  for (size_t i = 0; i < t.lines.size(); ++i) {
    const properties::TraceLine& l = t.lines[i];
    steps.push_back(
        {{"location", location(file, l.line, 0,
                               fmt::format("t={} {}: {}: {}", l.time, l.queue, l.command, l.what))},
         {"executionOrder", i + 1},
         {"nestingLevel", 0}});
  }
  return {{"message", {{"text", t.why}}}, {"threadFlows", json::array({{{"locations", steps}}})}};
}

std::string_view level_of(const model::Property& p, const properties::PropertyResult& r) {
  if (!r.as_expected) return "error";
  if (p.expect == model::Expectation::Violated) return "note";  // the case expects it
  return "warning";                                             // `check`: report only
}

json property_result(const CaseEntry& e, const properties::PropertyResult& r) {
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
              {"level", level_of(p, r)},
              {"message", {{"text", msg}}},
              {"locations", json::array({location(e.c.file, p.loc.line, p.loc.col, "")})},
              {"partialFingerprints",
               {{"syncproofProperty/v1", fmt::format("{}:{}", e.path, property_text(e.c, p))}}},
              {"properties", to_json(r.verdict)}};
  res["properties"].erase("trace");  // it is the code flow
  if (v) res["codeFlows"] = json::array({code_flow(e.c.file, v->trace)});
  if (v && v->trace.fix && !v->trace.fix->changes.empty()) {
    // The cheapest complete fix (docs/FIX.md) as SARIF's fix object: text replacements.
    const properties::Fix& f = *v->trace.fix;
    json replacements = json::array();
    for (const properties::SourceEdit& x : f.changes)
      replacements.push_back(
          {{"deletedRegion",
            {{"startLine", x.line}, {"startColumn", x.col}, {"charLength", x.len}}},
           {"insertedContent", {{"text", x.text}}}});
    res["fixes"] = json::array(
        {{{"description",
           {{"text", fmt::format("{} (cost {:+})", fmt::join(f.edits, "; "), f.cost)}}},
          {"artifactChanges", json::array({{{"artifactLocation", {{"uri", uri(e.c.file)}}},
                                            {"replacements", replacements}}})}}});
  }
  return res;
}

json lint_result(const CaseEntry& e, const lang::Diagnostic& d) {
  return {
      {"ruleId", "L-CASE"},
      {"ruleIndex", kLintRule},
      {"level", d.severity == model::Severity::Error ? "error" : "warning"},
      {"message", {{"text", d.message}}},
      {"locations",
       json::array({location(e.c.file.empty() ? e.path : e.c.file, d.loc.line, d.loc.col, "")})}};
}

}  // namespace

std::string write_sarif(const Run& r) {
  json results = json::array();
  json notifications = json::array();
  for (const CaseEntry& e : r.cases) {
    // A case whose `# expect:` markers all match lists diagnostics it means to have.
    // An unreadable file is a notification: there is no line to show a result on.
    if (e.status != CaseStatus::LintOnly && e.status != CaseStatus::Unreadable &&
        e.status != CaseStatus::Rejected)
      for (const lang::Diagnostic& d : e.diags) results.push_back(lint_result(e, d));
    if (e.status == CaseStatus::Unreadable || e.status == CaseStatus::Rejected ||
        e.status == CaseStatus::InternalError || e.status == CaseStatus::NotAsExpected)
      notifications.push_back({{"level", "error"},
                               {"message", {{"text", fmt::format("{}: {}", e.path, e.message)}}},
                               {"locations", json::array({location(e.path, 1, 0, "")})}});
    for (const std::string& d : e.disagreements)
      notifications.push_back({{"level", "error"}, {"message", {{"text", d}}}});
    for (const properties::PropertyResult& pr : e.result.results) {
      const model::Property& p = e.c.properties.at(pr.property);
      if (std::holds_alternative<properties::Violated>(pr.verdict) || !pr.as_expected ||
          (p.expect == model::Expectation::Report &&
           !std::holds_alternative<properties::Proved>(pr.verdict)))
        results.push_back(property_result(e, pr));
    }
  }
  json run = {{"tool",
               {{"driver",
                 {{"name", "syncproof"},
                  {"version", r.version},
                  {"semanticVersion", r.version},
                  {"rules", rules()}}}}},
              {"invocations", json::array({{{"executionSuccessful", r.exit_code == 0},
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
