// The reports (report/): each format is parsed back (JSON with nlohmann, JUnit with pugixml,
// SARIF as JSON) and checked against the text report of the same batch.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "report/json.h"
#include "report/junit.h"
#include "report/sarif.h"
#include "report/text.h"
#include "tools/batch.h"

using namespace syncproof;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A small batch written to a temporary directory: a proof, an expected violation, a surprise
// (a `prove` that fails), a case with a lint error, a lint-only case and a missing file.
struct Batch {
  fs::path dir = fs::temp_directory_path() / fmt::format("syncproof-test-reports-{}", ::getpid());
  report::Run run;
  std::string text;  // the text report, as `syncproof check` prints it

  // `prefix` goes before every case file's text (a line moves every line of the file).
  explicit Batch(const std::vector<std::string>& names = {}, std::string_view prefix = "") {
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto write = [&](const fs::path& p, const std::string& body) {
      std::ofstream(p) << prefix << body;
    };
    const std::string head =
        "queue acs compute\nbuffer grid 0x10000 0x4000\non acs:\n"
        "  produce: Dispatch writes grid as uav\n"
        "  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n";
    write(dir / "a-proved.sync",
          head +
              "  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, "
              "D3D12XBOX_FLUSH_RANGE_ALL)\n  consume: Dispatch reads grid as srv\n"
              "prove visible produce -> consume\nprove deadlock-free\n");
    write(dir / "b-refuted.sync",
          head +
              "  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
              "  consume: Dispatch reads grid as srv\n"
              "refute visible produce -> consume missing GL1_INVALIDATE\n");
    write(dir / "c-surprise.sync", head +
                                       "  consume: Dispatch reads grid as srv\n"
                                       "prove visible produce -> consume\nprove no-hazards\n");
    write(dir / "d-lint-error.sync",
          "queue acs compute\non acs:\n  SyncTopOfPipeX(GL1_INVALIDTE, "
          "NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n");
    write(dir / "e-lint-only.sync",
          "queue acs compute\n"
          "fence f\non acs:\n  Wait(f, 1)  # expect: warning nothing signals fence 'f'\n");
    std::vector<lang::CaseInput> inputs;
    const std::vector<std::string> all = {"a-proved.sync",    "b-refuted.sync",
                                          "c-surprise.sync",  "d-lint-error.sync",
                                          "e-lint-only.sync", "f-missing.sync"};
    for (const std::string& f : names.empty() ? all : names)
      inputs.push_back({(dir / f).string(), (dir / f).string(), "", lang::FileProblem::None});
    cli::EngineRun settings;
    run.version = "test";
    run.engine = "smt";
    cli::run_batch(inputs, settings, {2}, [&](cli::CaseOutcome& o) {
      text += report::case_report(o.entry, {});
      run.cases.push_back(std::move(o.entry));
    });
    text += report::summary_text(run, {});
    run.exit_code = static_cast<int>(cli::exit_code(run));
  }
  ~Batch() { fs::remove_all(dir); }

  const report::CaseEntry& entry(std::string_view name) const {
    for (const auto& e : run.cases)
      if (e.path.ends_with(name)) return e;
    FAIL("no case " << name);
    return run.cases.front();
  }
  bool printed(const std::string& line) const { return text.find(line) != std::string::npos; }
};

// The text report's line for a property, rebuilt from a JSON property object.
std::string header_line(const json& c, const json& p) {
  std::string detail;
  if (p["verdict"] == "proved" && !p["assumptions"].empty())
    detail =
        fmt::format(" [{}]", fmt::join(p["assumptions"].get<std::vector<std::string>>(), ", "));
  if (p.contains("reason")) detail = ": " + p["reason"].get<std::string>();
  if (p.contains("message")) detail = ": " + p["message"].get<std::string>();
  return fmt::format("{}:{}: {} {}: {}{}", c["file"].get<std::string>(), p["line"].get<int>(),
                     p["expect"].get<std::string>(), p["property"].get<std::string>(),
                     p["verdict"].get<std::string>(), detail);
}

// The text report's trace line for a JSON trace event.
std::string event_line(const json& ev) {
  return fmt::format("{:>3}. t={:<3} {:<8} line {:<4} {:<40} {}", ev["step"].get<int>(),
                     ev["time"].get<long long>(), ev["queue"].get<std::string>(),
                     ev["line"].get<int>(), ev["command"].get<std::string>(),
                     ev["what"].get<std::string>());
}

}  // namespace

TEST_CASE("JSON: every case and property, with the text report's verdicts, traces and why") {
  Batch b;
  json doc = json::parse(report::write_json(b.run));
  REQUIRE(doc["cases"].size() == 6);
  CHECK(doc["syncproof"]["report_version"] == report::kJsonReportVersion);
  size_t props = 0, events = 0;
  for (const json& c : doc["cases"]) {
    for (const json& p : c.value("properties", json::array())) {
      ++props;
      CAPTURE(header_line(c, p));
      CHECK(b.printed(header_line(c, p)));
      if (p["verdict"] != "violated") continue;
      for (const json& ev : p["trace"]["events"]) {
        CHECK(b.printed(event_line(ev)));
        ++events;
      }
      CHECK(b.printed("    why: " + p["trace"]["why"].get<std::string>() + "\n"));
      CHECK(b.printed(
          "    missing: " +
          fmt::format("{}",
                      fmt::join(p["trace"]["missing"].get<std::vector<std::string>>(), " or "))));
    }
  }
  CHECK(props == 5);
  CHECK(events > 5);
  const json& a = doc["cases"][0];
  CHECK(a["status"] == "checked");
  CHECK(a["properties"][0]["rule"] == "P-VISIBLE");
  CHECK(a["properties"][1]["rule"] == "P-DEADLOCK-FREE");
  CHECK(a["config"]["profile"] == "rdna2");
  const json& bref = doc["cases"][1]["properties"][0];
  CHECK(bref["verdict"] == "violated");
  CHECK(bref["as_expected"] == true);
  CHECK(bref["expect_missing"] == json::array({"D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE"}));
  CHECK(doc["cases"][2]["properties"][0]["as_expected"] == false);
  const json& lint = doc["cases"][3];
  CHECK(lint["status"] == "input-errors");
  REQUIRE(lint["diagnostics"].size() == 1);
  CHECK(lint["diagnostics"][0]["line"] == 3);
  CHECK(lint["diagnostics"][0]["column"] == 18);
  CHECK(lint["diagnostics"][0]["message"].get<std::string>().find("GL1_INVALIDTE") !=
        std::string::npos);
  CHECK(doc["cases"][4]["status"] == "lint-only");
  CHECK(doc["cases"][5]["status"] == "unreadable");
  const json& s = doc["summary"];
  CHECK(s["properties"] == 5);
  CHECK(s["not_as_expected"] == 2);  // c-surprise's two properties
  CHECK(s["gave_up"] == 0);
  CHECK(s["input_errors"] == 1);
  CHECK(s["unreadable"] == 1);
  CHECK(s["exit_code"] == 4);
}

TEST_CASE("JUnit: one testcase per property, failures carry the verdict and the trace") {
  Batch b;
  pugi::xml_document doc;
  const std::string xml = report::write_junit(b.run);
  REQUIRE(doc.load_string(xml.c_str()));
  pugi::xml_node root = doc.child("testsuites");
  REQUIRE(root);
  CHECK(root.attribute("tests").as_int() == 5 + 3);  // 5 properties, lint, lint-only, unreadable
  CHECK(root.attribute("failures").as_int() == 3);   // c-surprise twice, d-lint-error
  CHECK(root.attribute("errors").as_int() == 1);     // f-missing
  std::vector<std::string> names;
  for (pugi::xml_node s : root.children("testsuite")) {
    size_t n = 0;
    for (pugi::xml_node tc : s.children("testcase")) {
      ++n;
      names.push_back(tc.attribute("name").as_string());
      // What the published schemas allow on a testcase (tests/report/junit-10.xsd), a time
      // always among them.
      std::vector<std::string> attributes;
      for (pugi::xml_attribute a : tc.attributes()) attributes.emplace_back(a.name());
      CHECK(attributes == std::vector<std::string>{"name", "classname", "time"});
    }
    CHECK(s.attribute("tests").as_ullong() == n);
  }
  CHECK(names == std::vector<std::string>{"prove visible produce -> consume", "prove deadlock-free",
                                          "refute visible produce -> consume",
                                          "prove visible produce -> consume", "prove no-hazards",
                                          "lint", "diagnostics as expected", "read"});
  pugi::xml_node surprise =
      root.find_child_by_attribute("testsuite", "name", (b.dir / "c-surprise.sync").c_str());
  pugi::xml_node fail = surprise.first_child().child("failure");
  REQUIRE(fail);
  CHECK(std::string(fail.attribute("message").as_string()) ==
        "P-VISIBLE: violated (prove expected)");
  CHECK(std::string(fail.attribute("type").as_string()) == "P-VISIBLE");
  const std::string body = fail.text().as_string();
  const json doc_json = json::parse(report::write_json(b.run));
  for (const json& ev : doc_json["cases"][2]["properties"][0]["trace"]["events"])
    CHECK(body.find(event_line(ev)) != std::string::npos);
  // The refuted-as-expected property passes, with its counterexample in system-out.
  pugi::xml_node refuted =
      root.find_child_by_attribute("testsuite", "name", (b.dir / "b-refuted.sync").c_str());
  CHECK(!refuted.first_child().child("failure"));
  CHECK(std::string(refuted.first_child().child("system-out").text().as_string())
            .find("missing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE") != std::string::npos);
}

TEST_CASE("SARIF 2.1.0: violations and surprises on their lines, traces as code flows") {
  Batch b;
  json doc = json::parse(report::write_sarif(b.run));
  CHECK(doc["version"] == "2.1.0");
  REQUIRE(doc["runs"].size() == 1);
  const json& run = doc["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  std::vector<std::string> ids;
  for (const json& r : rules) ids.push_back(r["id"]);
  CHECK(ids == std::vector<std::string>{"P-VISIBLE", "P-ORDERED", "P-NO-HAZARDS", "P-DEADLOCK-FREE",
                                        "L-CASE"});
  // c twice (surprises: errors), d's lint error; b's refutation is what it states and e's
  // diagnostics are what its markers expect: neither is a result.
  const json& results = run["results"];
  std::vector<std::string> seen;
  for (const json& r : results) {
    REQUIRE(r["ruleIndex"].get<size_t>() < rules.size());
    CHECK(rules[r["ruleIndex"].get<size_t>()]["id"] == r["ruleId"]);
    const json& loc = r["locations"][0]["physicalLocation"];
    seen.push_back(
        fmt::format("{} {} {} {}",
                    fs::path(loc["artifactLocation"]["uri"].get<std::string>()).filename().string(),
                    loc["region"]["startLine"].get<int>(), r["ruleId"].get<std::string>(),
                    r["level"].get<std::string>()));
  }
  INFO(fmt::format("{}", fmt::join(seen, " | ")));
  CHECK(seen == std::vector<std::string>{"c-surprise.sync 7 P-VISIBLE error",
                                         "c-surprise.sync 8 P-NO-HAZARDS error",
                                         "d-lint-error.sync 3 L-CASE error"});
  // The code flow holds the trace, each step at its command's line.
  const report::CaseEntry& c = b.entry("c-surprise.sync");
  const auto& trace = std::get<properties::Violated>(c.result.results[0].verdict).trace;
  const json& steps = results[0]["codeFlows"][0]["threadFlows"][0]["locations"];
  REQUIRE(steps.size() == trace.lines.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    CHECK(steps[i]["location"]["physicalLocation"]["region"]["startLine"] == trace.lines[i].line);
    CHECK(steps[i]["executionOrder"] == i + 1);
  }
  CHECK(results[0]["message"]["text"].get<std::string>().find(trace.why) != std::string::npos);
  CHECK(run["invocations"][0]["exitCode"] == 4);
  // A case with errors and an unreadable input: the run did not answer everything.
  CHECK(run["invocations"][0]["executionSuccessful"] == false);
  CHECK(run["invocations"][0]["toolExecutionNotifications"].size() == 1);  // f-missing
}

TEST_CASE("SARIF: a run that finds violations but answers everything executed successfully") {
  Batch b({"a-proved.sync", "b-refuted.sync", "c-surprise.sync"});
  CHECK(b.run.exit_code == 4);
  const json run = json::parse(report::write_sarif(b.run))["runs"][0];
  CHECK(run["invocations"][0]["exitCode"] == 4);
  CHECK(run["invocations"][0]["executionSuccessful"] == true);
  CHECK(run["results"].size() == 2);  // c-surprise's two properties
  CHECK(run["columnKind"] == "unicodeCodePoints");
  // Only the expected refutation: no result at all, and still complete.
  Batch quiet({"b-refuted.sync"});
  const json clean = json::parse(report::write_sarif(quiet.run))["runs"][0];
  CHECK(clean["results"].empty());
  CHECK(clean["invocations"][0]["executionSuccessful"] == true);
  CHECK(clean["invocations"][0]["exitCode"] == 0);
}

TEST_CASE("JUnit: test names and class names do not move when the lines of every case move") {
  const auto tests = [](const Batch& b) {
    pugi::xml_document doc;
    REQUIRE(doc.load_string(report::write_junit(b.run).c_str()));
    std::vector<std::string> out;
    for (pugi::xml_node s : doc.child("testsuites").children("testsuite"))
      for (pugi::xml_node tc : s.children("testcase"))
        out.push_back(fmt::format("{} / {}", tc.attribute("classname").as_string(),
                                  tc.attribute("name").as_string()));
    return out;
  };
  const std::vector<std::string> before = tests(Batch());
  Batch moved({}, "# a line inserted at the top\n");
  CHECK(moved.entry("a-proved.sync").c.properties[0].loc.line == 9);  // was 8: it did move
  CHECK(tests(moved) == before);
}

namespace {

// One hand-made case entry whose file holds non-ASCII text and whose path has a control byte.
report::Run odd_run() {
  report::Run r;
  r.version = "test";
  r.engine = "smt";
  report::CaseEntry e;
  e.path = "dir/ctl\x01name \xC3\xA9.sync";
  e.display = "dir/ctl\\x01name \xC3\xA9.sync";
  e.c.file = e.display;
  e.c.lines = {"queue q compute", "  x: Dispatch  # \xC3\xA9t\xC3\xA9",
               "\xE2\x82\xAC\xE2\x82\xAC bogus"};
  e.status = report::CaseStatus::InputErrors;
  e.diags.push_back({model::Severity::Error, {3, 8}, "unknown keyword 'bogus'", 5});
  r.cases.push_back(std::move(e));
  r.exit_code = 2;
  return r;
}

}  // namespace

TEST_CASE("SARIF: columns count code points, URIs percent-encode the path's raw bytes") {
  const json run = json::parse(report::write_sarif(odd_run()))["runs"][0];
  REQUIRE(run["results"].size() == 1);
  const json& loc = run["results"][0]["locations"][0]["physicalLocation"];
  CHECK(loc["artifactLocation"]["uri"] == "dir/ctl%01name%20%C3%A9.sync");
  // Byte 8 of "€€ bogus" is the 'b': two 3-byte characters and a space before it.
  CHECK(loc["region"]["startLine"] == 3);
  CHECK(loc["region"]["startColumn"] == 4);
  CHECK(run["invocations"][0]["executionSuccessful"] == false);  // a case with errors
}

TEST_CASE("JSON and JUnit carry the raw path, each escaped its own way") {
  const report::Run r = odd_run();
  const std::string j = report::write_json(r);
  CHECK(j.find("\"file\": \"dir/ctl\\u0001name \xC3\xA9.sync\"") != std::string::npos);
  CHECK(json::parse(j)["cases"][0]["file"] == "dir/ctl\x01name \xC3\xA9.sync");
  const std::string x = report::write_junit(r);
  // XML 1.0 cannot hold U+0001 at all, not even as &#1;: it becomes U+FFFD.
  CHECK(x.find("name=\"dir/ctl\xEF\xBF\xBDname \xC3\xA9.sync\"") != std::string::npos);
  pugi::xml_document doc;
  CHECK(doc.load_string(x.c_str()));
}

namespace {

// odd_run() with its case checked: one property on line 2, expected `expect`, violated as `v`.
report::Run one_violation(model::Expectation expect, const properties::Violated& v) {
  report::Run r = odd_run();
  report::CaseEntry& e = r.cases[0];
  e.status = report::CaseStatus::Checked;
  e.diags.clear();
  e.c.properties.push_back({});
  e.c.properties[0].expect = expect;
  e.c.properties[0].loc = {2, 1};
  properties::PropertyResult pr;
  pr.property = 0;
  pr.verdict = v;
  pr.as_expected = expect == model::Expectation::Violated;
  e.result.results.push_back(pr);
  return r;
}

}  // namespace

TEST_CASE("SARIF fixes: each edit says its cost once, several add up to a total") {
  properties::Violated v;
  properties::Fix f;
  f.edits = {"f.sync:2: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX (+2)"};
  f.cost = 2;
  f.changes = {{2, 20, 1, "T"}};
  v.trace.fix = f;
  report::Run r = one_violation(model::Expectation::Holds, v);
  report::CaseEntry& e = r.cases[0];
  const auto description = [&] {
    const json run = json::parse(report::write_sarif(r))["runs"][0];
    REQUIRE(run["results"].size() == 1);
    return run["results"][0]["fixes"][0]["description"]["text"].get<std::string>();
  };
  CHECK(description() == "f.sync:2: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX (+2)");
  auto& fix = *std::get<properties::Violated>(e.result.results[0].verdict).trace.fix;
  fix.edits.push_back("f.sync:2: add D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE to SyncTopOfPipeX (+1)");
  fix.cost = 3;
  CHECK(description() ==
        "f.sync:2: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to SyncTopOfPipeX (+2); f.sync:2: add "
        "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE to SyncTopOfPipeX (+1); total cost +3");
  // The 't' of "  x: Dispatch  # été" is byte 20 and code point 19.
  const json run = json::parse(report::write_sarif(r))["runs"][0];
  const json& region =
      run["results"][0]["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"];
  CHECK(region == json{{"startLine", 2}, {"startColumn", 19}, {"endLine", 2}, {"endColumn", 20}});
}

TEST_CASE("a failing count with undecided obligations reads as a lower bound in text and JSON") {
  properties::Violated v;
  v.failing = 3;
  report::Run r = one_violation(model::Expectation::Violated, v);
  report::CaseEntry& e = r.cases[0];
  auto& got = std::get<properties::Violated>(e.result.results[0].verdict);
  const auto text = [&] {
    return report::property_report(e.c, e.c.properties[0], e.result.results[0], {});
  };
  const auto props = [&] {
    return json::parse(report::write_json(r))["cases"][0]["properties"][0];
  };
  CHECK(text().find("    (3 obligations fail; the first is shown)\n") != std::string::npos);
  CHECK(props()["failing_obligations"] == 3);
  CHECK_FALSE(props().contains("undecided_obligations"));
  got.undecided = 2;
  CHECK(text().find(
            "    (at least 3 obligations fail; 2 more left undecided; the first is shown)\n") !=
        std::string::npos);
  CHECK(props()["undecided_obligations"] == 2);
  got.failing = 1;
  CHECK(text().find(
            "    (at least 1 obligation fails; 2 more left undecided; the first is shown)\n") !=
        std::string::npos);
}
