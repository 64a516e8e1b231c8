// syncproof_bench: medians measured in one run (never a timed unit test).
//   syncproof_bench library [DIR]       per-case check time over the case library
//   syncproof_bench streams [N...]      generated 3-queue streams checked for no-hazards
//   syncproof_bench frames [N...] [--bug KIND] [--engine E]   generated frames (bench_frames.h)
//   syncproof_bench engines|states|promela ...   both engines side by side (bench_engines.h)
//   syncproof_bench batch|batch-generated|formats ... --jobs and report writers (bench_batch.h)
//   syncproof_bench fix [DIR] | barrier-table [BINARY [JOBS]]   the synthesis (bench_synth.h)
// Prints one table; every number is a median of --runs repetitions (default 3).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_batch.h"
#include "bench/bench_engines.h"
#include "bench/bench_frames.h"
#include "bench/bench_synth.h"
#include "bench/stats.h"
#include "encode/check.h"
#include "lang/lint_files.h"
#include "lang/parse.h"
#include "tools/generate.h"
#include "util/heap.h"

using syncproof::bench::median;

namespace {

using namespace syncproof;

double time_case(const model::Case& c, int runs, size_t* props, bool* ok) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto res = encode::check_case(c, {});
    ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    *props = res.results.size();
    if (std::getenv("SYNCPROOF_BENCH_PHASES")) {
      std::vector<double> each;  // (no std::views: clang 14 cannot compile libstdc++ 12's)
      for (const auto& x : res.results) each.push_back(x.ms);
      fmt::print(stderr, "  encode {:.1f} ms, base check {:.1f} ms, properties {}\n",
                 res.prepare_ms, res.base_ms, fmt::join(each, " / "));
    }
    *ok = std::all_of(res.results.begin(), res.results.end(),
                      [](const auto& x) { return x.as_expected; });
  }
  return median(ms);
}

int library(const std::string& dir, int runs) {
  std::vector<double> per_case;
  size_t n = 0;
  for (const auto& in : lang::collect_case_files({dir})) {
    auto pr = lang::parse_case_file(in.path);
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    size_t props = 0;
    bool ok = false;
    per_case.push_back(time_case(pr.c, runs, &props, &ok));
    ++n;
  }
  fmt::print("library {}: {} cases, median {:.2f} ms per case, max {:.2f} ms, total {:.0f} ms\n",
             dir, n, median(per_case),
             per_case.empty() ? 0.0 : *std::max_element(per_case.begin(), per_case.end()), [&] {
               double s = 0;
               for (double x : per_case) s += x;
               return s;
             }());
  return 0;
}

int streams(const std::vector<int>& sizes, int runs) {
  fmt::print("{:>8} {:>10} {:>12} {:>10}\n", "commands", "median ms", "ms/command", "verdicts");
  for (int n : sizes) {
    cli::StreamShape shape;
    shape.commands = n;
    shape.seed = 7;
    auto pr = lang::parse_case("generated.sync", cli::generate_stream(shape));
    if (pr.has_errors()) {
      fmt::print("generated stream of {} commands does not lint:\n{}", n, lang::render_all(pr));
      return 1;
    }
    size_t props = 0;
    bool ok = false;
    double ms = time_case(pr.c, runs, &props, &ok);
    fmt::print("{:>8} {:>10.1f} {:>12.3f} {:>10}\n", n, ms, ms / n, ok ? "expected" : "WRONG");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // As the syncproof tool does (util/heap.h).
  syncproof::util::use_huge_pages(argv);
  syncproof::util::keep_large_blocks();
  int runs = 3;
  std::vector<std::string> args;
  bench::FrameOptions fo;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--bug"))  // --bug [KIND]
      fo.bug = i + 1 < argc && argv[i + 1][0] != '-' && !std::isdigit(argv[i + 1][0])
                   ? argv[++i]
                   : "no-gl1-invalidate";
    else if (!std::strcmp(argv[i], "--engine") && i + 1 < argc)
      fo.engine = argv[++i];
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc)
      fo.seed = std::stoull(argv[++i]);
    else if (!std::strcmp(argv[i], "--no-order-proofs"))
      fo.no_order_proofs = true;
    else
      args.push_back(argv[i]);
  }
  fo.runs = runs;
  if (args.empty() || args[0] == "library")
    return library(args.size() > 1 ? args[1] : "cases", runs);
  if (args[0] == "engines") return bench::engines(args.size() > 1 ? args[1] : "cases", runs);
  if (args[0] == "states" && args.size() > 1)
    return bench::full_states(args[1], runs, args.size() > 2 ? std::stoull(args[2]) : 5'000'000);
  if (args[0] == "promela" && args.size() > 1) return bench::promela(args[1]);
  if (args[0] == "stream-text" && args.size() > 1) {  // the case `streams N` checks
    cli::StreamShape shape;
    shape.commands = std::atoi(args[1].c_str());
    shape.seed = 7;
    fmt::print("{}", cli::generate_stream(shape));
    return 0;
  }
  if (args[0] == "frames") {
    if (args.size() > 1) fo.sizes.clear();
    for (size_t i = 1; i < args.size(); ++i) fo.sizes.push_back(std::atoi(args[i].c_str()));
    return bench::frames(fo);
  }
  if (args[0] == "frame-text" && args.size() > 1)
    return bench::frame_text(std::atoi(args[1].c_str()), fo.bug, fo.seed);
  if (args[0] == "batch") return bench::batch(args.size() > 1 ? args[1] : "cases", runs);
  if (args[0] == "batch-generated")
    return bench::batch_generated(args.size() > 1 ? std::atoi(args[1].c_str()) : 200,
                                  args.size() > 2 ? std::atoi(args[2].c_str()) : 500, runs);
  if (args[0] == "formats") return bench::formats(args.size() > 1 ? args[1] : "cases", runs);
  if (args[0] == "fix") return bench::fix(args.size() > 1 ? args[1] : "cases/frames", runs);
  if (args[0] == "barrier-table")
    return bench::barrier_table(args.size() > 1 ? args[1] : "build/syncproof",
                                args.size() > 2 ? std::atoi(args[2].c_str()) : 2, runs);
  if (args[0] == "streams") {
    std::vector<int> sizes;
    for (size_t i = 1; i < args.size(); ++i) sizes.push_back(std::atoi(args[i].c_str()));
    if (sizes.empty()) sizes = {100, 500, 2000};
    return streams(sizes, runs);
  }
  fmt::print(
      stderr,
      "usage: syncproof_bench [library [DIR] | streams [N...] | stream-text N | frames [N...] "
      "[--bug [KIND]] [--engine smt|exec|both] [--seed S] [--no-order-proofs] | frame-text N "
      "[--bug [KIND]] [--seed S] | engines [DIR] | states CASE | promela CASE | batch [DIR] | "
      "batch-generated [N [COMMANDS]] | formats [DIR] | fix [DIR] | barrier-table [BINARY "
      "[JOBS]]] [--runs K]\n");
  return 64;
}
