// `syncproof check FILE|DIR...`: parse, lint and check every case; one line per property, the
// trace under each violation, a summary table, and an exit code (tools/exit_codes.h: the worst
// outcome of the run). An exception while working on one case is reported with the case's name
// and counted (Exit::Internal); the run goes on with the next case.
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <new>

#include "encode/check.h"
#include "lang/expect.h"
#include "lang/lint_files.h"
#include "lang/parse.h"
#include "properties/obligation.h"
#include "tools/case_limits.h"
#include "tools/commands.h"
#include "tools/engines.h"
#include "tools/exit_codes.h"
#include "tools/memory_limit.h"
#include "tools/options.h"
#include "tools/report.h"

namespace syncproof::cli {

namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string profile;
  std::vector<std::string> assume;
  unsigned timeout_ms = 20000;
  unsigned rlimit = solver::kDefaultRlimit;
  uint64_t max_file_size = lang::kDefaultMaxFileSize;
  uint64_t max_memory = default_memory_limit();
  CaseCaps caps;
  std::string dump_dir;
  std::string engine = "smt";
  bool quiet = false;
  bool no_order_proofs = false;
  uint64_t max_states = 20'000'000;
};

// One case file, from reading to the verdicts.
void check_file(const CheckArgs& a, const lang::CaseInput& in, EngineRun& run, Summary& sum,
                CaseSize& size, std::ostream& out) {
  auto pr = lang::parse_case_file(in.path, a.max_file_size);
  const std::string& f = pr.c.file;  // as printed
  if (pr.unreadable()) {
    out << lang::render_all(pr);
    ++(pr.rejected() ? sum.rejected : sum.unreadable);
    return;
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
      return;
    }
    if (pr.has_errors() || pr.c.properties.empty()) {
      ++row.lint_cases;
      if (!a.quiet)
        out << fmt::format("{}: diagnostics as expected ({} errors, {} warnings)\n", f, pr.errors(),
                           pr.warnings());
      return;
    }
  } else if (!pr.diags.empty()) {
    out << lang::render_all(pr);  // warnings are shown; they do not change check's exit code
  }
  if (pr.has_errors()) {
    ++row.input_errors;
    return;
  }
  if (auto over = over_caps(pr.c, run.smt.profile, run.smt.assume, a.caps, size)) {
    out << fmt::format("{}: error: {}\n", f, *over);
    ++sum.rejected;
    return;
  }
  auto res = run_engines(run, pr.c);
  row.ms += res.ms;
  for (const auto& r : res.results) {
    const model::Property& prop = pr.c.properties[r.property];
    print_property(out, pr.c, prop, r, a.quiet);
    row.count(prop, r);
  }
  out << run.pending;
  run.pending.clear();
}

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
  opt.rlimit = a.rlimit;
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
  if (std::string e = apply_memory_limit(a.max_memory); !e.empty()) {
    out << fmt::format("syncproof check: cannot set the memory limit (--max-memory): {}\n", e);
    return static_cast<int>(Exit::Usage);
  }

  Summary sum;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    if (!in.problem.empty()) {
      out << fmt::format("{}: error: {}\n", in.display, in.problem);
      ++(in.kind == lang::FileProblem::Rejected ? sum.rejected : sum.unreadable);
      continue;
    }
    CaseSize size;
    try {
      check_file(a, in, run, sum, size, out);
    } catch (const std::bad_alloc&) {
      run.pending.clear();
      ++sum.internal;
      out << fmt::format(
          "{}: internal error: out of memory while checking the case ({}; memory limit {}, "
          "--max-memory); the engines cannot check a case this large on this machine\n",
          in.display, size.describe(),
          a.max_memory && memory_limit_enforced() ? lang::format_size(a.max_memory) : "none");
    } catch (const std::exception& e) {
      run.pending.clear();
      ++sum.internal;
      out << fmt::format("{}: internal error: {}\n", in.display, e.what());
    }
  }
  print_summary(out, sum);
  print_engine_summary(out, run);
  sum.disagreements = run.problems;
  return static_cast<int>(sum.exit_code());
}

}  // namespace

void register_check(CLI::App& app, int& rc) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "prove or refute the properties of case files");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_option("--profile", args->profile, "model profile: rdna2 (default) or strict");
  cmd->add_option("--assume", args->assume, "+ID / -ID: turn a named assumption on or off");
  cmd->add_option("--timeout", args->timeout_ms,
                  "wall-clock budget per question, in ms, both engines (20000; at least 1)")
      ->check(positive_ms());
  cmd->add_option("--rlimit", args->rlimit,
                  fmt::format("SMT engine: Z3 resource units per question ({}; 0 = none); "
                              "unlike --timeout, the same on every machine",
                              solver::kDefaultRlimit));
  add_max_file_size(*cmd, args->max_file_size);
  add_max_memory(*cmd, args->max_memory);
  cmd->add_option("--max-commands", args->caps.commands,
                  fmt::format("largest case checked, in commands ({}); larger ones are refused "
                              "(exit 7)",
                              kMaxCommands));
  cmd->add_option("--max-events", args->caps.events,
                  fmt::format("largest case checked, in lowered hardware events ({}); larger "
                              "ones are refused (exit 7)",
                              kMaxEvents));
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
