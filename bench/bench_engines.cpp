#include "bench/bench_engines.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "bench/stats.h"
#include "encode/check.h"
#include "exec/check.h"
#include "exec/graph.h"
#include "exec/search.h"
#include "lang/lint_files.h"
#include "lang/parse.h"

namespace syncproof::bench {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double max_of(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

double sum_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

template <class F>
double timed(int runs, F&& f) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    double t0 = now_ms();
    f();
    ms.push_back(now_ms() - t0);
  }
  return median(ms);
}

struct Column {
  std::vector<double> ms, states, rate;
  size_t unknown = 0;
};

void row(const char* what, const Column& c, bool has_states) {
  fmt::print("{:<10} {:>10.3f} {:>10.3f} {:>10.1f}", what, median(c.ms), max_of(c.ms),
             sum_of(c.ms));
  if (has_states)
    fmt::print(" {:>12.0f} {:>12.0f} {:>14.0f} {:>14.0f}", median(c.states), max_of(c.states),
               median(c.rate), sum_of(c.states) / std::max(1e-9, sum_of(c.ms)) * 1000);
  else
    fmt::print(" {:>12} {:>12} {:>14} {:>14}", "-", "-", "-", "-");
  fmt::print(" {:>8}\n", c.unknown);
}

}  // namespace

int engines(const std::string& dir, int runs) {
  Column smt, exec, full;
  size_t n = 0;
  for (const auto& in : lang::collect_case_files({dir})) {
    auto pr = lang::parse_case_file(in.path);
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    ++n;
    properties::CaseResult r;
    auto unknowns = [](const properties::CaseResult& cr) {
      return static_cast<size_t>(std::count_if(cr.results.begin(), cr.results.end(), [](auto& x) {
        return std::holds_alternative<properties::Unknown>(x.verdict);
      }));
    };
    smt.ms.push_back(timed(runs, [&] { r = encode::check_case(pr.c, {}); }));
    smt.unknown += unknowns(r);
    exec::ExecOptions eo;
    exec.ms.push_back(timed(runs, [&] { r = exec::check_case(pr.c, eo); }));
    exec.states.push_back(static_cast<double>(r.states));
    exec.rate.push_back(r.states / std::max(1e-6, exec.ms.back()) * 1000);
    exec.unknown += unknowns(r);
    eo.reduce = false;
    eo.minimize_assumptions = false;
    eo.max_states = 1'000'000;
    full.ms.push_back(timed(1, [&] { r = exec::check_case(pr.c, eo); }));
    full.states.push_back(static_cast<double>(r.states));
    full.rate.push_back(r.states / std::max(1e-6, full.ms.back()) * 1000);
    full.unknown += unknowns(r);
  }
  fmt::print("{} cases with properties under {} (median of {} runs per case)\n", n, dir, runs);
  fmt::print("{:<10} {:>10} {:>10} {:>10} {:>12} {:>12} {:>14} {:>14} {:>8}\n", "engine",
             "median ms", "max ms", "total ms", "med states", "max states", "med states/s",
             "all states/s", "unknown");
  row("smt", smt, false);
  row("exec", exec, true);
  row("exec-full", full, true);
  fmt::print(
      "smt: Z3 through solver/ reports no explored states; exec: states entered (events fired, "
      "backtracking included) by the reduced search, assumption minimization included; "
      "exec-full: every interleaving state, no reduction, 1000000 states per search, no "
      "minimization (unknown = budget exhausted)\n");
  return 0;
}

int full_states(const std::string& file, int runs, uint64_t budget) {
  auto pr = lang::parse_case_file(file);
  if (pr.has_errors()) {
    fmt::print(stderr, "{}", lang::render_all(pr));
    return 2;
  }
  auto p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  exec::Graph g = exec::build_graph(p, exec::WaitMode::Deadlock);
  exec::SearchStats st;
  exec::SearchResult res;
  double ms = timed(runs, [&] {
    st = {};
    res = exec::search_deadlock(g, false, {budget}, st);
  });
  fmt::print(
      "{}: {} events; full deadlock search: {} states stored, {} transitions, {:.1f} ms, "
      "{:.0f} states/s, {:.0f} transitions/s, {}\n",
      file, p.events.size(), st.stored, st.transitions, ms, st.stored / ms * 1000,
      st.transitions / ms * 1000,
      res.status == exec::Status::Violated  ? "deadlock"
      : res.status == exec::Status::Unknown ? "budget exhausted"
                                            : "deadlock-free");
  return 0;
}

}  // namespace syncproof::bench
