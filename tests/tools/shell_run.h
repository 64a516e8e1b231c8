#pragma once
// The syncproof binary (SYNCPROOF_BINARY) run through the shell, for tests whose arguments are a
// command line as a user types it (quotes, globs): `cd DIR && timeout 300 BINARY ARGS 2>ERR`.
// cli_run.h runs it without a shell, with a deadline of its own.
#include <filesystem>
#include <string>

namespace syncproof::testing {

struct Ran {
  int rc = -1;  // -1: ended by a signal
  std::string out, err;
};

// The whole file (empty when it cannot be read).
std::string slurp(const std::filesystem::path& p);

// Runs the binary in `dir` with `args`, its standard error in the file `err`.
Ran shell_run(const std::filesystem::path& dir, const std::string& args,
              const std::filesystem::path& err);

}  // namespace syncproof::testing
