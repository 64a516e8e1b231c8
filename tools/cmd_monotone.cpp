// `syncproof monotone FILE|DIR...`: the metamorphic checks of tools/metamorphic.h over case files:
// a more conservative configuration never proves more, more sync never proves less. One line per
// failure on standard output (diagnostics about inputs on standard error); exit 4 when there is
// one.
#include <fmt/format.h>

#include <iostream>

#include "lang/lint_files.h"
#include "lang/parse.h"
#include "report/run.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/metamorphic.h"
#include "tools/options.h"

namespace syncproof::cli {

namespace {

struct MonotoneArgs {
  std::vector<std::string> paths;
  size_t flags_per_case = 0;
  unsigned timeout_ms = 20000;
  bool quiet = false;
  std::string engine = "smt";
};

int run_monotone(const MonotoneArgs& a) {
  std::ostream& out = std::cout;
  encode::CheckOptions opt;
  opt.timeout_ms = a.timeout_ms;
  size_t cases = 0, problems = 0, unreadable = 0;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    if (!in.problem.empty()) {
      std::cerr << fmt::format("{}: error: {}\n", in.display, in.problem);
      ++unreadable;
      continue;
    }
    auto pr = lang::parse_case_file(in.path);
    if (pr.unreadable()) {
      std::cerr << lang::render_all(pr);
      ++unreadable;
      continue;
    }
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    ++cases;
    const MetaEngine engine = a.engine == "exec" ? MetaEngine::Exec : MetaEngine::Smt;
    for (const MetaProblem& m : metamorphic_check(pr.c, opt, a.flags_per_case, engine)) {
      ++problems;
      const model::Property& prop = pr.c.properties[m.property];
      out << fmt::format("{}:{}: NOT MONOTONE ({}) on {}: {}\n", in.display, prop.loc.line,
                         m.relation, report::property_text(pr.c, prop), m.detail);
    }
    if (!a.quiet) out << fmt::format("{}: checked\n", in.display);
  }
  out << fmt::format("monotone: {} cases, {} problems, {} unreadable\n", cases, problems,
                     unreadable);
  if (problems) return static_cast<int>(Exit::NotAsExpected);
  if (unreadable) return static_cast<int>(Exit::Unreadable);
  return static_cast<int>(Exit::Ok);
}

}  // namespace

Command register_monotone(CLI::App& app) {
  auto args = std::make_shared<MonotoneArgs>();
  auto* cmd = app.add_subcommand(
      "monotone",
      "metamorphic checks: a more conservative target, profile or assumption set never proves "
      "more, adding an operation flag to a sync never proves less, and a proof's assumption "
      "list suffices on its own");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_option("--flags-per-case", args->flags_per_case,
                  "at most this many flag additions/removals per case, spread evenly (0: all)");
  add_timeout(*cmd, args->timeout_ms);
  add_engine(*cmd, args->engine, {"smt", "exec"}, "smt (default) or exec (the executor, faster)");
  cmd->add_flag("--quiet", args->quiet, "print only failures and the summary");
  return {cmd, [args] { return run_monotone(*args); }};
}

}  // namespace syncproof::cli
