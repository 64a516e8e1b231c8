// `syncproof check` as CI runs it, through the binary: --jobs gives the output of --jobs 1,
// --shard splits the inputs into disjoint parts that cover them all, --format/--output route
// the reports, bad options are usage errors (exit 64) with their exact message.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "tests/tools/shell_run.h"

using nlohmann::json;
namespace fs = std::filesystem;
using syncproof::testing::Ran;
using syncproof::testing::shell_run;
using syncproof::testing::slurp;

namespace {

// Runs the binary from the source tree (cases/ resolve there), bounded by a timeout.
Ran run(const std::string& args) {
  // CTest runs test cases in parallel processes: every temporary name carries the pid.
  return shell_run(SYNCPROOF_SOURCE_DIR, args,
                   fs::temp_directory_path() / fmt::format("syncproof-cli-{}.err", ::getpid()));
}

// The summary table's time column is the only thing that differs from run to run.
std::string without_times(const std::string& text) {
  return std::regex_replace(text, std::regex(R"( +[0-9]+\.[0-9]+s\n)"), "\n");
}

json without_ms(json j) {
  if (j.is_object()) {
    j.erase("ms");
    for (auto& [k, v] : j.items()) v = without_ms(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = without_ms(v);
  }
  return j;
}

const char* kSome = "cases/cross-queue cases/deadlock cases/lint";

}  // namespace

TEST_CASE("--jobs 2 prints exactly what --jobs 1 prints, text and JSON") {
  Ran one = run(fmt::format("check --jobs 1 {}", kSome));
  Ran two = run(fmt::format("check --jobs 2 {}", kSome));
  CHECK(one.rc == 0);
  CHECK(two.rc == 0);
  CHECK(without_times(one.out) == without_times(two.out));
  Ran j1 = run(fmt::format("check --jobs 1 --format json {}", kSome));
  Ran j2 = run(fmt::format("check --jobs 2 --format json {}", kSome));
  json a = without_ms(json::parse(j1.out)), b = without_ms(json::parse(j2.out));
  CHECK(a["run"]["jobs"] == 1);
  CHECK(b["run"]["jobs"] == 2);
  a["run"].erase("jobs"), b["run"].erase("jobs");
  CHECK(a == b);
}

TEST_CASE("--shard I/N: disjoint parts that together are the whole batch, each valid JUnit") {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("syncproof-cli-shards-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  Ran all = run(fmt::format("check --format junit --output {}/all.xml {}", dir.string(), kSome));
  REQUIRE(all.rc == 0);
  const auto suites = [](const fs::path& f) {
    pugi::xml_document doc;
    REQUIRE(doc.load_file(f.c_str()));
    std::vector<std::string> names;
    for (pugi::xml_node s : doc.child("testsuites").children("testsuite"))
      names.push_back(s.attribute("name").as_string());
    return names;
  };
  const auto whole = suites(dir / "all.xml");
  std::multiset<std::string> merged;
  for (int i = 1; i <= 3; ++i) {
    const fs::path f = dir / fmt::format("r{}.xml", i);
    Ran r = run(fmt::format("check --jobs 0 --shard {}/3 --format junit --output {} {}", i,
                            f.string(), kSome));
    CHECK(r.rc == 0);
    const auto part = suites(f);
    CHECK(!part.empty());
    merged.insert(part.begin(), part.end());
  }
  CHECK(merged == std::multiset<std::string>(whole.begin(), whole.end()));
  CHECK(std::set<std::string>(merged.begin(), merged.end()).size() == merged.size());
  fs::remove_all(dir);
}

TEST_CASE("--format to standard output is the format alone, --output leaves the text on stdout") {
  Ran j = run("check --format json cases/same-queue/uav-to-srv.sync");
  CHECK(j.rc == 0);
  json doc = json::parse(j.out);  // nothing but the JSON document
  CHECK(doc["cases"][0]["properties"][0]["verdict"] == "proved");
  const fs::path dir = fs::temp_directory_path() / fmt::format("syncproof-cli-out-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  Ran both =
      run(fmt::format("check --format sarif --output {0}/r.sarif --format text --output {0}/r.txt "
                      "cases/same-queue/uav-to-srv-no-gl1.sync",
                      dir.string()));
  CHECK(both.rc == 0);
  CHECK(both.out.find("refute visible produce -> consume: violated") != std::string::npos);
  CHECK(slurp(dir / "r.txt") == both.out);
  json sarif = json::parse(slurp(dir / "r.sarif"));
  CHECK(sarif["runs"][0]["results"].empty());  // the refutation the case states is no alert
  CHECK(sarif["runs"][0]["invocations"][0]["executionSuccessful"] == true);
  size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir)) ++files;
  CHECK(files == 2);  // no temporary file left behind
  fs::remove_all(dir);
}

TEST_CASE("bad batch options are usage errors with their message") {
  const std::pair<const char*, const char*> bad[] = {
      {"--shard 0/2", "syncproof check: --shard '0/2': expected I/N with 1 <= I <= N\n"},
      {"--shard 3/2", "syncproof check: --shard '3/2': expected I/N with 1 <= I <= N\n"},
      {"--shard x", "syncproof check: --shard 'x': expected I/N with 1 <= I <= N\n"},
      {"--format xml", "syncproof check: unknown format 'xml' (text, json, junit, sarif)\n"},
      {"--format json --format junit",
       "syncproof check: several --format need as many --output (one file per format)\n"},
      {"--format json --output a.json --output b.xml",
       "syncproof check: 1 --format for 2 --output: give one --format per --output\n"},
      {"--format json --output - --format junit --output -",
       "syncproof check: only one format can go to standard output ('-')\n"},
  };
  for (const auto& one : bad) {
    const char* args = one.first;
    const char* msg = one.second;
    Ran r = run(fmt::format("check {} cases/same-queue/uav-to-srv.sync", args));
    CAPTURE(args);
    CHECK(r.rc == 64);
    CHECK(r.err == msg);
    CHECK(r.out.empty());
  }
}

TEST_CASE("an output that cannot be written is exit 73, says why, and nothing runs") {
  Ran r = run("check --format json --output cases cases/same-queue/uav-to-srv.sync");
  CHECK(r.rc == 73);
  CHECK(r.err == "syncproof check: cannot write cases: it is a directory\n");
  CHECK(r.out.empty());
  // A missing directory is not made: the name is likely a slip.
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("syncproof-cli-nodir-{}", ::getpid());
  fs::remove_all(dir);
  Ran m = run(fmt::format("check -o {}/r.json cases/same-queue/uav-to-srv.sync", dir.string()));
  CHECK(m.rc == 73);
  CHECK(m.err == fmt::format("syncproof check: cannot write {0}/r.json: the directory {0} does not "
                             "exist\n",
                             dir.string()));
  CHECK(m.out.empty());
  CHECK(!fs::exists(dir));
}

TEST_CASE("-o without --format: the name says the format, or the run is refused before it starts") {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("syncproof-cli-infer-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  Ran r =
      run(fmt::format("check --quiet -o {0}/r.json -o {0}/r.xml -o {0}/r.sarif -o {0}/r.txt "
                      "cases/same-queue/uav-to-srv.sync",
                      dir.string()));
  CHECK(r.rc == 0);
  CHECK(json::parse(slurp(dir / "r.json"))["syncproof"]["report_version"] == 1);
  pugi::xml_document doc;
  CHECK(doc.load_file((dir / "r.xml").c_str()));
  CHECK(doc.child("testsuites"));
  CHECK(json::parse(slurp(dir / "r.sarif"))["version"] == "2.1.0");
  CHECK(slurp(dir / "r.txt") == r.out);  // --quiet: only the summary
  Ran bad = run(fmt::format("check -o {}/r.out cases/same-queue/uav-to-srv.sync", dir.string()));
  CHECK(bad.rc == 64);
  CHECK(bad.err == fmt::format("syncproof check: --output '{}/r.out': say which format with "
                               "--format (json, junit, sarif, text); the name does not end in "
                               ".json, .xml, .sarif or .txt\n",
                               dir.string()));
  CHECK(bad.out.empty());
  CHECK(!fs::exists(dir / "r.out"));
  fs::remove_all(dir);
}

TEST_CASE("--version, -V and `version` name syncproof's version and the Z3 it was built with") {
  for (const char* args : {"--version", "-V", "version"}) {
    CAPTURE(args);
    Ran r = run(args);
    CHECK(r.rc == 0);
    CHECK(std::regex_match(r.out, std::regex(R"(syncproof [0-9]+\.[0-9]+ \(Z3 [0-9.]+\)\n)")));
    CHECK(r.err.empty());
  }
}

TEST_CASE("help, --help and `help COMMAND` show the commands and each command's options") {
  Ran h = run("help");
  CHECK(h.rc == 0);
  CHECK(h.out.find("Usage: syncproof [OPTIONS] [SUBCOMMAND]") != std::string::npos);
  CHECK(h.out.find("\n  check ") != std::string::npos);
  CHECK(run("--help").out == h.out);
  Ran c = run("help check");
  CHECK(c.rc == 0);
  CHECK(c.out.find("Usage: syncproof check [OPTIONS] paths...") != std::string::npos);
  CHECK(c.out.find("--format") != std::string::npos);
  CHECK(run("check --help").out == c.out);
  Ran e = run("help exit-codes");
  CHECK(e.rc == 0);
  CHECK(e.out.find("\n  64  bad command line") != std::string::npos);
  Ran bad = run("help chek");
  CHECK(bad.rc == 64);
  CHECK(bad.err == "syncproof help: no command 'chek'; did you mean 'check'?\n");
}

TEST_CASE("a misspelt command or option is a usage error that names the nearest one") {
  const std::pair<const char*, const char*> bad[] = {
      {"chek cases/", "syncproof: unknown command 'chek'; did you mean 'check'?\n"},
      {"frobnicate", "syncproof: unknown command 'frobnicate' (syncproof help lists them)\n"},
      {"check --fromat json cases/same-queue/uav-to-srv.sync",
       "syncproof check: unknown option '--fromat'; did you mean '--format'?\n"},
      {"check --fromat=json cases/same-queue/uav-to-srv.sync",
       "syncproof check: unknown option '--fromat'; did you mean '--format'?\n"},
      {"fix --aply cases/same-queue/uav-to-srv.sync",
       "syncproof fix: unknown option '--aply'; did you mean '--apply'?\n"},
      {"lint --bogus-option cases/lint",
       "syncproof lint: unknown option '--bogus-option' (syncproof help lint lists the "
       "options)\n"},
      {"version extra", "syncproof version: unexpected argument 'extra'\n"},
      {"",
       "syncproof: say which command: check, lint, fix, barrier, export, monotone, fuzz, "
       "encode, decode, help, version (syncproof help)\n"},
  };
  for (const auto& one : bad) {
    const std::string args = one.first;  // CAPTURE takes a reference: not to a structured binding
    CAPTURE(args);
    Ran r = run(args);
    CHECK(r.rc == 64);
    CHECK(r.err == one.second);
    CHECK(r.out.empty());
  }
}

TEST_CASE("--trace-out writes a Perfetto trace and a DOT graph per counterexample") {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("syncproof-cli-traces-{}", ::getpid());
  fs::remove_all(dir);
  Ran r =
      run(fmt::format("check --trace-out {} cases/same-queue/uav-to-srv-no-gl1.sync "
                      "cases/same-queue/uav-to-srv.sync",
                      dir.string()));
  CHECK(r.rc == 0);
  std::set<std::string> files;
  for (const auto& f : fs::directory_iterator(dir)) files.insert(f.path().filename().string());
  CHECK(files ==
        std::set<std::string>{"cases_same-queue_uav-to-srv-no-gl1-L13-visible.dot",
                              "cases_same-queue_uav-to-srv-no-gl1-L13-visible.perfetto.json"});
  json trace =
      json::parse(slurp(dir / "cases_same-queue_uav-to-srv-no-gl1-L13-visible.perfetto.json"));
  CHECK(trace["otherData"]["property"] ==
        "cases/same-queue/uav-to-srv-no-gl1.sync:13: visible produce -> consume");
  fs::remove_all(dir);
}

TEST_CASE("a JSON stream is checked like its case file, and has no # expect: markers") {
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("syncproof-cli-stream-{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  Ran ex = run(fmt::format("export cases/same-queue/uav-to-srv-no-gl1.sync --output {}/s.json",
                           dir.string()));
  REQUIRE(ex.rc == 0);
  // --json is the only format: accepted, and the same.
  CHECK(run("export --json cases/same-queue/uav-to-srv-no-gl1.sync").out == slurp(dir / "s.json"));
  // A title that reads like a marker must not turn the stream into a lint case.
  json doc = json::parse(slurp(dir / "s.json"));
  doc["title"] = "x # expect: error nothing";
  std::ofstream(dir / "s.json") << doc.dump(2);
  Ran r = run(fmt::format("check {}/s.json", dir.string()));
  CHECK(r.rc == 0);
  CHECK(r.out.find("/s.json:") != std::string::npos);
  CHECK(r.out.find("refute visible produce -> consume: violated") != std::string::npos);
  CHECK(r.out.find("missing: D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("missing: names advice that works, and a fence never signalled is told in fence words") {
  // An invalidation that ran too early on the producer's queue: the advice is one on the reader's
  // queue (a new one on the producer's would order nothing for it), and it was checked.
  Ran r = run("check cases/cross-queue/bop-label-gcr-forward.sync");
  CHECK(r.rc == 0);
  CHECK(r.out.find(
            "    missing: D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE in a new SyncTopOfPipeX before "
            "cases/cross-queue/bop-label-gcr-forward.sync:18 (the one at "
            "cases/cross-queue/bop-label-gcr-forward.sync:14 ran before the data reached GL0) "
            "(checked: with it the property is proved)\n") != std::string::npos);
  // IDLE on the Signal2X would not wait for its own pipelined write-back: the write-back goes in
  // a sync of its own before it.
  r = run("check cases/profiles/bop-write-after-own-gcr-off.sync");
  CHECK(r.rc == 0);
  CHECK(r.out.find("    missing: D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK in a new SyncBottomOfPipeX "
                   "before cases/profiles/bop-write-after-own-gcr-off.sync:15 (checked: with it "
                   "the property is proved)\n") != std::string::npos);
  r = run("check cases/deadlock/fence-value-never-signalled.sync");
  CHECK(r.rc == 0);
  CHECK(r.out.find("    why: nothing signals fence 'uploaded' to 2 or more, as the wait at gfx "
                   "line 14 needs (a fence wait completes once a signal has set the fence to its "
                   "value or more)\n") != std::string::npos);
  CHECK(r.out.find("    missing: a signal (Signal or Signal2X) of the fence to the value the wait "
                   "needs\n") != std::string::npos);
}

TEST_CASE(
    "fuzz: the summary gives each engine's rate, its slowest case, the executor's gave-ups, the "
    "verdicts cut short and the metamorphic checks' time") {
  Ran r = run("fuzz --seed 1 --count 4 --no-monotone --quiet");
  CHECK(r.rc == 0);
  // The times differ from run to run; the seeds are among the four checked.
  const std::regex summary(
      R"(^fuzz: seeds 1\.\.4: 4 cases .*; the executor: 0 unknown; cut short: smt 0, exec 0\); smt [0-9.]+ cases/s \(slowest [0-9]+ ms, seed [1-4]\), exec [0-9.]+ cases/s \(slowest [0-9]+ ms, seed [1-4]\), metamorphic checks 0\.0s, [0-9.]+s wall; 0 disagreements, )");
  CHECK_MESSAGE(std::regex_search(r.out, summary), r.out);
}
