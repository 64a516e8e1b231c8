#include "tests/tools/shell_run.h"

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace syncproof::testing {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Ran shell_run(const std::filesystem::path& dir, const std::string& args,
              const std::filesystem::path& err) {
  const std::string cmd = fmt::format("cd '{}' && timeout 300 '{}' {} 2>'{}'", dir.string(),
                                      SYNCPROOF_BINARY, args, err.string());
  Ran r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::array<char, 4096> buf;
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = slurp(err);
  return r;
}

}  // namespace syncproof::testing
