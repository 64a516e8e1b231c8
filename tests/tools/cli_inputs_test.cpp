// Bad inputs to `syncproof check` and `syncproof lint`, end to end: each gets a located error
// with its documented exit code (README, tools/exit_codes.h), nothing is skipped in silence,
// nothing blocks, and file names are printed escaped.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli_run.h"

using namespace syncproof::testing;
namespace fs = std::filesystem;

namespace {

const char* const kGoodCase = R"(case "good"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv

prove visible produce -> consume
)";

// The line of `out` that starts with `prefix` (the whole line), or "" when there is none.
std::string line_starting(const std::string& out, const std::string& prefix) {
  for (size_t at = 0; at < out.size();) {
    size_t end = out.find('\n', at);
    if (end == std::string::npos) end = out.size();
    if (out.compare(at, prefix.size(), prefix) == 0) return out.substr(at, end - at);
    at = end + 1;
  }
  return "";
}

}  // namespace

TEST_CASE("check: a file that cannot be read is an error (exit 3), the other cases still run") {
  ScratchDir d;
  const std::string good = d.write("cases/good.sync", kGoodCase);
  const std::string locked = d.write("cases/locked.sync", kGoodCase);
  REQUIRE(::chmod(locked.c_str(), 0) == 0);
  CliRun r = run_cli({"check", d / "cases"}, as_nobody());
  CAPTURE(r.out);
  CHECK(r.exit_code == 3);
  CHECK(line_starting(r.out, locked) ==
        locked + ": error: cannot read the file: Permission denied");
  CHECK(line_starting(r.out, good + ":11:")
            .starts_with(good + ":11: prove visible produce -> consume: proved ["));
}

TEST_CASE("check: a directory that cannot be read is an error, not skipped (exit 3)") {
  ScratchDir d;
  const std::string good = d.write("cases/good.sync", kGoodCase);
  d.write("cases/hidden/more.sync", kGoodCase);
  REQUIRE(::chmod((d / "cases/hidden").c_str(), 0) == 0);
  CliRun r = run_cli({"check", "--quiet", d / "cases"}, as_nobody());
  CAPTURE(r.out);
  CHECK(r.exit_code == 3);
  CHECK(line_starting(r.out, d / "cases/hidden") ==
        d / "cases/hidden" + ": error: cannot read the directory: Permission denied");
  CHECK(r.out.find("1 unreadable") != std::string::npos);
  // lint says the same
  CliRun l = run_cli({"lint", d / "cases"}, as_nobody());
  CHECK(l.exit_code == 3);
  CHECK(line_starting(l.out, d / "cases/hidden") ==
        d / "cases/hidden" + ": error: cannot read the directory: Permission denied");
}

TEST_CASE("check and lint: a FIFO is refused without blocking (exit 7)") {
  ScratchDir d;
  const std::string fifo = d / "pipe.sync";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const std::string want = fifo + ": error: is a FIFO (named pipe), not a case file: not read";
  for (const char* cmd : {"check", "lint"}) {
    CAPTURE(cmd);
    CliRun r = run_cli({cmd, fifo}, within(std::chrono::seconds(60)));
    CHECK(!r.timed_out);
    CHECK(r.exit_code == 7);
    CHECK(line_starting(r.out, fifo) == want);
    // Found in a directory search, the same.
    CliRun s = run_cli({cmd, d.path()}, within(std::chrono::seconds(60)));
    CHECK(!s.timed_out);
    CHECK(s.exit_code == 7);
    CHECK(line_starting(s.out, fifo) == want);
  }
}

TEST_CASE("check and lint: a device is refused (exit 7)") {
  for (const char* cmd : {"check", "lint"}) {
    CliRun r = run_cli({cmd, "/dev/zero"}, within(std::chrono::seconds(60)));
    CHECK(!r.timed_out);
    CHECK(r.exit_code == 7);
    CHECK(line_starting(r.out, "/dev/zero") ==
          "/dev/zero: error: is a character device, not a case file: not read");
  }
}

TEST_CASE("check and lint: a file over the size limit is refused before it is read (exit 7)") {
  ScratchDir d;
  // 65 MiB, sparse: over the 64 MiB default without using the disk.
  const std::string big = d / "big.sync";
  { std::ofstream f(big); }
  fs::resize_file(big, (uint64_t{65} << 20));
  for (const char* cmd : {"check", "lint"}) {
    CliRun r = run_cli({cmd, big});
    CHECK(r.exit_code == 7);
    CHECK(line_starting(r.out, big) == big +
                                           ": error: is 65 MiB (68157440 bytes), over the 64 MiB "
                                           "limit (--max-file-size): not read");
  }
  // --max-file-size moves the limit: a 2 KiB case is refused at 1k and read at 4k.
  std::string text = kGoodCase;
  text += std::string(2048 - text.size(), '#');
  const std::string small = d.write("small.sync", text);
  CliRun r = run_cli({"check", "--max-file-size", "1k", small});
  CHECK(r.exit_code == 7);
  CHECK(line_starting(r.out, small) ==
        small + ": error: is 2 KiB (2048 bytes), over the 1 KiB limit (--max-file-size): not read");
  CHECK(run_cli({"check", "--max-file-size", "4KiB", small}).exit_code == 0);
  CHECK(run_cli({"lint", "--max-file-size", "1k", small}).exit_code == 7);
  CHECK(run_cli({"check", "--max-file-size", "0", small}).exit_code == 64);
}

TEST_CASE("check: a symlink loop is reported once (exit 3)") {
  ScratchDir d;
  d.write("cases/good.sync", kGoodCase);
  fs::create_directory_symlink(".", d / "cases/up");       // a directory loop
  fs::create_symlink("self.sync", d / "cases/self.sync");  // a link to itself
  CliRun r = run_cli({"check", "--quiet", d / "cases"});
  CAPTURE(r.out);
  CHECK(r.exit_code == 3);
  CHECK(occurrences(r.out, "symlink loop") == 2);
  CHECK(line_starting(r.out, d / "cases/up") ==
        d / "cases/up" + ": error: symlink loop: leads back to " + d.path() +
            "/cases, which is being searched (not searched again)");
  CHECK(line_starting(r.out, d / "cases/self.sync") ==
        d / "cases/self.sync" +
            ": error: symlink loop: the link cannot be resolved (too many levels of symbolic "
            "links)");
  CHECK(r.out.find("1 cases, 1 properties: 1 as expected") != std::string::npos);
}

TEST_CASE("check: a missing file, and a directory without cases, are errors (exit 3)") {
  ScratchDir d;
  fs::create_directory(d / "empty");
  CliRun r = run_cli({"check", d / "missing.sync", d / "empty"});
  CHECK(r.exit_code == 3);
  CHECK(line_starting(r.out, d / "missing.sync") ==
        d / "missing.sync" + ": error: cannot read the file: No such file or directory");
  CHECK(line_starting(r.out, d / "empty") ==
        d / "empty" + ": error: no .sync files in the directory");
}

TEST_CASE("file names are printed escaped: no newline, escape sequence or bidi control passes") {
  ScratchDir d;
  const std::string name =
      "a\nb\x1b[31mc\xe2\x80\xae"
      "d\\e.sync";  // \n, ESC, U+202E, backslash
  const std::string bad = d.write(name, "nonsense\n");
  const std::string shown = d.path() + "/a\\nb\\x1B[31mc\\u{202E}d\\\\e.sync";
  for (const char* cmd : {"check", "lint"}) {
    CAPTURE(cmd);
    CliRun r = run_cli({cmd, d.path()});
    CAPTURE(r.out);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find("\xe2\x80\xae") == std::string::npos);
    CHECK(line_starting(r.out, shown + ":1:1: error: ") != "");
    // Every diagnostic header is one line that starts with the escaped name.
    CHECK(occurrences(r.out, "\nb") == 0);
  }
  (void)bad;
}
