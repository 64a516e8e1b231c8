// The shared helpers: the edit distance behind every suggestion, atomic file writes.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/edit_distance.h"

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
  CHECK(err->find("is a directory") != std::string::npos);
  fs::remove_all(dir);
}
