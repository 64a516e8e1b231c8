// Where the command line's output goes, as compilers do it: reports on standard output,
// diagnostics about inputs on standard error; and colour only where asked or on a terminal
// (--color auto|always|never, NO_COLOR). Every run here has pipes for both streams, so `auto` never
// colours: the tests do not depend on whether CTest has a terminal.
#include <doctest/doctest.h>

#include <string>

#include "cli_run.h"

using namespace syncproof::testing;

namespace {

CliRun in_source(const std::vector<std::string>& args,
                 std::vector<std::pair<std::string, std::string>> env = {}) {
  CliOptions o;
  o.cwd = SYNCPROOF_SOURCE_DIR;
  o.env = std::move(env);
  return run_cli(args, o);
}

const char* const kWarned = "cases/regress/1322-deadlock-free-verdict.sync";
const char* const kWarning =
    "cases/regress/1322-deadlock-free-verdict.sync:10:8: warning: nothing signals fence 'f1': "
    "this wait never completes\n"
    "  Wait(f1, 2)\n"
    "       ^~\n";

}  // namespace

TEST_CASE("check: the verdicts and the summary on standard output, the warning on standard error") {
  const CliRun r = in_source({"check", kWarned});
  CHECK(r.exit_code == 0);
  CHECK(r.err == kWarning);
  CHECK(r.out.find(std::string(kWarned) + ":12: refute deadlock-free: violated\n") == 0);
  CHECK(r.out.find("warning") == std::string::npos);
  CHECK(r.out.find("\n1 cases, 1 properties: 1 as expected") != std::string::npos);
  // A machine-readable format on standard output is alone there; the diagnostics stay on stderr.
  const CliRun j = in_source({"check", "--format", "json", kWarned});
  CHECK(j.err == kWarning);
  CHECK(j.out.find("{\n") == 0);
  CHECK(j.out.find("\"severity\": \"warning\"") != std::string::npos);
}

TEST_CASE("lint: diagnostics on standard error, the summary line on standard output") {
  const CliRun r = in_source({"lint", kWarned});
  CHECK(r.exit_code == 1);
  CHECK(r.err == kWarning);
  CHECK(r.out == "1 file, 0 errors, 1 warning\n");
}

TEST_CASE("--color: verdicts and severities coloured when asked, never otherwise") {
  const std::string no_gl1 = "cases/same-queue/uav-to-srv-no-gl1.sync";
  const CliRun always = in_source({"check", "--color", "always", no_gl1});
  CHECK(always.out.find(no_gl1 +
                        ":13: refute visible produce -> consume: \033[32mviolated\033[0m\n") == 0);
  for (const char* mode : {"never", "auto"}) {
    CAPTURE(mode);
    const CliRun r = in_source({"check", "--color", mode, no_gl1});
    CHECK(r.out.find(no_gl1 + ":13: refute visible produce -> consume: violated\n") == 0);
    CHECK(r.out.find('\033') == std::string::npos);
  }
  CHECK(in_source({"check", no_gl1}).out.find('\033') == std::string::npos);  // auto by default
  // --color always wins over NO_COLOR (no-color.org: an explicit option overrides it).
  CHECK(in_source({"check", "--color", "always", no_gl1}, {{"NO_COLOR", "1"}})
            .out.find("\033[32mviolated\033[0m") != std::string::npos);
  // Diagnostics: the severity word.
  const CliRun w = in_source({"lint", "--color", "always", kWarned});
  CHECK(w.err.find(std::string(kWarned) + ":10:8: \033[1;35mwarning\033[0m: nothing signals") == 0);
  CHECK(w.out == "1 file, 0 errors, 1 warning\n");
  // A bad value is a usage error.
  const CliRun bad = in_source({"check", "--color", "sometimes", no_gl1});
  CHECK(bad.exit_code == 64);
  CHECK(bad.err == "syncproof check: --color: expected auto, always or never, got 'sometimes'\n");
}

TEST_CASE("--color always: a property against its expectation is bold red, with its marker") {
  ScratchDir d;
  const std::string f = d.write("wrong.sync", R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  const CliRun r = run_cli({"check", "--color", "always", "--no-fix", f});
  CHECK(r.exit_code == 4);
  CHECK(r.out.find(f + ":6: prove visible produce -> consume: \033[1;31mviolated\033[0m\033[1;31m  "
                       "<-- NOT AS EXPECTED\033[0m\n") == 0);
}
