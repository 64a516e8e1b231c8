#pragma once
// The subcommands. Each registers itself on the CLI11 app with its options (the shared ones from
// tools/options.h, whose values are checked while the command line is parsed) and returns what
// runs it; main (tools/main/syncproof.cpp) runs the one subcommand given, and only once the
// whole command line has parsed, so a bad option anywhere stops the run before any work. A check
// that needs several options together throws UsageError, also before any work.
#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>

namespace syncproof::cli {

// A bad command line found by a subcommand: "syncproof SUBCOMMAND: MESSAGE", exit 64.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;  // the exit code (tools/exit_codes.h)
};

Command register_encode(CLI::App& app);
Command register_decode(CLI::App& app);
Command register_lint(CLI::App& app);
Command register_check(CLI::App& app);
Command register_fuzz(CLI::App& app);
Command register_monotone(CLI::App& app);
Command register_export(CLI::App& app);
Command register_fix(CLI::App& app);
Command register_barrier(CLI::App& app);

}  // namespace syncproof::cli
