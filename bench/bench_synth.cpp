#include "bench/bench_synth.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <vector>

#include "bench/stats.h"
#include "encode/check.h"
#include "lang/lint_files.h"
#include "lang/parse.h"
#include "tools/synth_engines.h"

namespace syncproof::bench {

namespace {}  // namespace

int fix(const std::string& dir, int runs) {
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  const model::CostModel costs;
  const synth::FixOptions opt = cli::fix_options(smt, ex, costs, 3000);
  fmt::print("{:<52} {:>10} {:>7} {:>6} {}\n", "case", "median ms", "calls", "cost", "status");
  std::vector<double> all;
  for (const auto& in : lang::collect_case_files({dir})) {
    const lang::ParseResult pr = lang::parse_case_file(in.path);
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    std::vector<size_t> goals, keep;
    synth::default_goals(pr.c, encode::check_case(pr.c, smt), true, &goals, &keep);
    if (goals.empty()) continue;
    std::vector<double> ms;
    synth::FixResult r;
    for (int i = 0; i < runs; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      r = synth::fix_case(pr.c, goals, keep, opt);
      ms.push_back(ms_since(t0));
    }
    all.push_back(median(ms));
    fmt::print("{:<52} {:>10.0f} {:>7} {:>+6} {}\n", in.path, median(ms), r.calls, r.cost,
               synth::to_string(r.status));
  }
  fmt::print("{} cases: median {:.0f} ms, max {:.0f} ms\n", all.size(), median(all),
             all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()));
  return 0;
}

int barrier_table(const std::string& binary, int jobs, int runs) {
  std::vector<double> ms;
  size_t rows = 0;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    FILE* p = ::popen(fmt::format("'{}' barrier --table -j {}", binary, jobs).c_str(), "r");
    if (!p) return 1;
    std::array<char, 4096> buf;
    std::string out;
    for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    if (::pclose(p) != 0) {
      fmt::print("{} barrier --table failed\n", binary);
      return 1;
    }
    ms.push_back(ms_since(t0));
    rows = static_cast<size_t>(std::count(out.begin(), out.end(), '\n'));
  }
  fmt::print("barrier --table -j {}: median {:.1f} s over {} runs ({} lines)\n", jobs,
             median(ms) / 1000, runs, rows);
  return 0;
}

}  // namespace syncproof::bench
