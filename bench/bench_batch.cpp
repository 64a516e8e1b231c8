#include "bench/bench_batch.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "bench/stats.h"
#include "report/json.h"
#include "report/junit.h"
#include "report/sarif.h"
#include "report/text.h"
#include "tools/batch.h"
#include "tools/generate.h"

namespace syncproof::bench {

namespace {

namespace fs = std::filesystem;

struct Batch {
  std::string text;  // the text report of every case, in order
  report::Run run;
  double ms = 0, cpu_ms = 0;  // wall time, and CPU time over all threads
  double case_ms = 0;         // the cases' own wall times, summed: > ms when they overlapped
};

double cpu_ms() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
         (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

Batch run_batch(const std::vector<lang::CaseInput>& inputs, unsigned jobs) {
  Batch b;
  cli::EngineRun settings;
  auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_ms();
  cli::run_batch(inputs, settings, {jobs}, [&](cli::CaseOutcome& o) {
    b.text += report::case_diagnostics(o.entry, {}) + report::case_report(o.entry, {});
    b.case_ms += o.entry.result.ms;
    b.run.cases.push_back(std::move(o.entry));
  });
  b.ms = ms_since(t0);
  b.cpu_ms = cpu_ms() - c0;
  return b;
}

int compare(const std::string& what, const std::vector<lang::CaseInput>& inputs, int runs) {
  std::vector<double> one, two, cpu1, cpu2, overlap;
  std::string text1, text2;
  for (int r = 0; r < runs; ++r) {
    Batch a = run_batch(inputs, 1);
    Batch b = run_batch(inputs, 2);
    one.push_back(a.ms), two.push_back(b.ms), cpu1.push_back(a.cpu_ms), cpu2.push_back(b.cpu_ms);
    overlap.push_back(b.case_ms / b.ms);
    text1 = std::move(a.text), text2 = std::move(b.text);
  }
  // CPU time over wall time says how many cores the batch really had (the machine is shared).
  fmt::print(
      "{}: {} inputs, {} cores; --jobs 1 {:.0f} ms (cpu/wall {:.2f}), --jobs 2 {:.0f} ms (cpu/wall "
      "{:.2f}, cases in flight {:.2f}), medians of {}: speed-up {:.2f}x; outputs {}\n",
      what, inputs.size(), std::thread::hardware_concurrency(), median(one),
      median(cpu1) / median(one), median(two), median(cpu2) / median(two), median(overlap), runs,
      median(one) / median(two), text1 == text2 ? "identical" : "DIFFERENT");
  return text1 == text2 ? 0 : 1;
}

}  // namespace

int batch(const std::string& dir, int runs) {
  return compare(dir, lang::collect_case_files({dir}), runs);
}

int batch_generated(int count, int commands, int runs) {
  const fs::path dir = fs::temp_directory_path() / "syncproof-bench-generated";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (int i = 0; i < count; ++i) {
    cli::StreamShape shape;
    shape.seed = static_cast<uint64_t>(i + 1);
    shape.commands = commands;
    std::ofstream(dir / fmt::format("stream-{:03}.sync", i)) << cli::generate_stream(shape);
  }
  const int rc = compare(fmt::format("{} generated streams of {} commands", count, commands),
                         lang::collect_case_files({dir.string()}), runs);
  fs::remove_all(dir);
  return rc;
}

int formats(const std::string& dir, int runs) {
  Batch b = run_batch(lang::collect_case_files({dir}), 1);
  b.run.version = "bench";
  fmt::print("{}: {} cases checked in {:.0f} ms (--jobs 1); report writers, median of {}:\n", dir,
             b.run.cases.size(), b.ms, runs);
  const struct {
    const char* name;
    std::string (*write)(const report::Run&);
  } writers[] = {{"text", [](const report::Run& r) { return report::write_text(r, {}); }},
                 {"json", report::write_json},
                 {"junit", report::write_junit},
                 {"sarif", report::write_sarif}};
  for (const auto& w : writers) {
    std::vector<double> ms;
    size_t bytes = 0;
    for (int r = 0; r < runs; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      bytes = w.write(b.run).size();
      ms.push_back(ms_since(t0));
    }
    fmt::print("  {:<6} {:>8.1f} ms  {:>6.1f}% of the check  {:>9} bytes\n", w.name, median(ms),
               100 * median(ms) / b.ms, bytes);
  }
  return 0;
}

}  // namespace syncproof::bench
