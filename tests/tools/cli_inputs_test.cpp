// Bad inputs to `syncproof check` and `syncproof lint`, end to end: each gets a located error on
// standard error with its documented exit code (`syncproof help exit-codes`, tools/exit_codes.h),
// nothing is skipped in silence, nothing blocks, and file names are printed escaped. And what
// they read besides files: standard input (`-`) and a pipe named on the command line.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

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
  CHECK(r.err == locked + ": error: cannot read the file: Permission denied\n");
  CHECK(line_starting(r.out, good + ":11:")
            .starts_with(good + ":11: prove visible produce -> consume: proved ["));
  CHECK(r.out.find("1 cases, 1 properties: 1 as expected, 0 not as expected, 0 gave up; 0 input "
                   "errors, 1 unreadable, 0 refused, 0 internal errors\n") != std::string::npos);
}

TEST_CASE("check: a directory that cannot be read is an error, not skipped (exit 3)") {
  ScratchDir d;
  const std::string good = d.write("cases/good.sync", kGoodCase);
  d.write("cases/hidden/more.sync", kGoodCase);
  REQUIRE(::chmod((d / "cases/hidden").c_str(), 0) == 0);
  CliRun r = run_cli({"check", "--quiet", d / "cases"}, as_nobody());
  CAPTURE(r.out);
  CHECK(r.exit_code == 3);
  CHECK(r.err == d / "cases/hidden" + ": error: cannot read the directory: Permission denied\n");
  CHECK(r.out.find("1 unreadable") != std::string::npos);
  // lint says the same
  CliRun l = run_cli({"lint", d / "cases"}, as_nobody());
  CHECK(l.exit_code == 3);
  CHECK(l.err == d / "cases/hidden" + ": error: cannot read the directory: Permission denied\n");
  CHECK(l.out == "2 files, 1 error, 0 warnings\n");
}

TEST_CASE("check and lint: a FIFO met in a directory is refused without blocking (exit 7)") {
  ScratchDir d;
  const std::string fifo = d / "pipe.sync";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const std::string want = fifo + ": error: is a FIFO (named pipe), not a case file: not read\n";
  for (const char* cmd : {"check", "lint"}) {
    CAPTURE(cmd);
    CliRun s = run_cli({cmd, d.path()}, within(std::chrono::seconds(60)));
    CHECK(!s.timed_out);
    CHECK(s.exit_code == 7);
    CHECK(s.err == want);
  }
}

namespace {

// Writes `text` into the FIFO once a reader has it open, for at most ~30 s: a bounded writer, so
// a test whose reader never comes ends instead of hanging.
std::thread fifo_writer(const std::string& fifo, std::string text) {
  return std::thread([fifo, text = std::move(text)] {
    for (int i = 0; i < 3000; ++i) {
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) {  // ENXIO: no reader yet
        ::usleep(10000);
        continue;
      }
      ::fcntl(fd, F_SETFL, 0);
      [[maybe_unused]] const ssize_t n = ::write(fd, text.data(), text.size());
      ::close(fd);
      return;
    }
  });
}

}  // namespace

TEST_CASE("check and lint: standard input ('-'), and a pipe named on the command line, are read") {
  ScratchDir d;
  const std::string good = d.write("good.sync", kGoodCase);
  // `-`: shown as <stdin> in every location.
  CliRun r = run_cli({"check", "-"}, with_stdin(kGoodCase));
  CHECK(r.exit_code == 0);
  CHECK(line_starting(r.out, "<stdin>:11:")
            .starts_with("<stdin>:11: prove visible produce -> consume: proved ["));
  CHECK(r.err.empty());
  const std::string broken = "queue q compute\non q:\n  Bogus()\n";
  CliRun b = run_cli({"check", "-"}, with_stdin(broken));
  CHECK(b.exit_code == 2);
  CHECK(b.err == "<stdin>:3:3: error: unknown command 'Bogus'\n  Bogus()\n  ^~~~~\n");
  CliRun l = run_cli({"lint", "-"}, with_stdin(broken));
  CHECK(l.exit_code == 2);
  CHECK(l.err == b.err);
  CHECK(l.out == "1 file, 1 error, 0 warnings\n");
  // A JSON command stream on standard input: its first non-blank byte is '{'.
  CliRun x = run_cli({"export", good});
  REQUIRE(x.exit_code == 0);
  CliRun j = run_cli({"check", "--format", "json", "-"}, with_stdin(x.out));
  CHECK(j.exit_code == 0);
  CHECK(j.out.find("\"file\": \"<stdin>\"") != std::string::npos);
  CHECK(j.out.find("\"verdict\": \"proved\"") != std::string::npos);
  // /dev/stdin from a pipe is a pipe named on the command line.
  CliRun p = run_cli({"check", "--quiet", "/dev/stdin"}, with_stdin(kGoodCase));
  CHECK(p.exit_code == 0);
  CHECK(p.out.find("1 cases, 1 properties: 1 as expected") != std::string::npos);
  // A named FIFO given as an argument is read to its end as its writer writes it.
  const std::string fifo = d / "pipe.sync";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  std::thread writer = fifo_writer(fifo, kGoodCase);
  CliRun f = run_cli({"check", fifo}, within(std::chrono::seconds(60)));
  writer.join();
  CHECK(!f.timed_out);
  CHECK(f.exit_code == 0);
  CHECK(line_starting(f.out, fifo + ":11:")
            .starts_with(fifo + ":11: prove visible produce -> consume: proved ["));
  // Standard input can be read once.
  CliRun twice = run_cli({"check", "-", "-"}, with_stdin(kGoodCase));
  CHECK(twice.exit_code == 64);
  CHECK(twice.err == "syncproof check: standard input ('-') can be read only once\n");
}

TEST_CASE("check and lint: a device is refused (exit 7)") {
  for (const char* cmd : {"check", "lint"}) {
    CliRun r = run_cli({cmd, "/dev/zero"}, within(std::chrono::seconds(60)));
    CHECK(!r.timed_out);
    CHECK(r.exit_code == 7);
    CHECK(r.err == "/dev/zero: error: is a character device, not a case file: not read\n");
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
    CHECK(r.err == big +
                       ": error: is 65 MiB (68157440 bytes), over the 64 MiB limit "
                       "(--max-file-size): not read\n");
  }
  // --max-file-size moves the limit: a 2 KiB case is refused at 1k and read at 4k.
  std::string text = kGoodCase;
  text += std::string(2048 - text.size(), '#');
  const std::string small = d.write("small.sync", text);
  CliRun r = run_cli({"check", "--max-file-size", "1k", small});
  CHECK(r.exit_code == 7);
  CHECK(r.err ==
        small +
            ": error: is 2 KiB (2048 bytes), over the 1 KiB limit (--max-file-size): not read\n");
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
  CHECK(r.err == d / "cases/self.sync" +
                     ": error: symlink loop: the link cannot be resolved (too many levels of "
                     "symbolic links)\n" +
                     d / "cases/up" + ": error: symlink loop: leads back to " + d.path() +
                     "/cases, which is being searched (not searched again)\n");
  CHECK(r.out.find("1 cases, 1 properties: 1 as expected") != std::string::npos);
}

TEST_CASE("check: a missing file, and a directory without cases, are errors (exit 3)") {
  ScratchDir d;
  fs::create_directory(d / "empty");
  CliRun r = run_cli({"check", d / "missing.sync", d / "empty"});
  CHECK(r.exit_code == 3);
  CHECK(r.err == d / "missing.sync" + ": error: cannot read the file: No such file or directory\n" +
                     d / "empty" + ": error: no .sync files in the directory\n");
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
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find("\xe2\x80\xae") == std::string::npos);
    CHECK(line_starting(r.err, shown + ":1:1: error: ") != "");
    // Every diagnostic header is one line that starts with the escaped name.
    CHECK(occurrences(r.err, "\nb") == 0);
    CHECK(r.out.find('\x1b') == std::string::npos);
  }
  (void)bad;
}
