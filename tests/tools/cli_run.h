#pragma once
// End-to-end tests of the syncproof binary (SYNCPROOF_BINARY): run it with a deadline, capture
// its exit code and output; and a scratch directory for the case files they write.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace syncproof::testing {

struct CliRun {
  int exit_code = -1;  // -1: killed at the deadline (timed_out) or by a signal
  int signal = 0;      // the signal that ended it (not at the deadline), else 0
  bool timed_out = false;
  std::string out, err;
};

struct CliOptions {
  std::string cwd;                                       // empty: the current directory
  std::vector<std::pair<std::string, std::string>> env;  // added to the environment
  bool as_nobody = false;  // when root, run as uid/gid 65534 (so permissions apply)
  std::chrono::seconds deadline{120};
  std::string input;  // standard input: a pipe carrying this text (/dev/null when empty)
};

CliRun run_cli(const std::vector<std::string>& args, const CliOptions& o = {});

inline CliOptions as_nobody() {
  CliOptions o;
  o.as_nobody = true;
  return o;
}
inline CliOptions within(std::chrono::seconds deadline) {
  CliOptions o;
  o.deadline = deadline;
  return o;
}
inline CliOptions with_stdin(std::string text) {
  CliOptions o;
  o.input = std::move(text);
  return o;
}

// A fresh directory under $TMPDIR (or /tmp), world-readable (for as_nobody), removed with
// everything in it (permissions restored first) when the object goes.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  // Writes `text` to path()/name (creating directories) and returns the full path.
  std::string write(const std::string& name, const std::string& text) const;
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// How many times `needle` occurs in `hay`.
size_t occurrences(const std::string& hay, const std::string& needle);

}  // namespace syncproof::testing
