// `syncproof check FILE|DIR...`: parse, lint and check every case; one line per property, the
// trace under each violation, a summary table, and an exit code (tools/exit_codes.h).
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "encode/check.h"
#include "lang/expect.h"
#include "lang/lint_files.h"
#include "lang/parse.h"
#include "properties/obligation.h"
#include "tools/commands.h"
#include "tools/engines.h"
#include "tools/exit_codes.h"
#include "tools/report.h"

namespace syncproof::cli {

namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string profile;
  std::vector<std::string> assume;
  unsigned timeout_ms = 20000;
  std::string dump_dir;
  std::string engine = "smt";
  bool quiet = false;
  bool no_order_proofs = false;
  uint64_t max_states = 20'000'000;
};

int run_check(const CheckArgs& a, std::ostream& out) {
  encode::CheckOptions opt;
  if (!a.profile.empty()) {
    auto p = model::find_profile(a.profile);
    if (!p) {
      out << fmt::format("syncproof check: unknown profile '{}' (strict, rdna2)\n", a.profile);
      return static_cast<int>(Exit::Usage);
    }
    opt.profile = p;
  }
  for (const std::string& s : a.assume) {
    bool on = s.empty() || s[0] != '-';
    std::string id = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
    if (!model::find_assumption(id)) {
      out << fmt::format("syncproof check: unknown assumption '{}' (see model/SEMANTICS.md)\n", id);
      return static_cast<int>(Exit::Usage);
    }
    opt.assume.push_back({on, id});
  }
  opt.timeout_ms = a.timeout_ms;
  opt.order_proofs = !a.no_order_proofs;
  if (!a.dump_dir.empty()) opt.dump_dir = a.dump_dir;
  EngineRun run;
  if (auto e = find_engine(a.engine)) {
    run.engine = *e;
  } else {
    out << fmt::format("syncproof check: unknown engine '{}' (smt, exec, both)\n", a.engine);
    return static_cast<int>(Exit::Usage);
  }
  run.smt = opt;
  run.exec.profile = opt.profile, run.exec.assume = opt.assume;
  run.exec.timeout_ms = a.timeout_ms, run.exec.max_states = a.max_states;

  Summary sum;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    const std::string& f = in.path;
    if (!in.problem.empty()) {
      out << fmt::format("{}: error: {}\n", f, in.problem);
      ++sum.unreadable;
      continue;
    }
    auto pr = lang::parse_case_file(f);
    if (pr.unreadable()) {
      out << lang::render_all(pr);
      ++sum.unreadable;
      continue;
    }
    auto& row = sum.row_for(f);
    ++row.cases;
    // `# expect:` markers state the diagnostics a case must produce (a lint case, or a case
    // whose warning is part of its point); then only its properties are checked, if any.
    const bool has_markers = !lang::read_expectations(pr.c.lines).expected.empty();
    if (has_markers) {
      auto report = lang::compare_expectations(pr.c.lines, pr.diags);
      if (!report.ok()) {
        out << lang::render_report(report, f);
        ++row.not_as_expected;
        continue;
      }
      if (pr.has_errors() || pr.c.properties.empty()) {
        ++row.lint_cases;
        if (!a.quiet)
          out << fmt::format("{}: diagnostics as expected ({} errors, {} warnings)\n", f,
                             pr.errors(), pr.warnings());
        continue;
      }
    } else if (!pr.diags.empty()) {
      out << lang::render_all(pr);
    }
    if (pr.has_errors()) {
      ++row.input_errors;
      continue;
    }
    auto res = run_engines(run, pr.c);
    row.ms += res.ms;
    for (const auto& r : res.results) {
      const model::Property& prop = pr.c.properties[r.property];
      print_property(out, pr.c, prop, r, a.quiet);
      row.count(r);
    }
    out << run.pending;
  }
  print_summary(out, sum);
  print_engine_summary(out, run);
  if (run.problems) return static_cast<int>(Exit::Disagreement);
  return sum.exit_code();
}

}  // namespace

void register_check(CLI::App& app, int& rc) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "prove or refute the properties of case files");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_option("--profile", args->profile, "model profile: rdna2 (default) or strict");
  cmd->add_option("--assume", args->assume, "+ID / -ID: turn a named assumption on or off");
  cmd->add_option("--timeout", args->timeout_ms, "solver budget per question, in ms (20000)");
  cmd->add_option("--dump-smt2", args->dump_dir, "write every solver query as SMT-LIB here");
  cmd->add_option("--engine", args->engine,
                  "smt (default), exec (the explicit-state executor) or both (cross-validate)");
  cmd->add_option("--max-states", args->max_states,
                  "executor budget: states per search (20000000); exhausted gives unknown");
  cmd->add_flag("--quiet", args->quiet, "print only failures and the summary");
  cmd->add_flag("--no-order-proofs", args->no_order_proofs,
                "ask the solver every question (no must-happen-before shortcut)");
  cmd->callback([args, &rc] { rc = run_check(*args, std::cout); });
}

}  // namespace syncproof::cli
