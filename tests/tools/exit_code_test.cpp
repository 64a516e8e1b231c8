// Exit codes as a priority order (tools/exit_codes.h): every combination of outcomes exits with
// the worst; how each verdict counts; and, end to end, the combinations that used to hide a
// wrong verdict.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "cli_run.h"
#include "properties/result.h"
#include "report/run.h"
#include "tools/batch.h"
#include "tools/exit_codes.h"

using namespace syncproof;
using namespace syncproof::cli;
using namespace syncproof::testing;

TEST_CASE("the order: 6 > 70 > 4 > 5 > 3 > 7 > 2 > 1 > 0") {
  const Exit order[] = {Exit::Disagreement, Exit::Internal,   Exit::NotAsExpected,
                        Exit::Unknown,      Exit::Unreadable, Exit::Rejected,
                        Exit::InputError,   Exit::Warnings,   Exit::Ok};
  for (size_t i = 0; i < std::size(order); ++i)
    for (size_t j = 0; j < std::size(order); ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(worse(order[i], order[j]) == order[std::min(i, j)]);
    }
}

TEST_CASE("the documented table lists every code once, worst first") {
  std::vector<Exit> listed;
  for (const ExitDoc& d : kExitDocs) listed.push_back(d.code);
  CHECK(listed.size() == 11);
  for (size_t i = 1; i < listed.size(); ++i) {
    CAPTURE(i);
    CHECK(severity(listed[i - 1]) > severity(listed[i]));
  }
}

TEST_CASE("exit_code(run): every combination of outcomes gives the worst of them") {
  // One outcome per entry (or counter), in priority order, with the code it stands for.
  const auto entry = [](report::CaseStatus s) {
    report::CaseEntry e;
    e.status = s;
    return e;
  };
  struct Outcome {
    Exit code;
    std::function<void(report::Run&)> set;
  };
  const std::vector<Outcome> outcomes = {
      {Exit::Disagreement, [](report::Run& r) { r.engines.problems = 1; }},
      {Exit::Internal,
       [&](report::Run& r) { r.cases.push_back(entry(report::CaseStatus::InternalError)); }},
      {Exit::NotAsExpected,
       [&](report::Run& r) { r.cases.push_back(entry(report::CaseStatus::NotAsExpected)); }},
      {Exit::Unknown,
       [&](report::Run& r) {
         report::CaseEntry e = entry(report::CaseStatus::Checked);
         e.c.properties.push_back({});
         e.c.properties[0].expect = model::Expectation::Holds;
         properties::PropertyResult pr;
         pr.property = 0;
         pr.verdict = properties::Unknown{"timeout"};
         e.result.results.push_back(pr);
         r.cases.push_back(std::move(e));
       }},
      {Exit::Unreadable,
       [&](report::Run& r) { r.cases.push_back(entry(report::CaseStatus::Unreadable)); }},
      {Exit::Rejected,
       [&](report::Run& r) { r.cases.push_back(entry(report::CaseStatus::Rejected)); }},
      {Exit::InputError,
       [&](report::Run& r) { r.cases.push_back(entry(report::CaseStatus::InputErrors)); }},
  };
  for (unsigned mask = 0; mask < (1u << outcomes.size()); ++mask) {
    report::Run r;
    Exit want = Exit::Ok;
    for (size_t i = outcomes.size(); i-- > 0;)
      if (mask & (1u << i)) {
        outcomes[i].set(r);
        want = outcomes[i].code;  // the lowest index set, i.e. the worst
      }
    CAPTURE(mask);
    CHECK(exit_code(r) == want);
  }
}

TEST_CASE("how each verdict counts, per expectation") {
  using properties::Error, properties::Proved, properties::Unknown, properties::Violated;
  struct Row {
    model::Expectation expect;
    properties::Verdict verdict;
    size_t not_as_expected, gave_up;
  };
  const Row rows[] = {
      {model::Expectation::Holds, Proved{}, 0, 0},
      {model::Expectation::Holds, Violated{}, 1, 0},
      {model::Expectation::Holds, Unknown{"timeout"}, 0, 1},
      {model::Expectation::Holds, Error{"internal"}, 1, 0},
      {model::Expectation::Violated, Violated{}, 0, 0},
      {model::Expectation::Violated, Proved{}, 1, 0},
      {model::Expectation::Violated, Unknown{"timeout"}, 0, 1},
      {model::Expectation::Violated, Error{"internal"}, 1, 0},
      {model::Expectation::Report, Proved{}, 0, 0},
      {model::Expectation::Report, Violated{}, 0, 0},
      {model::Expectation::Report, Unknown{"timeout"}, 0, 0},  // a check line's verdict
      {model::Expectation::Report, Error{"internal"}, 1, 0},   // an error is never as expected
  };
  for (const Row& r : rows) {
    model::Property p;
    p.expect = r.expect;
    encode::PropertyResult pr{0, r.verdict, 0, properties::as_expected(p, r.verdict)};
    report::Totals row;
    row.count(p, pr);
    CAPTURE(static_cast<int>(r.expect));
    CAPTURE(r.verdict.index());
    CHECK(row.not_as_expected == r.not_as_expected);
    CHECK(row.gave_up == r.gave_up);
    CHECK(row.as_expected + row.not_as_expected + row.gave_up == 1);
  }
}

namespace {

// One queue: the producer's stores can sit in a stale GL1 line (no GL1_INVALIDATE): the
// visibility property is violated, found in a handful of states.
std::string stale_gl1(const char* verb) {
  return std::string(R"(case "missing GL1_INVALIDATE"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv

)") + verb +
         " visible produce -> consume\n";
}

// Two queues ordered through a label: the ordering proof needs more executor states than the
// budget the tests give (--max-states 5), so it comes out unknown.
std::string war_label(const char* verb) {
  return std::string(R"(case "WAR across a BOP label"
queue gfx graphics
queue acs compute
buffer lut 0x10000 0x4000
texture color 0x800000 0x400000
label done 0x300000

on gfx:
  read: Draw reads lut as srv in ps, writes color as rt
  Write64BitValueBottomOfPipe2X(done, 1, NONE, NONE, NONE)

on acs:
  Wait64BitValueX(done, GREATER_EQUAL, 1)
  overwrite: Dispatch writes lut as uav

)") + verb +
         " ordered read -> overwrite\n";
}

CliRun check_exec(const std::vector<std::string>& files) {
  std::vector<std::string> args = {"check", "--engine", "exec", "--max-states", "5"};
  args.insert(args.end(), files.begin(), files.end());
  return run_cli(args);
}

}  // namespace

TEST_CASE("end to end: an unknown `check` line does not hide a violated `prove` line (4)") {
  ScratchDir d;
  const std::string wrong = d.write("wrong.sync", stale_gl1("prove"));
  const std::string open = d.write("open.sync", war_label("check"));
  CliRun r = check_exec({wrong, open});
  CAPTURE(r.out);
  REQUIRE(r.out.find(wrong + ":11: prove visible produce -> consume: violated") !=
          std::string::npos);
  REQUIRE(r.out.find(open + ":16: check ordered read -> overwrite: unknown") != std::string::npos);
  CHECK(r.exit_code == 4);
}

TEST_CASE("end to end: an unknown `prove` line exits 5, above input errors and unreadable files") {
  ScratchDir d;
  const std::string open = d.write("open.sync", war_label("prove"));
  CHECK(check_exec({open}).exit_code == 5);
  const std::string broken = d.write("broken.sync", "nonsense\n");
  CHECK(check_exec({open, broken, d / "missing.sync"}).exit_code == 5);
  // ... and a `check` line's unknown alone is not a failure
  const std::string report = d.write("report.sync", war_label("check"));
  CHECK(check_exec({report}).exit_code == 0);
  CHECK(check_exec({report, broken}).exit_code == 2);
}

TEST_CASE("end to end: a violated `prove` line exits 4 even next to an unreadable input") {
  ScratchDir d;
  const std::string wrong = d.write("wrong.sync", stale_gl1("prove"));
  CHECK(check_exec({wrong, d / "missing.sync"}).exit_code == 4);
  CHECK(check_exec({d / "missing.sync"}).exit_code == 3);
  const std::string ok = d.write("ok.sync", stale_gl1("refute"));
  CHECK(check_exec({ok}).exit_code == 0);
}

TEST_CASE("end to end: --timeout 0 is a usage error for every engine (64)") {
  ScratchDir d;
  const std::string ok = d.write("ok.sync", stale_gl1("refute"));
  for (const char* engine : {"smt", "exec", "both"}) {
    CliRun r = run_cli({"check", "--engine", engine, "--timeout", "0", ok});
    CHECK(r.exit_code == 64);
    CHECK(r.err ==
          "syncproof check: --timeout: 0 is not a budget: give at least 1 ms (4294967295 for "
          "about 50 days)\n");
  }
  CHECK(run_cli({"check", "--timeout", "1", ok}).exit_code != 64);
}

// Each shared option is checked the same way by every subcommand that takes it, while the
// command line is parsed: the same message (naming the subcommand), exit 64, nothing run.
TEST_CASE("end to end: every subcommand refuses a bad shared option with the same message") {
  ScratchDir d;
  const std::string ok = d.write("ok.sync", stale_gl1("refute"));
  const std::vector<std::vector<std::string>> commands = {
      {"check", ok},
      {"fix", ok},
      {"barrier", "--producer", "cs uav", "--consumer", "ps srv"},
      {"monotone", ok},
      {"fuzz", "--seed", "1", "--count", "1"},
  };
  const std::vector<std::pair<std::vector<std::string>, std::string>> options = {
      {{"--timeout", "0"},
       "--timeout: 0 is not a budget: give at least 1 ms (4294967295 for about 50 days)"},
      {{"--timeout", "x"},
       "--timeout: expected a number of milliseconds, 1 to 4294967295, got 'x'"},
      {{"--budget", "0"}, "--budget: must be at least 1 (engine calls)"},
      {{"--profile", "rdna3"}, "--profile: unknown profile 'rdna3' (strict, rdna2)"},
      {{"--cost", "FOO=1"},
       "--cost: 'FOO=1': 'FOO' has no cost of its own (see model/COSTS.md: sync operations, "
       "control flags and sync commands)"},
      {{"--assume", "+A-INITIAL-ZER0"},
       "--assume: unknown assumption 'A-INITIAL-ZER0'; did you mean 'A-INITIAL-ZERO'? "
       "(model/SEMANTICS.md lists them)"},
  };
  for (const auto& one : options) {
    const std::vector<std::string>& option = one.first;
    const std::string& message = one.second;
    size_t takers = 0;
    for (const auto& command : commands) {
      std::vector<std::string> args = {command[0]};
      args.insert(args.end(), option.begin(), option.end());
      args.insert(args.end(), command.begin() + 1, command.end());
      CliRun r = run_cli(args, within(std::chrono::seconds(60)));
      CAPTURE(args[0]);
      CAPTURE(option[0]);
      if (r.err.find("unknown option") != std::string::npos) continue;  // not one it takes
      ++takers;
      CHECK(r.exit_code == 64);
      CHECK(r.err == "syncproof " + command[0] + ": " + message + "\n");
      CHECK(r.out.empty());
    }
    CAPTURE(option[0]);
    CHECK(takers >= 2);  // --assume: check and fix
  }
}
