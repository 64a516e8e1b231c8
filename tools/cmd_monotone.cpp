// `syncproof monotone FILE|DIR...`: the metamorphic checks of tools/metamorphic.h over case files:
// a more conservative configuration never proves more, more sync never proves less. One line per
// failure; exit 4 when there is one.
#include <fmt/format.h>

#include <iostream>

#include "lang/lint_files.h"
#include "lang/parse.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/metamorphic.h"
#include "tools/report.h"

namespace syncproof::cli {

namespace {

struct MonotoneArgs {
  std::vector<std::string> paths;
  size_t flags_per_case = 0;
  unsigned timeout_ms = 20000;
  bool quiet = false;
  std::string engine = "smt";
};

int run_monotone(const MonotoneArgs& a, std::ostream& out) {
  encode::CheckOptions opt;
  opt.timeout_ms = a.timeout_ms;
  size_t cases = 0, problems = 0, unreadable = 0;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    if (!in.problem.empty()) {
      out << fmt::format("{}: error: {}\n", in.path, in.problem);
      ++unreadable;
      continue;
    }
    auto pr = lang::parse_case_file(in.path);
    if (pr.unreadable()) {
      out << lang::render_all(pr);
      ++unreadable;
      continue;
    }
    if (pr.has_errors() || pr.c.properties.empty()) continue;
    ++cases;
    const MetaEngine engine = a.engine == "exec" ? MetaEngine::Exec : MetaEngine::Smt;
    for (const MetaProblem& m : metamorphic_check(pr.c, opt, a.flags_per_case, engine)) {
      ++problems;
      const model::Property& prop = pr.c.properties[m.property];
      out << fmt::format("{}:{}: NOT MONOTONE ({}) on {}: {}\n", in.path, prop.loc.line, m.relation,
                         property_text(pr.c, prop), m.detail);
    }
    if (!a.quiet) out << fmt::format("{}: checked\n", in.path);
  }
  out << fmt::format("monotone: {} cases, {} problems, {} unreadable\n", cases, problems,
                     unreadable);
  if (problems) return static_cast<int>(Exit::NotAsExpected);
  if (unreadable) return static_cast<int>(Exit::Unreadable);
  return static_cast<int>(Exit::Ok);
}

}  // namespace

void register_monotone(CLI::App& app, int& rc) {
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
  cmd->add_option("--timeout", args->timeout_ms, "solver budget per question, in ms (20000)");
  cmd->add_option("--engine", args->engine, "smt (default) or exec (the executor, faster)")
      ->check(CLI::IsMember({"smt", "exec"}));
  cmd->add_flag("--quiet", args->quiet, "print only failures and the summary");
  cmd->callback([args, &rc] { rc = run_monotone(*args, std::cout); });
}

}  // namespace syncproof::cli
