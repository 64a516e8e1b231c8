// `syncproof fuzz --seed S --count N [--max-commands K] [--queues Q]`: random cases
// (tools/fuzz_gen.h) checked by both engines (crosscheck/cross_check.h). Every disagreement is
// shrunk (tools/fuzz_shrink.h) and written as cases/regress/<seed>-<what>.sync with the verdict
// both engines must agree on, so it becomes a regression test once the bug is fixed. Case i of a
// run has seed S+i: `--seed S+i --count 1` regenerates it.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "crosscheck/cross_check.h"
#include "lang/parse.h"
#include "properties/deadlock_rules.h"
#include "properties/result.h"
#include "report/run.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/fuzz_shrink.h"
#include "tools/metamorphic.h"
#include "tools/options.h"

namespace syncproof::cli {

using crosscheck::agreed_expectation;
using crosscheck::cross_check;
using crosscheck::CrossResult;
using crosscheck::Problem;

namespace {

constexpr size_t kFlagsPerCase = 6;  // flag additions/removals checked per random case

struct FuzzArgs {
  uint64_t seed = 1;
  uint64_t count = 100;
  FuzzShape shape;
  std::string out = "cases/regress";
  bool shrink = true;
  bool quiet = false;
  bool monotone = true;       // also run the metamorphic checks (tools/metamorphic.h)
  size_t slice_above = 2000;  // as check's --slice-above: slices and the executor's cones
  unsigned timeout_ms = 20000;
};

struct Totals {
  uint64_t cases = 0, checked = 0, invalid = 0, properties = 0;
  uint64_t linter_bugs = 0, generator_bugs = 0, disagreements = 0, not_monotone = 0;
  uint64_t verdicts[4] = {0, 0, 0, 0};      // the SMT engine's: proved, violated, unknown, error
  uint64_t vacuous = 0;                     // cases without a complete execution (generator bugs)
  uint64_t internal = 0;                    // cases stopped by an exception
  uint64_t commands = 0, max_commands = 0;  // over the checked cases
  double smt_ms = 0, exec_ms = 0;
  // Each engine's slowest case (its own check time) and the executor's gave-ups: what a pass's
  // time goes to, and whether a deadline or budget cut a question (the SMT engine's are in
  // `verdicts`).
  struct Slowest {
    double ms = 0;
    uint64_t seed = 0;
    void take(double t, uint64_t s) {
      if (t > ms) ms = t, seed = s;
    }
  } slowest_smt, slowest_exec;
  uint64_t exec_unknown = 0;
  // Unknown because a search or a solver question ran out of its budget or time, not because the
  // case may hang (properties::may_hang): the SMT engine's and the executor's.
  uint64_t smt_cut = 0, exec_cut = 0;
  double meta_ms = 0;  // the metamorphic checks' runs (check_monotone), shrinking included
};

// The signature a shrunk case must keep: the same problem on the same kind of property.
bool same_problem(const lang::ParseResult& pr, const CrossResult& x, const Problem& want,
                  model::PropertyKind kind) {
  for (const Problem& pb : x.problems)
    if (pb.kind == want.kind && pr.c.properties[pb.property].kind == kind) return true;
  return false;
}

std::string regression_file(const FuzzArgs& a, const FuzzCase& small, const lang::ParseResult& pr,
                            const CrossResult& x, const Problem& pb) {
  const model::Property& prop = pr.c.properties[pb.property];
  const std::string verb = agreed_expectation(pr.c, x, pb, a.timeout_ms);
  FuzzCase out = small;
  out.title =
      fmt::format("fuzz seed {}: {} on {}", small.seed, to_string(pb.kind), to_string(prop.kind));
  out.props = {fmt::format("{} {}", verb, report::property_text(pr.c, prop))};
  std::string what = fmt::format("{}-{}", to_string(prop.kind), to_string(pb.kind));
  std::filesystem::create_directories(a.out);
  std::string path = fmt::format("{}/{}-{}.sync", a.out, small.seed, what);
  std::ofstream f(path);
  f << fmt::format(
      "# Found by `syncproof fuzz --seed {} --count 1`, then shrunk: the SMT engine and the\n"
      "# executor disagreed ({}): {}\n"
      "# Expected verdict: the one the other engine's replay of the counterexample supports.\n",
      small.seed, to_string(pb.kind), pb.detail.substr(0, pb.detail.find('\n')));
  f << out.render();
  return path;
}

// The relation a problem is about, without where (a shrunk case keeps the kind of failure).
std::string relation_kind(const MetaProblem& m) {
  return m.relation.substr(0, std::min(m.relation.find(" at line"), m.relation.find(" vs ")));
}

// The metamorphic checks of tools/metamorphic.h on one case (with the executor, which the engine
// cross-check above keeps honest); a failure is shrunk and saved like a disagreement.
void check_monotone(const FuzzArgs& a, const FuzzCase& fc, const lang::ParseResult& pr, Totals& t,
                    std::ostream& out) {
  encode::CheckOptions so;
  so.timeout_ms = a.timeout_ms;
  auto problems = metamorphic_check(pr.c, so, kFlagsPerCase, MetaEngine::Exec);
  if (problems.empty()) return;
  ++t.not_monotone;
  const MetaProblem& m = problems.front();
  const std::string kind = relation_kind(m);
  out << fmt::format("seed {}: NOT MONOTONE ({}) on {}: {}\n", fc.seed, m.relation,
                     report::property_text(pr.c, pr.c.properties[m.property]), m.detail);
  auto keeps = [&](const FuzzCase& cand) {
    auto p2 = lang::parse_case("shrink.sync", cand.render());
    if (p2.has_errors()) return false;
    for (const MetaProblem& q : metamorphic_check(p2.c, so, 0, MetaEngine::Exec))
      if (relation_kind(q) == kind) return true;
    return false;
  };
  FuzzCase small = a.shrink ? shrink(fc, keeps) : fc;
  small.title = fmt::format("fuzz seed {}: not monotone ({})", small.seed, kind);
  std::filesystem::create_directories(a.out);
  std::string slug = kind;
  for (char& ch : slug)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '-';
  const std::string path = fmt::format("{}/{}-monotone-{}.sync", a.out, small.seed, slug);
  std::ofstream f(path);
  f << fmt::format(
      "# Found by `syncproof fuzz --seed {} --count 1`, then shrunk: a metamorphic relation of\n"
      "# tools/metamorphic.h fails ({}). `syncproof monotone` on this file must report nothing.\n",
      small.seed, m.relation);
  f << small.render();
  out << fmt::format("  shrunk to {}\n", path);
}

int run_fuzz(const FuzzArgs& a, std::ostream& out) {
  encode::CheckOptions so;
  so.timeout_ms = a.timeout_ms;
  so.slice_above = a.slice_above;
  exec::ExecOptions eo;
  eo.timeout_ms = a.timeout_ms;
  eo.cone_above = a.slice_above;
  const auto replays = std::make_shared<solver::ContextPool>(1);  // one pool for every case
  Totals t;
  auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < a.count; ++i) {
    FuzzCase fc = generate_case(a.seed + i, a.shape);
    const std::string text = fc.render();
    auto pr = lang::parse_case(fmt::format("fuzz-{}.sync", fc.seed), text);
    ++t.cases;
    if (fc.expect_lint_error) {  // the linter must reject it (and not crash)
      ++t.invalid;
      if (!pr.has_errors()) {
        ++t.linter_bugs;
        out << fmt::format("seed {}: the linter accepted an invalid flag combination:\n{}\n",
                           fc.seed, text);
      }
      continue;
    }
    if (pr.has_errors()) {
      ++t.generator_bugs;
      out << fmt::format("seed {}: generated case does not lint (generator bug):\n{}{}\n", fc.seed,
                         lang::render_all(pr), text);
      continue;
    }
    ++t.checked;
    t.properties += pr.c.properties.size();
    CrossResult x;
    try {
      x = cross_check(pr.c, so, eo, replays);
    } catch (const std::exception& e) {  // bad_alloc included: report the seed, go on
      ++t.internal;
      out << fmt::format("seed {}: internal error: {}\n", fc.seed, e.what());
      continue;
    }
    t.smt_ms += x.smt.ms, t.exec_ms += x.exec.ms;
    t.slowest_smt.take(x.smt.ms, fc.seed), t.slowest_exec.take(x.exec.ms, fc.seed);
    for (const auto& r : x.exec.results) {
      t.exec_unknown += std::holds_alternative<properties::Unknown>(r.verdict);
      t.exec_cut += std::holds_alternative<properties::Unknown>(r.verdict) &&
                    !properties::may_hang(r.verdict);
    }
    bool vacuous = false;
    for (const auto& r : x.smt.results) {
      ++t.verdicts[r.verdict.index()];
      t.smt_cut += std::holds_alternative<properties::Unknown>(r.verdict) &&
                   !properties::may_hang(r.verdict);
      if (auto* e = std::get_if<properties::Error>(&r.verdict))
        vacuous |= e->message.starts_with("vacuous");
    }
    if (vacuous) {  // the generator only makes cases with a complete execution
      ++t.vacuous, ++t.generator_bugs;
      out << fmt::format("seed {}: generated case has no complete execution (generator bug):\n{}\n",
                         fc.seed, text);
    }
    uint64_t n = 0;
    for (const auto& q : pr.c.queues) n += q.commands.size();
    t.commands += n, t.max_commands = std::max(t.max_commands, n);
    if (!a.quiet)
      for (const std::string& n : x.notes) out << fmt::format("seed {}: note: {}\n", fc.seed, n);
    for (const Problem& pb : x.problems) {
      ++t.disagreements;
      const model::PropertyKind kind = pr.c.properties[pb.property].kind;
      out << fmt::format("seed {}: ENGINE DISAGREEMENT ({}) on {}: {}\n", fc.seed,
                         to_string(pb.kind),
                         report::property_text(pr.c, pr.c.properties[pb.property]), pb.detail);
      FuzzCase small = fc;
      if (a.shrink)
        small = shrink(fc, [&](const FuzzCase& cand) {
          auto p2 = lang::parse_case("shrink.sync", cand.render());
          return !p2.has_errors() && same_problem(p2, cross_check(p2.c, so, eo, replays), pb, kind);
        });
      auto ps = lang::parse_case("shrunk.sync", small.render());
      CrossResult xs = cross_check(ps.c, so, eo, replays);
      for (const Problem& q : xs.problems)
        if (q.kind == pb.kind && ps.c.properties[q.property].kind == kind) {
          out << fmt::format("  shrunk to {}\n", regression_file(a, small, ps, xs, q));
          break;
        }
      break;  // one report per case
    }
    if (a.monotone && x.problems.empty()) {
      const auto m0 = std::chrono::steady_clock::now();
      check_monotone(a, fc, pr, t, out);
      t.meta_ms += properties::ms_since(m0);
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out << fmt::format(
      "fuzz: seeds {}..{}: {} cases ({} checked by both engines, {} invalid on purpose and "
      "rejected by the linter; {:.1f} commands on average, {} at most), {} properties ({} proved, "
      "{} violated, {} unknown, {} errors; {} vacuous cases; the executor: {} unknown; cut short: "
      "smt {}, exec {}); smt {:.1f} "
      "cases/s (slowest {:.0f} ms, seed {}), exec {:.1f} cases/s (slowest {:.0f} ms, seed {}), "
      "metamorphic checks {:.1f}s, {:.1f}s wall; {} disagreements, {} internal errors, {} linter "
      "bugs, {} generator bugs, {} not monotone\n",
      a.seed, a.seed + a.count - 1, t.cases, t.checked, t.invalid - t.linter_bugs,
      t.checked ? static_cast<double>(t.commands) / static_cast<double>(t.checked) : 0.0,
      t.max_commands, t.properties, t.verdicts[0], t.verdicts[1], t.verdicts[2], t.verdicts[3],
      t.vacuous, t.exec_unknown, t.smt_cut, t.exec_cut,
      t.smt_ms > 0 ? t.checked * 1000.0 / t.smt_ms : 0.0, t.slowest_smt.ms, t.slowest_smt.seed,
      t.exec_ms > 0 ? t.checked * 1000.0 / t.exec_ms : 0.0, t.slowest_exec.ms, t.slowest_exec.seed,
      t.meta_ms / 1000, wall, t.disagreements, t.internal, t.linter_bugs, t.generator_bugs,
      t.not_monotone);
  Exit e = Exit::Ok;
  if (t.disagreements) e = worse(e, Exit::Disagreement);
  if (t.internal) e = worse(e, Exit::Internal);
  if (t.linter_bugs || t.generator_bugs || t.not_monotone) e = worse(e, Exit::NotAsExpected);
  return static_cast<int>(e);
}

}  // namespace

Command register_fuzz(CLI::App& app) {
  auto args = std::make_shared<FuzzArgs>();
  auto* cmd = app.add_subcommand(
      "fuzz", "check random cases with both engines; shrink and save every disagreement");
  cmd->add_option("--seed", args->seed, "first seed (case i uses seed+i)")->required();
  cmd->add_option("--count", args->count, "how many cases (100; at least 1)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 40));
  cmd->add_option("--max-commands", args->shape.max_commands,
                  "commands per case, at most (10; at least 1)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--queues", args->shape.queues, "queues per case, at most (3)");
  cmd->add_option("--out", args->out, "where shrunk disagreements go (cases/regress)");
  add_timeout(*cmd, args->timeout_ms);
  cmd->add_flag("!--no-shrink", args->shrink, "report disagreements without shrinking them");
  cmd->add_flag("--quiet", args->quiet, "no notes, only disagreements and the summary");
  cmd->add_option("--slice-above", args->slice_above,
                  "SMT slices and executor cones for programs of more than this many lowered "
                  "events, as in check (2000; 0: every case)");
  cmd->add_flag("!--no-monotone", args->monotone,
                "skip the metamorphic checks (conservative configurations never prove more, "
                "more sync never proves less)");
  return {cmd, [args] { return run_fuzz(*args, std::cout); }};
}

}  // namespace syncproof::cli
