// Exit codes as a priority order (tools/exit_codes.h): every combination of outcomes exits with
// the worst; how each verdict counts; and, end to end, the combinations that used to hide a
// wrong verdict.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "cli_run.h"
#include "properties/result.h"
#include "tools/exit_codes.h"
#include "tools/report.h"

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

TEST_CASE("Summary::exit_code: every combination of outcomes gives the worst of them") {
  // One counter per outcome, in priority order, with the code it stands for.
  struct Outcome {
    Exit code;
    void (*set)(Summary&);
  };
  const std::vector<Outcome> outcomes = {
      {Exit::Disagreement, [](Summary& s) { s.disagreements = 1; }},
      {Exit::Internal, [](Summary& s) { s.internal = 1; }},
      {Exit::NotAsExpected, [](Summary& s) { s.rows["a"].not_as_expected = 1; }},
      {Exit::Unknown, [](Summary& s) { s.rows["b"].gave_up = 1; }},
      {Exit::Unreadable, [](Summary& s) { s.unreadable = 1; }},
      {Exit::Rejected, [](Summary& s) { s.rejected = 1; }},
      {Exit::InputError, [](Summary& s) { s.rows["c"].input_errors = 1; }},
  };
  for (unsigned mask = 0; mask < (1u << outcomes.size()); ++mask) {
    Summary s;
    Exit want = Exit::Ok;
    for (size_t i = outcomes.size(); i-- > 0;)
      if (mask & (1u << i)) {
        outcomes[i].set(s);
        want = outcomes[i].code;  // the lowest index set, i.e. the worst
      }
    CAPTURE(mask);
    CHECK(s.exit_code() == want);
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
    SummaryRow row;
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
    CHECK(r.err.find("--timeout: 0 is not a budget: give at least 1 ms") != std::string::npos);
  }
  CHECK(run_cli({"fuzz", "--seed", "1", "--timeout", "0"}).exit_code == 64);
  CHECK(run_cli({"check", "--timeout", "1", ok}).exit_code != 64);
}
