// JSON command streams: every case of the library exported and imported back is the same case
// (field by field) with the same diagnostics and the same verdicts; bad streams get located
// errors.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <filesystem>
#include <regex>

#include "encode/check.h"
#include "lang/lint_files.h"
#include "stream/export.h"
#include "stream/import.h"
#include "tests/case_compare.h"

using namespace syncproof;
namespace fs = std::filesystem;

namespace {

std::string verdict_summary(const properties::Verdict& v) {
  std::string s = properties::verdict_name(v);
  if (const auto* p = std::get_if<properties::Proved>(&v))
    s += fmt::format(" [{}]", fmt::join(p->assumptions, ", "));
  if (const auto* x = std::get_if<properties::Violated>(&v))
    s += fmt::format(" missing {}; {} steps", fmt::join(x->trace.blamed, " or "),
                     x->trace.lines.size());
  // `missing:` places a flag on a command by file:line, and the lines are each text's own.
  return std::regex_replace(s, std::regex("[^ ]+:[0-9]+"), "FILE:LINE");
}

std::vector<std::string> messages(const lang::ParseResult& r) {
  std::vector<std::string> out;
  // A message may name another declaration's line ("declared at line 8"): each text's own.
  for (const auto& d : r.diags)
    out.push_back(std::regex_replace(fmt::format("{}: {}", lang::to_string(d.severity), d.message),
                                     std::regex("line [0-9]+"), "line N"));
  return out;
}

std::string rendered(const lang::ParseResult& r) {
  std::string out;
  for (const auto& d : r.diags) out += lang::render_header(d, r.c.file) + "\n";
  return out;
}

}  // namespace

TEST_CASE("every case of the library survives export and import: same case, diagnostics, verdicts" *
          doctest::test_suite("full-size")) {
  size_t cases = 0, properties = 0;
  for (const lang::CaseInput& in :
       lang::collect_case_files({std::string(SYNCPROOF_SOURCE_DIR) + "/cases"})) {
    lang::ParseResult orig = lang::parse_case_file(in.path);
    if (orig.has_errors()) continue;  // nothing to export: the linter stops such a case
    CAPTURE(in.path);
    const std::string text = stream::export_case(orig.c).dump(2);
    lang::ParseResult back = stream::import_text("exported.json", text);
    CHECK(messages(back) == messages(orig));
    CHECK(testing::case_difference(orig.c, back.c) == "");
    // The exported stream's own export is the same text.
    CHECK(stream::export_case(back.c).dump(2) == text);
    const auto a = encode::check_case(orig.c, {});
    const auto b = encode::check_case(back.c, {});
    REQUIRE(a.results.size() == b.results.size());
    for (size_t i = 0; i < a.results.size(); ++i) {
      CHECK(verdict_summary(a.results[i].verdict) == verdict_summary(b.results[i].verdict));
      CHECK(a.results[i].as_expected == b.results[i].as_expected);
    }
    ++cases;
    properties += a.results.size();
  }
  CHECK(cases > 200);
  CHECK(properties > 500);
}

TEST_CASE("import: positions in the JSON file, for the case and its diagnostics") {
  const std::string text = R"({
  "format": "syncproof-stream", "version": 1,
  "queues": [{"name": "acs", "type": "compute"}],
  "resources": [{"name": "grid", "kind": "buffer", "address": "0x10000", "size": 16384}],
  "commands": [
    {"queue": "acs", "label": "produce", "api": "Dispatch",
     "accesses": [{"access": "writes", "resource": "grid", "as": "uav"}]},
    {"queue": "acs", "api": "SyncTopOfPipeX", "SyncFlags": "CS_PARTIAL_FLUSH | GL1_INVALIDATE",
     "ControlFlags": [], "BaseAddress": 0, "SizeInBytes": "D3D12XBOX_FLUSH_RANGE_ALL"}
  ],
  "properties": [{"expect": "prove", "kind": "no-hazards"}]
}
)";
  auto r = stream::import_text("s.json", text);
  CHECK(rendered(r) ==
        "s.json:8:60: error: D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by "
        "SyncTopOfPipeX\n");
  REQUIRE(r.c.queues.size() == 1);
  CHECK(r.c.queues[0].commands[0].loc.line == 6);
  CHECK(r.c.queues[0].commands[0].loc.col == 5);
  CHECK(r.c.resources[0].loc.line == 4);
  CHECK(r.c.lines.size() == 12);
  CHECK(r.c.file == "s.json");
}

TEST_CASE("import: malformed streams are located errors") {
  const std::pair<const char*, const char*> bad[] = {
      {"{\n  \"queues\": [\n    {\"name\": \"q\" \"type\": \"graphics\"}\n  ]\n}\n",
       "s.json:3:18: error: invalid JSON: syntax error while parsing object - unexpected string "
       "literal; expected '}'\n"},
      {"[1, 2]", "s.json:1:1: error: a command stream is a JSON object\n"},
      {"{\"format\": \"other\"}", "s.json:1:12: error: \"format\" must be \"syncproof-stream\"\n"},
      {"{\"queues\": [{\"name\": \"q\"}]}", "s.json:1:13: error: missing field \"type\"\n"},
      {"{\"queues\": [{\"name\": \"q w\", \"type\": \"graphics\"}]}",
       "s.json:1:22: error: \"name\": 'q w' is not a name ([A-Za-z_][A-Za-z0-9_.-]*)\n"},
      {"{\"queues\": [{\"name\": \"q\", \"type\": \"graphics\"}],\n \"commands\": [{\"queue\": "
       "\"q\", \"api\": \"Dispatchh\"}]}",
       "s.json:2:37: error: unknown API 'Dispatchh' (see docs/STREAM-FORMAT.md)\n"},
      {"{\"queues\": [{\"name\": \"q\", \"type\": \"graphics\"}],\n \"commands\": [{\"queue\": "
       "\"q\", \"api\": \"SyncTopOfPipeX\", \"SyncFlags\": \"A\\nqueue x host\", \"ControlFlags\": "
       "0, "
       "\"BaseAddress\": 0, \"SizeInBytes\": 0}]}",
       "s.json:2:68: error: \"SyncFlags\": 'A\\nqueue x host' is not a flag name or number\n"},
      {"{\"bogus\": 1}", "s.json:1:11: error: unknown field \"bogus\"\n"},
  };
  for (const auto& one : bad) {
    const char* json = one.first;
    const char* msg = one.second;
    CAPTURE(json);
    auto r = stream::import_text("s.json", json);
    CHECK(rendered(r) == msg);
    CHECK(r.has_errors());
  }
}
