#pragma once
// The bundled case library for tests that go over all of it: every `.sync` file under cases/
// except the linter's (cases/lint/, whose cases are meant to have errors), sorted by path, with
// its text.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace syncproof::testing {

inline std::vector<std::pair<std::string, std::string>> library_cases() {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SYNCPROOF_SOURCE_DIR) / "cases"))
    if (e.path().extension() == ".sync" &&
        e.path().string().find("/cases/lint/") == std::string::npos)
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::pair<std::string, std::string>> out;
  for (const fs::path& f : files) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    out.emplace_back(f.string(), ss.str());
  }
  return out;
}

}  // namespace syncproof::testing
