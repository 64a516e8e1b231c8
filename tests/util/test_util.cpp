// The shared helpers: the edit distance behind every suggestion, atomic file writes.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/edit_distance.h"
#include "util/heap.h"

using syncproof::util::edit_distance;
namespace fs = std::filesystem;

TEST_CASE("edit distance: insertions, deletions, substitutions, one step per transposition") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("GL1_INVALIDATE", "GL1_INVALIDATE") == 0);
  CHECK(edit_distance("GL1_INVALIDTE", "GL1_INVALIDATE") == 1);    // deletion
  CHECK(edit_distance("GL1_INVALIDAATE", "GL1_INVALIDATE") == 1);  // insertion
  CHECK(edit_distance("GL2_INVALIDATE", "GL1_INVALIDATE") == 1);   // substitution
  CHECK(edit_distance("GL1_INVALIDTAE", "GL1_INVALIDATE") == 1);   // transposition
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("ca", "abc") == 3);  // optimal string alignment, not full Damerau
}

TEST_CASE("edit distance ignores the case of ASCII letters") {
  CHECK(edit_distance("dispatch", "Dispatch") == 0);
  CHECK(edit_distance("gl1_invalidate", "GL1_INVALIDATE") == 0);
  CHECK(edit_distance("Dispatc", "DISPATCH") == 1);
}

namespace {
std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("atomic writes: the whole text or the old file, no temporary left behind") {
  auto dir = fs::temp_directory_path() / fmt::format("syncproof-test-atomic-{}", ::getpid());
  fs::remove_all(dir);
  const fs::path f = dir / "sub" / "r.xml";
  // A missing directory is an error, not made in silence.
  auto missing = syncproof::util::write_file_atomically(f.string(), "first");
  REQUIRE(missing);
  CHECK(*missing == fmt::format("cannot write {}: the directory {} does not exist", f.string(),
                                f.parent_path().string()));
  CHECK(!fs::exists(dir));
  fs::create_directories(f.parent_path());
  REQUIRE(!syncproof::util::write_file_atomically(f.string(), "first"));
  CHECK(read(f) == "first");
  REQUIRE(!syncproof::util::write_file_atomically(f.string(), "second, longer"));
  CHECK(read(f) == "second, longer");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(f.parent_path())) ++entries;
  CHECK(entries == 1);
  // A directory in the way is an error message, not an exception.
  auto err = syncproof::util::write_file_atomically(f.parent_path().string(), "x");
  REQUIRE(err);
  CHECK(*err == fmt::format("cannot write {}: it is a directory", f.parent_path().string()));
  fs::remove_all(dir);
}

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("syncproof-test-keep-{}", ::getpid());
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("atomic writes keep a file's mode and owner, and give a new file 0666 less the umask") {
  TempDir d;
  const fs::path f = d.path / "f.sync";
  std::ofstream(f) << "old";
  REQUIRE(::chmod(f.c_str(), 0600) == 0);
  const bool root = ::geteuid() == 0;
  if (root) REQUIRE(::chown(f.c_str(), 65534, 65534) == 0);
  REQUIRE(!syncproof::util::write_file_atomically(f.string(), "new"));
  CHECK(read(f) == "new");
  CHECK(mode_of(f) == 0600);
  if (root) {
    struct stat st {};
    REQUIRE(::stat(f.c_str(), &st) == 0);
    CHECK(st.st_uid == 65534);
    CHECK(st.st_gid == 65534);
  }
  const mode_t mask = ::umask(022);  // this test's own, put back below
  REQUIRE(!syncproof::util::write_file_atomically((d.path / "new.json").string(), "{}"));
  CHECK(mode_of(d.path / "new.json") == 0644);
  ::umask(077);
  REQUIRE(!syncproof::util::write_file_atomically((d.path / "private.json").string(), "{}"));
  CHECK(mode_of(d.path / "private.json") == 0600);
  ::umask(mask);
}

TEST_CASE("atomic writes go through a symbolic link to the file it names, and the link stays") {
  TempDir d;
  fs::create_directories(d.path / "real");
  std::ofstream(d.path / "real" / "f.sync") << "old";
  fs::create_symlink("real/f.sync", d.path / "link.sync");
  REQUIRE(!syncproof::util::write_file_atomically((d.path / "link.sync").string(), "new"));
  CHECK(fs::is_symlink(d.path / "link.sync"));
  CHECK(read(d.path / "real" / "f.sync") == "new");
  // A dangling link: its target is made, as `>` would make it.
  fs::create_symlink("real/g.sync", d.path / "dangling.sync");
  REQUIRE(!syncproof::util::write_file_atomically((d.path / "dangling.sync").string(), "g"));
  CHECK(fs::is_symlink(d.path / "dangling.sync"));
  CHECK(read(d.path / "real" / "g.sync") == "g");
  // A loop is an error.
  fs::create_symlink("loop.sync", d.path / "loop.sync");
  auto err = syncproof::util::write_file_atomically((d.path / "loop.sync").string(), "x");
  REQUIRE(err);
  CHECK(err->ends_with(": symlink loop (too many levels of symbolic links)"));
}

TEST_CASE("atomic writes refuse a read-only file and leave it as it was") {
  TempDir d;
  const fs::path f = d.path / "f.sync";
  std::ofstream(f) << "old";
  REQUIRE(::chmod(f.c_str(), 0444) == 0);
  const std::string want = fmt::format(
      "cannot write {}: it is read-only (not changed: make it writable first, e.g. chmod u+w, or "
      "open it for edit in version control)",
      f.string());
  CHECK(syncproof::util::check_writable(f.string()) == want);
  CHECK(syncproof::util::write_file_atomically(f.string(), "new") == want);
  CHECK(read(f) == "old");
  CHECK(mode_of(f) == 0444);
}

TEST_CASE("atomic writes to a character device write to it, not over it") {
  REQUIRE(!syncproof::util::write_file_atomically("/dev/null", "discarded"));
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("closest: the nearest candidate for a did-you-mean, or none") {
  const std::vector<std::string> commands = {"check", "lint", "fix", "barrier", "export"};
  CHECK(syncproof::util::closest("chek", commands) == "check");
  CHECK(syncproof::util::closest("lnit", commands) == "lint");
  CHECK(syncproof::util::closest("frobnicate", commands) == std::nullopt);
  CHECK(syncproof::util::closest("", commands) == std::nullopt);
  CHECK(syncproof::util::closest("--fromat", {"--format", "--output"}) == "--format");
}

TEST_CASE("huge pages: the tunable is added once, and only where it changes something") {
  using syncproof::util::huge_page_tunables;
  const char* madvise = "always [madvise] never\n";
  CHECK(huge_page_tunables(nullptr, nullptr, nullptr, madvise) == "glibc.malloc.hugetlb=1");
  CHECK(huge_page_tunables("", nullptr, nullptr, madvise) == "glibc.malloc.hugetlb=1");
  // The user's tunables are kept, and a value of theirs for this one stands.
  CHECK(huge_page_tunables("glibc.malloc.arena_max=2", nullptr, nullptr, madvise) ==
        "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  CHECK(huge_page_tunables("glibc.malloc.hugetlb=0", nullptr, nullptr, madvise) == std::nullopt);
  // After the exec the tunable is there: no second exec.
  CHECK(huge_page_tunables("glibc.malloc.hugetlb=1", nullptr, nullptr, madvise) == std::nullopt);
  CHECK(huge_page_tunables(nullptr, "0", nullptr, madvise) == std::nullopt);
  CHECK(huge_page_tunables(nullptr, "1", nullptr, madvise) == "glibc.malloc.hugetlb=1");
  CHECK(huge_page_tunables(nullptr, nullptr, "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so",
                           madvise) == std::nullopt);
  CHECK(huge_page_tunables(nullptr, nullptr, "libfoo.so", madvise) == "glibc.malloc.hugetlb=1");
  // The kernel gives huge pages to every aligned region already, or to none.
  CHECK(huge_page_tunables(nullptr, nullptr, nullptr, "[always] madvise never\n") == std::nullopt);
  CHECK(huge_page_tunables(nullptr, nullptr, nullptr, "always madvise [never]\n") == std::nullopt);
  CHECK(huge_page_tunables(nullptr, nullptr, nullptr, "") == std::nullopt);
}

#if defined(__GLIBC__) && defined(__linux__) && !defined(SYNCPROOF_SANITIZED)
TEST_CASE(
    "huge pages: this test program runs with the tunable where the kernel's mode asks for it") {
  // doctest_main.cpp calls use_huge_pages as the tool does; the variable it sets stays after the
  // exec, so a process that should have been re-executed and was not shows here.
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(in, modes);
  // Whether a start without the tunable is re-executed here (the same rules as the program's).
  if (!syncproof::util::huge_page_tunables(nullptr, std::getenv("SYNCPROOF_HUGE_PAGES"),
                                           std::getenv("LD_PRELOAD"), modes))
    return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  REQUIRE(tunables != nullptr);
  CHECK(std::string(tunables).find("glibc.malloc.hugetlb=") != std::string::npos);
  // Re-executed by its own path: its name is still its file's (ps, top), not "exe".
  std::ifstream comm("/proc/self/comm");
  std::string name;
  std::getline(comm, name);
  CHECK(name.rfind("test_", 0) == 0);
}

TEST_CASE("huge pages: the tool started through the dynamic loader runs, not the loader again") {
  // /proc/self/exe is then the loader: an exec of it would take `--version` for the program.
  std::ifstream maps("/proc/self/maps");
  std::string line, loader;
  while (loader.empty() && std::getline(maps, line))
    if (const auto at = line.find('/');
        at != std::string::npos && line.find("/ld-linux", at) != std::string::npos)
      loader = line.substr(at);
  if (loader.empty()) return;  // not a glibc loader this test knows
  const std::string cmd =
      "env -u GLIBC_TUNABLES timeout 60 " + loader + " " SYNCPROOF_BINARY " --version 2>&1";
  FILE* f = ::popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::string out;
  char buf[256];
  while (size_t got = std::fread(buf, 1, sizeof buf, f)) out.append(buf, got);
  CHECK(::pclose(f) == 0);
  CHECK(out.rfind("syncproof ", 0) == 0);
}
#endif
