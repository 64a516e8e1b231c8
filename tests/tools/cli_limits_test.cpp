// Bounded resources, end to end: a case over the size caps is refused with its numbers (exit 7),
// and a case that needs more memory than --max-memory stops with a message that names the case
// and its size (exit 70) instead of std::bad_alloc escaping or the kernel killing the process.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <sstream>

#include "cli_run.h"
#include "tests/case_fixture.h"
#include "tests/sample.h"
#include "tools/generate.h"

using namespace syncproof;
using namespace syncproof::testing;

constexpr bool kAsan = kSanitized;

// What the process prints when it faults as the address space runs out under `--max-memory MIB`
// (tools/memory_limit.cpp: Z3 dereferences some allocations that failed), instead of crashing.
std::string fault_report(int mib) {
  return fmt::format(
      "syncproof: internal error: out of memory (a fault in the solver or a stack as the address "
      "space ran out; memory limit {} MiB, --max-memory); raise the limit if the machine has the "
      "memory (0: no limit)\n",
      mib);
}

TEST_CASE("check: a case over --max-commands or --max-events is refused with its numbers (7)") {
  ScratchDir d;
  cli::StreamShape shape;
  shape.commands = 40;
  const std::string f = d.write("stream.sync", cli::generate_stream(shape));
  CliRun r = run_cli({"check", "--max-commands", "39", f});
  CHECK(r.exit_code == 7);
  CHECK(r.err == f + ": error: the case has 40 commands, over the cap of 39 per case "
                     "(--max-commands): not checked\n");
  r = run_cli({"check", "--max-events", "100", f});
  CHECK(r.exit_code == 7);
  CHECK(r.err.find(f + ": error: the case lowers to ") == 0);
  CHECK(
      r.err.ends_with(" hardware events (40 commands), over the cap of 100 per case "
                      "(--max-events): not checked\n"));
  CHECK(run_cli({"check", f}).exit_code == 0);  // the defaults take it
}

TEST_CASE("check: --max-events counts the events of the target the engines use (--target)") {
  // A RENDER_TARGET -> PIXEL_SHADER_RESOURCE transition crosses from the render back-ends to the
  // shaders: on the case's own target (GL2 not coherent between them) it also writes back and
  // invalidates GL2 (49 events); with --target gl2-rb-coherent=yes it does not (46). The cap
  // once counted the case's own target whatever --target said, and refused this case.
  ScratchDir d;
  const std::string f = d.write("split.sync",
                                "case \"split transition\"\n"
                                "queue gfx graphics\n"
                                "texture shadow 0x200000 0x40000 state RENDER_TARGET\n"
                                "buffer particles 0x400000 0x1000\n"
                                "on gfx:\n"
                                "  render: Draw writes shadow as rt\n"
                                "  ResourceBarrier(TRANSITION, shadow, RENDER_TARGET, "
                                "PIXEL_SHADER_RESOURCE, BEGIN_ONLY)\n"
                                "  simulate: Dispatch writes particles as uav\n"
                                "  ResourceBarrier(TRANSITION, shadow, RENDER_TARGET, "
                                "PIXEL_SHADER_RESOURCE, END_ONLY)\n"
                                "  light: Draw reads shadow as srv in ps\n"
                                "prove visible render -> light\n");
  CliRun r = run_cli({"check", "--no-fix", "--max-events", "47", f});
  CHECK(r.exit_code == 7);
  CHECK(r.err == f + ": error: the case lowers to 49 hardware events (5 commands), over the cap "
                     "of 47 per case (--max-events): not checked\n");
  r = run_cli({"check", "--no-fix", "--max-events", "47", "--target", "gl2-rb-coherent=yes", f});
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  r = run_cli({"check", "--no-fix", "--max-events", "45", "--target", "gl2-rb-coherent=yes", f});
  CHECK(r.exit_code == 7);
  CHECK(r.err == f + ": error: the case lowers to 46 hardware events (5 commands), over the cap "
                     "of 45 per case (--max-events): not checked\n");
}

// Not under AddressSanitizer: its operator new reports out of memory and aborts instead of
// throwing std::bad_alloc (and --max-memory is not enforced there). scripts/test.sh runs these
// tests in the release build.
//
// The case is sized to need well over the limit, and a small case well under it (about 100 MiB
// of address space): far enough on both sides that neither a leaner engine nor a bigger binary
// moves it across. A 20,000-command stream needed 630 MB in early December 2026; by the 7th it
// needed 145 MiB, under the limit, and the stream doubled: 40,000 commands need 220-260 MiB
// (measured with --max-memory), and stop at 150 MiB within a second. The numbers in the message
// are the case's own, counted here the way the CLI counts them.
TEST_CASE("check: out of memory on a case is reported with the case and its size (70)" *
          doctest::skip(kAsan)) {
  ScratchDir d;
  cli::StreamShape shape;
  shape.commands = 40000;
  const std::string text = cli::generate_stream(shape);
  const std::string f = d.write("big.sync", text);
  const LoweredCase lc(text);
  size_t commands = 0;
  for (const auto& q : lc.c.queues) commands += q.commands.size();
  CliRun r = run_cli({"check", "--max-memory", "150M", f}, within(std::chrono::seconds(300)));
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.exit_code == 70);
  CHECK(r.err.find(fmt::format("{}: internal error: out of memory while checking the case ({} "
                               "commands on {} queues, {} events; memory limit 150 MiB, "
                               "--max-memory); raise the limit if the machine has the memory (0: "
                               "no limit)\n",
                               f, commands, lc.c.queues.size(), lc.p.events.size())) !=
        std::string::npos);
  CHECK(r.out.find("1 internal errors") != std::string::npos);
}

// However low the limit, the run ends with a message and exit 70 (or checks the case), never a
// crash: Z3 answers NULL for a context it cannot allocate (it used to be dereferenced) and a
// thread may fail to start. The sweep crosses every point where an allocation starts failing.
TEST_CASE("check: a memory limit too low for any case is an error, never a crash" *
          doctest::skip(kAsan)) {
  ScratchDir d;
  // Refuted (no GL0/GL1 invalidation): the question reaches the solver, where a proof might
  // need no Z3 context at all.
  const std::string text = R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
refute visible produce -> consume
)";
  const std::string f = d.write("small.sync", text);
  const LoweredCase lc(text);
  const std::string size = fmt::format("({} commands on 1 queues, {} events; memory limit ",
                                       lc.c.queues[0].commands.size(), lc.p.events.size());
  int stopped = 0, checked = 0;
  for (int mib = 20; mib <= 160; mib += 5) {
    const std::string limit = std::to_string(mib) + "M";
    CAPTURE(limit);
    CliRun r = run_cli({"check", "--max-memory", limit, f}, within(std::chrono::seconds(120)));
    CAPTURE(r.exit_code);
    CAPTURE(r.signal);  // a crash: the signal (its stdout, a pipe, may be lost with it)
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(!r.timed_out);
    if (r.exit_code == 0) {
      ++checked;
      CHECK(r.out.find("1 as expected") != std::string::npos);
      continue;
    }
    ++stopped;
    REQUIRE(r.exit_code == 70);
    const bool in_case = r.err.find(f + ": internal error: out of memory while checking the case " +
                                    size) != std::string::npos;
    const bool outside =
        r.err == "syncproof: internal error: out of memory\n" || r.err == fault_report(mib) ||
        r.err.find(
            " (out of resources: the memory limit, --max-memory or ulimit -v, may be too "
            "low)\n") != std::string::npos;
    CHECK((in_case || outside));
  }
  CHECK(stopped > 0);  // the sweep starts below what any run needs ...
  CHECK(checked > 0);  // ... and ends above it
}

// The same for a batch of real cases on one and two workers: each case that runs out is reported
// on its own line and the run goes on; nothing ends in a signal. Before this sweep existed, the
// limits between 40 and 150 MiB over cases/frames crashed in six ways: a worker thread that could
// not start (std::terminate on the joinable threads), the out-of-memory report itself running out,
// Z3_mk_context_rc, Z3_del_context on a context Z3 had left half changed, and z3++ wrapping the
// NULL that Z3 answers for a vector, solver or term it could not allocate.
TEST_CASE("check: a batch under a low memory limit reports each case that runs out, never crashes" *
          doctest::skip(kAsan)) {
  const std::string dir = std::string(SYNCPROOF_SOURCE_DIR) + "/cases/frames";
  int stopped = 0, checked = 0;
  for (int mib = 30; mib <= 300; mib += 13) {
    const std::string limit = std::to_string(mib) + "M", jobs = mib % 2 ? "1" : "2";
    CAPTURE(limit);
    CAPTURE(jobs);
    CliRun r = run_cli({"check", "--quiet", "--jobs", jobs, "--max-memory", limit, dir},
                       within(std::chrono::seconds(120)));
    CAPTURE(r.exit_code);
    CAPTURE(r.signal);  // a crash: the signal (its stdout, a pipe, may be lost with it)
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(!r.timed_out);
    REQUIRE((r.exit_code == 0 || r.exit_code == 70));
    if (r.exit_code == 0) {
      ++checked;
      continue;
    }
    ++stopped;
    // Standard error: one line per case that ran out, and at most one report from outside a case.
    size_t reported = 0;
    bool outside = false;
    const std::string expected = "internal error: out of memory while checking the case (";
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) {
      if (line.starts_with("syncproof: internal error: ")) {
        outside |= line + "\n" == "syncproof: internal error: out of memory\n" ||
                   line + "\n" == fault_report(mib);
        continue;
      }
      const size_t at = line.find("internal error: ");
      if (at == std::string::npos) continue;
      ++reported;
      CHECK(line.compare(at, expected.size(), expected) == 0);
    }
    CHECK((reported > 0 || outside));
  }
  CHECK(stopped > 0);
  CHECK(checked > 0);
}
