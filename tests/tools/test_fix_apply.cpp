// `syncproof fix --apply` writes the fixed case back the way its author keeps the file: its line
// breaks (CRLF, LF, or a mix), its UTF-8 byte order mark, its mode and owner, through a symbolic
// link to the file it names; a read-only file is refused (exit 73) and left as it was. Each test
// compares the exact bytes written.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "cli_run.h"
#include "tests/tools/shell_run.h"

using namespace syncproof::testing;
namespace fs = std::filesystem;

namespace {

const std::string kUnfixed = R"(case "no barrier"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv

prove visible produce -> consume
)";

// What `fix` makes of it: two commands before the consumer.
const std::string kFixed = R"(case "no barrier"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv

prove visible produce -> consume
)";

std::string crlf(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
  return out;
}

CliRun apply(const ScratchDir& d, const std::string& name) {
  CliOptions o;
  o.cwd = d.path();
  return run_cli({"fix", "--apply", "--no-diff", name}, o);
}

}  // namespace

TEST_CASE("fix --apply: a CRLF file stays CRLF, the new lines included") {
  ScratchDir d;
  const std::string f = d.write("f.sync", crlf(kUnfixed));
  const CliRun r = apply(d, "f.sync");
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("f.sync: applied\n") != std::string::npos);
  CHECK(slurp(f) == crlf(kFixed));
}

TEST_CASE("fix --apply: mixed line breaks stay on their lines, a new line takes its successor's") {
  ScratchDir d;
  // LF everywhere but on the consumer's line, which the new lines go before.
  std::string mixed = kUnfixed;
  mixed.replace(mixed.find("srv\n"), 4, "srv\r\n");
  const std::string f = d.write("f.sync", mixed);
  CHECK(apply(d, "f.sync").exit_code == 0);
  std::string want = kFixed;
  want.replace(want.find("RANGE_ALL)\n"), 11, "RANGE_ALL)\r\n");
  want.replace(want.find("RANGE_ALL)\n", want.find("SyncTopOfPipeX")), 11, "RANGE_ALL)\r\n");
  want.replace(want.find("srv\n"), 4, "srv\r\n");
  CHECK(slurp(f) == want);
}

TEST_CASE("fix --apply: a UTF-8 byte order mark stays") {
  ScratchDir d;
  const std::string bom = "\xEF\xBB\xBF";
  const std::string f = d.write("f.sync", bom + kUnfixed);
  CHECK(apply(d, "f.sync").exit_code == 0);
  CHECK(slurp(f) == bom + kFixed);
  // ... with CRLF too.
  const std::string g = d.write("g.sync", bom + crlf(kUnfixed));
  CHECK(apply(d, "g.sync").exit_code == 0);
  CHECK(slurp(g) == bom + crlf(kFixed));
}

TEST_CASE("fix --apply: through a symbolic link, the file it names is fixed and the link stays") {
  ScratchDir d;
  const std::string real = d.write("real/f.sync", kUnfixed);
  fs::create_symlink("real/f.sync", d / "link.sync");
  const CliRun r = apply(d, "link.sync");
  CHECK(r.exit_code == 0);
  CHECK(fs::is_symlink(d / "link.sync"));
  CHECK(fs::read_symlink(d / "link.sync") == "real/f.sync");
  CHECK(slurp(real) == kFixed);
  for (const auto& e : fs::directory_iterator(d.path()))  // nothing left next to the link
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
  for (const auto& e : fs::directory_iterator(d / "real"))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("fix --apply: the file keeps its mode and its owner") {
  ScratchDir d;
  const std::string f = d.write("f.sync", kUnfixed);
  REQUIRE(::chmod(f.c_str(), 0600) == 0);
  const bool root = ::geteuid() == 0;
  if (root) REQUIRE(::chown(f.c_str(), 65534, 65534) == 0);
  CHECK(apply(d, "f.sync").exit_code == 0);
  CHECK(slurp(f) == kFixed);
  struct stat st {};
  REQUIRE(::stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0600);
  if (root) {
    CHECK(st.st_uid == 65534);
    CHECK(st.st_gid == 65534);
  }
}

TEST_CASE("fix --apply: a read-only file is refused with exit 73 and left as it was") {
  ScratchDir d;
  const std::string f = d.write("f.sync", kUnfixed);
  REQUIRE(::chmod(f.c_str(), 0444) == 0);  // as Perforce leaves a file not opened for edit
  const CliRun r = apply(d, "f.sync");
  CHECK(r.exit_code == 73);
  CHECK(r.err ==
        "syncproof fix: cannot write f.sync: it is read-only (not changed: make it writable "
        "first, e.g. chmod u+w, or open it for edit in version control)\n");
  CHECK(r.out.find("f.sync: fix: 2 edits, cost +11") != std::string::npos);
  CHECK(r.out.find("applied") == std::string::npos);
  CHECK(slurp(f) == kUnfixed);
  struct stat st {};
  REQUIRE(::stat(f.c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == 0444);
}
