#include "bench/bench_frames.h"

#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "bench/stats.h"
#include "encode/check.h"
#include "exec/check.h"
#include "lang/parse.h"
#include "tools/generate.h"

namespace syncproof::bench {

namespace {

std::optional<cli::FrameBug> find_bug(const std::string& name) {
  for (auto b : {cli::FrameBug::None, cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                 cli::FrameBug::NoGl2Writeback, cli::FrameBug::NoSyncCpdma})
    if (cli::to_string(b) == name) return b;
  return std::nullopt;
}

// One run, in a child process: its own peak memory, its own CPU time.
struct Run {
  bool ok = false;       // the child finished and every verdict was as expected
  double ms = 0;         // wall time of the check (lowering to the last verdict)
  double refute_ms = 0;  // the slowest refuted property (with its trace)
  double user_ms = 0;    // the child's user CPU time
  double peak_mb = 0;    // the child's peak resident set
  size_t commands = 0, events = 0;
};

Run run_child(const std::string& text, bool exec_engine, const FrameOptions& o) {
  int fd[2];
  if (pipe(fd) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    auto pr = lang::parse_case("frame.sync", text);
    Run r;
    if (!pr.has_errors()) {
      for (const auto& q : pr.c.queues) r.commands += q.commands.size();
      auto t0 = std::chrono::steady_clock::now();
      properties::CaseResult res;
      if (exec_engine) {
        exec::ExecOptions eo;
        res = exec::check_case(pr.c, eo);
      } else {
        encode::CheckOptions so;
        so.order_proofs = !o.no_order_proofs;
        res = encode::check_case(pr.c, so);
      }
      r.ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      r.events = res.events;
      r.ok = std::all_of(res.results.begin(), res.results.end(),
                         [](const auto& x) { return x.as_expected; });
      for (const auto& x : res.results)
        if (std::holds_alternative<properties::Violated>(x.verdict))
          r.refute_ms = std::max(r.refute_ms, x.ms);
    }
    const std::string line = fmt::format("{} {} {} {} {} {}\n", r.ok ? 1 : 0, r.ms, r.refute_ms,
                                         r.commands, r.events, 0);
    if (write(fd[1], line.data(), line.size()) < 0) _exit(3);
    _exit(0);
  }
  close(fd[1]);
  std::string buf;
  char chunk[256];
  for (ssize_t k; (k = read(fd[0], chunk, sizeof chunk)) > 0;) buf.append(chunk, k);
  close(fd[0]);
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  Run r;
  int ok = 0, dummy = 0;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
      std::sscanf(buf.c_str(), "%d %lf %lf %zu %zu %d", &ok, &r.ms, &r.refute_ms, &r.commands,
                  &r.events, &dummy) == 6)
    r.ok = ok == 1;
  r.user_ms = u.ru_utime.tv_sec * 1e3 + u.ru_utime.tv_usec / 1e3;
  r.peak_mb = u.ru_maxrss / 1024.0;
  return r;
}

struct Row {
  size_t commands = 0, events = 0;
  double ms = 0, user_ms = 0, peak_mb = 0, refute_ms = 0;
  bool ok = true;
};

Row measure(const std::string& text, bool exec_engine, const FrameOptions& o) {
  std::vector<double> ms, user, peak, refute;
  Row row;
  for (int r = 0; r < std::max(1, o.runs); ++r) {
    Run x = run_child(text, exec_engine, o);
    row.ok = row.ok && x.ok;
    row.commands = x.commands, row.events = x.events;
    ms.push_back(x.ms), user.push_back(x.user_ms), peak.push_back(x.peak_mb);
    refute.push_back(x.refute_ms);
  }
  row.ms = median(ms), row.user_ms = median(user), row.peak_mb = median(peak);
  row.refute_ms = median(refute);
  return row;
}

std::string exponent(double a, double b, double na, double nb) {
  if (a <= 0 || b <= 0 || na <= 0 || nb <= na) return "-";
  return fmt::format("{:.2f}", std::log(b / a) / std::log(nb / na));
}

}  // namespace

int frame_text(int commands, const std::string& bug, uint64_t seed) {
  auto b = find_bug(bug);
  if (!b) {
    fmt::print(stderr, "unknown bug '{}'\n", bug);
    return 64;
  }
  fmt::print("{}", cli::generate_frame({seed, commands, *b}));
  return 0;
}

int frames(const FrameOptions& o) {
  auto bug = find_bug(o.bug);
  if (!bug || (o.engine != "smt" && o.engine != "exec" && o.engine != "both")) {
    fmt::print(stderr, "frames: unknown --bug '{}' or --engine '{}'\n", o.bug, o.engine);
    return 64;
  }
  fmt::print("generated frames (seed {}, bug {}{}{}), median of {} runs, each a child process\n",
             o.seed, o.bug, "", o.no_order_proofs ? ", --no-order-proofs" : "", o.runs);
  fmt::print("{:>6} {:>8} {:>8} | {:>9} {:>9} {:>8} {:>9} {:>6} {:>6}{}\n", "engine", "commands",
             "events", "wall ms", "user ms", "peak MB", "us/cmd", "t-exp", "m-exp",
             *bug == cli::FrameBug::None ? "" : "  refute ms");
  int rc = 0;
  for (const char* engine : {"smt", "exec"}) {
    if (o.engine != "both" && o.engine != engine) continue;
    std::optional<Row> prev;
    for (int n : o.sizes) {
      const std::string text = cli::generate_frame({o.seed, n, *bug});
      Row r = measure(text, std::string(engine) == "exec", o);
      const double nc = static_cast<double>(r.commands);
      fmt::print("{:>6} {:>8} {:>8} | {:>9.1f} {:>9.1f} {:>8.1f} {:>9.1f} {:>6} {:>6}", engine,
                 r.commands, r.events, r.ms, r.user_ms, r.peak_mb, r.ms * 1000 / std::max(1.0, nc),
                 prev ? exponent(prev->user_ms, r.user_ms, prev->commands, nc) : "-",
                 prev ? exponent(prev->peak_mb, r.peak_mb, prev->commands, nc) : "-");
      if (*bug != cli::FrameBug::None) fmt::print("  {:>9.1f}", r.refute_ms);
      fmt::print("{}\n", r.ok ? "" : "  NOT AS EXPECTED");
      if (!r.ok) rc = 1;
      prev = r;
    }
  }
  fmt::print(
      "wall ms: the check (lowering to the last verdict); user ms: the child's CPU time; t-exp / "
      "m-exp: growth exponent of user time / peak memory against the previous size\n");
  return rc;
}

}  // namespace syncproof::bench
