#pragma once
// `syncproof check --format json`: the whole run as one JSON document (docs/REPORTS.md, schema
// docs/report.schema.json). Each result struct has one function below that turns it into JSON:
// a field added to a struct (a fix's edits, say) is one line in that function.
#include <nlohmann/json.hpp>
#include <string>

#include "report/run.h"

namespace syncproof::report {

inline constexpr int kJsonReportVersion = 1;

nlohmann::ordered_json to_json(const properties::TraceLine& l, size_t step);
nlohmann::ordered_json to_json(const properties::Trace& t);
nlohmann::ordered_json to_json(
    const properties::Verdict& v);  // {"verdict": ..., and its own fields}
nlohmann::ordered_json to_json(const lang::Diagnostic& d, const std::string& file);
nlohmann::ordered_json property_json(const CaseEntry& e, const properties::PropertyResult& r);
nlohmann::ordered_json case_json(const CaseEntry& e);
nlohmann::ordered_json run_json(const Run& r);

std::string write_json(const Run& r);  // pretty-printed, ends with a newline

}  // namespace syncproof::report
