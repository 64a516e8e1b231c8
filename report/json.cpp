#include "report/json.h"

#include "model/assumptions.h"
#include "properties/obligation.h"

namespace syncproof::report {

using json = nlohmann::ordered_json;

json to_json(const properties::TraceLine& l, size_t step) {
  return {{"step", step},   {"time", l.time},       {"queue", l.queue},
          {"line", l.line}, {"command", l.command}, {"what", l.what}};
}

json to_json(const properties::Trace& t) {
  json events = json::array();
  for (size_t i = 0; i < t.lines.size(); ++i) events.push_back(to_json(t.lines[i], i + 1));
  json j = {{"events", events}, {"why", t.why}, {"missing", t.blamed}};
  if (t.fix) {
    json changes = json::array();
    for (const properties::SourceEdit& e : t.fix->changes)
      changes.push_back({{"line", e.line}, {"col", e.col}, {"len", e.len}, {"text", e.text}});
    j["fix"] = {{"edits", t.fix->edits},
                {"changes", changes},
                {"cost", t.fix->cost},
                {"note", t.fix->note}};
  }
  return j;
}

json to_json(const properties::Verdict& v) {
  json j = {{"verdict", properties::verdict_name(v)}};
  if (const auto* p = std::get_if<properties::Proved>(&v)) {
    j["assumptions"] = p->assumptions;
    j["obligations"] = p->obligations;
  } else if (const auto* x = std::get_if<properties::Violated>(&v)) {
    j["trace"] = to_json(x->trace);
    j["failing_obligations"] = x->failing;
    if (x->undecided > 0) j["undecided_obligations"] = x->undecided;
  } else if (const auto* u = std::get_if<properties::Unknown>(&v)) {
    j["reason"] = u->reason;
  } else if (const auto* e = std::get_if<properties::Error>(&v)) {
    j["message"] = e->message;
  }
  return j;
}

json to_json(const lang::Diagnostic& d, const std::string& file) {
  json j = {{"severity", lang::to_string(d.severity)}, {"file", file}, {"message", d.message}};
  if (d.loc.line) j["line"] = d.loc.line, j["column"] = d.loc.col, j["length"] = d.length;
  return j;
}

json property_json(const CaseEntry& e, const properties::PropertyResult& r) {
  const model::Property& p = e.c.properties.at(r.property);
  json j = {{"index", r.property},
            {"line", p.loc.line},
            {"column", p.loc.col},
            {"rule", properties::property_def(p.kind).id},
            {"kind", model::to_string(p.kind)},
            {"property", property_text(e.c, p)},
            {"expect", expectation_word(p.expect)},
            {"expect_missing", p.missing},
            {"as_expected", r.as_expected},
            {"ms", r.ms}};
  j.update(to_json(r.verdict));
  return j;
}

json case_json(const CaseEntry& e) {
  json diags = json::array();
  for (const lang::Diagnostic& d : e.diags) diags.push_back(to_json(d, e.path));
  json j = {{"file", e.path}, {"status", to_string(e.status)}, {"diagnostics", diags}};
  if (!e.c.title.empty()) j["title"] = e.c.title;
  if (!e.message.empty()) j["message"] = e.message;
  if (e.status != CaseStatus::Checked) return j;
  const model::ModelConfig& cfg = e.result.config;
  std::vector<std::string> on;
  for (const model::AssumptionDef& a : model::all_assumptions())
    if (cfg.assumptions.enabled(a.id)) on.emplace_back(a.name);
  j["config"] = {
      {"profile", model::to_string(cfg.profile)},
      {"assumptions", on},
      {"target", {{"name", cfg.target.name}, {"gl2-rb-coherent", cfg.target.gl2_rb_coherent}}}};
  j["events"] = e.result.events;
  j["constraints"] = e.result.constraints;
  if (e.result.states) j["states"] = e.result.states;
  j["ms"] = e.result.ms;
  json props = json::array();
  for (const properties::PropertyResult& r : e.result.results) props.push_back(property_json(e, r));
  j["properties"] = props;
  if (!e.disagreements.empty()) j["engine_disagreements"] = e.disagreements;
  return j;
}

json run_json(const Run& r) {
  json cases = json::array();
  for (const CaseEntry& e : r.cases) cases.push_back(case_json(e));
  const Totals t = totals(r);
  return {{"syncproof", {{"version", r.version}, {"report_version", kJsonReportVersion}}},
          {"run",
           {{"engine", r.engine},
            {"profile", r.profile.empty() ? json(nullptr) : json(r.profile)},
            {"assume", r.assume},
            {"jobs", r.jobs},
            {"shard", {{"index", r.shard}, {"count", r.shards}}},
            {"ms", r.ms}}},
          {"cases", cases},
          {"summary",
           {{"cases", t.cases},
            {"properties", t.properties},
            {"proved", t.proved},
            {"violated", t.violated},
            {"unknown", t.unknown},
            {"errors", t.errors},
            {"as_expected", t.as_expected},
            {"not_as_expected", t.not_as_expected},
            {"gave_up", t.gave_up},
            {"input_errors", t.input_errors},
            {"unreadable", t.unreadable},
            {"rejected", t.rejected},
            {"internal_errors", t.internal},
            {"exit_code", r.exit_code}}}};
}

std::string write_json(const Run& r) {
  // Paths are their raw bytes, JSON-escaped (a control character becomes \u00XX); bytes that are
  // not UTF-8, which a JSON string cannot hold, become U+FFFD rather than an exception.
  return run_json(r).dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace syncproof::report
