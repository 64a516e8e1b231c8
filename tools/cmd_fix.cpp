// `syncproof fix FILE|DIR... [--apply]`: for each case whose `prove` properties do not all hold,
// the cheapest set of edits (model/COSTS.md) that makes every one of them proved, found with the
// SMT engine (synth/) and re-checked with both engines; printed as one line per edit and as a
// unified diff of the case file, which --apply writes back atomically. docs/FIX.md.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "lang/lint_files.h"
#include "lang/parse.h"
#include "synth/text.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/report.h"
#include "tools/synth_engines.h"
#include "util/atomic_file.h"

namespace syncproof::cli {

namespace {

struct FixArgs {
  std::vector<std::string> paths;
  bool apply = false, all = false, minimize = false, quiet = false, no_diff = false;
  std::vector<std::string> costs;
  size_t budget = 3000;
  std::string profile;
  std::vector<std::string> assume;
  unsigned timeout_ms = 20000;
  uint64_t max_states = 20'000'000;
};

int fix_usage(const std::string& msg) {
  std::cerr << "syncproof fix: " << msg << "\n";
  return static_cast<int>(Exit::Usage);
}

struct Tally {
  size_t cases = 0, fixed = 0, nothing = 0, unfixable = 0, budget = 0, unverified = 0;
  size_t input_errors = 0, unreadable = 0, unwritable = 0;
  int exit_code() const {
    if (unwritable) return static_cast<int>(Exit::CannotWrite);
    if (unverified) return static_cast<int>(Exit::Disagreement);
    if (unreadable) return static_cast<int>(Exit::Unreadable);
    if (input_errors) return static_cast<int>(Exit::InputError);
    if (unfixable) return static_cast<int>(Exit::NotAsExpected);
    if (budget) return static_cast<int>(Exit::Unknown);
    return static_cast<int>(Exit::Ok);
  }
};

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void fix_one(const std::string& path, const FixArgs& a, const synth::FixOptions& opt,
             const encode::CheckOptions& smt, Tally& t, std::ostream& out) {
  if (std::filesystem::path(path).extension() == ".json") {
    out << fmt::format(
        "{}: error: a JSON command stream is generated, not edited: fix the code that records it "
        "(`syncproof check {}` lists the fix under each violation)\n",
        path, path);
    ++t.input_errors;
    return;
  }
  const auto text = read_text(path);
  lang::ParseResult pr = text ? lang::parse_case(path, *text) : lang::parse_case_file(path);
  if (!text || pr.unreadable()) {
    out << lang::render_all(pr);
    ++t.unreadable;
    return;
  }
  if (!pr.diags.empty()) out << lang::render_all(pr);
  if (pr.has_errors()) {
    ++t.input_errors;
    return;
  }
  ++t.cases;
  const model::Case& c = pr.c;
  const properties::CaseResult now = encode::check_case(c, smt);
  std::vector<size_t> goals, keep;
  synth::default_goals(c, now, a.all, &goals, &keep);
  if (goals.empty()) {
    ++t.nothing;
    if (!a.quiet)
      out << fmt::format("{}: nothing to fix (every {}property is proved)\n", path,
                         a.all ? "" : "`prove` ");
    return;
  }
  for (size_t g : goals) {
    const auto& r = now.results[g];
    const model::Property& p = c.properties[g];
    out << fmt::format("{}:{}: {}: {}", path, p.loc.line, property_text(c, p),
                       properties::verdict_name(r.verdict));
    if (const auto* v = std::get_if<properties::Violated>(&r.verdict)) out << ": " << v->trace.why;
    out << "\n";
  }
  const synth::FixResult res = synth::fix_case(c, goals, keep, opt);
  switch (res.status) {
    case synth::FixResult::Status::Nothing:
      ++t.nothing;
      out << fmt::format("{}: nothing to fix\n", path);
      return;
    case synth::FixResult::Status::Unfixable:
      ++t.unfixable;
      out << fmt::format("{}: no fix: {}\n", path, res.why);
      return;
    case synth::FixResult::Status::Budget:
      ++t.budget;
      out << fmt::format("{}: no fix: {}\n", path, res.why);
      return;
    case synth::FixResult::Status::NotVerified:
      ++t.unverified;
      out << fmt::format(
          "{}: the fix found is not confirmed by both engines, so it is not given: "
          "{}\n",
          path, res.why);
      return;
    case synth::FixResult::Status::Fixed:
      break;
  }
  const synth::EditedText et = synth::edit_text(c, *text, res.changes, res.fixed, opt.costs);
  if (!et.error.empty()) {
    ++t.unverified;
    out << fmt::format("{}: internal error: the fix cannot be written into the file: {}\n", path,
                       et.error);
    return;
  }
  ++t.fixed;
  out << fmt::format(
      "{}: fix: {} edit{}, cost {:+} (barrier {} -> {}){}; proved by both engines ({} engine "
      "calls)\n",
      path, et.edits.size(), et.edits.size() == 1 ? "" : "s", res.cost, res.before,
      res.before + res.cost, res.exact ? "" : ", cheapest found (search budget hit)", res.calls);
  for (const std::string& e : et.edits) out << "  " << e << "\n";
  if (!a.no_diff) out << et.diff;
  if (a.apply) {
    if (auto err = util::write_file_atomically(path, synth::join_source(et.text))) {
      out << fmt::format("{}: error: {}\n", path, *err);
      ++t.unwritable;
    } else {
      out << fmt::format("{}: applied\n", path);
    }
  }
}

int run_fix(const FixArgs& a, std::ostream& out) {
  encode::CheckOptions smt;
  if (!a.profile.empty()) {
    auto p = model::find_profile(a.profile);
    if (!p) return fix_usage(fmt::format("unknown profile '{}' (strict, rdna2)", a.profile));
    smt.profile = p;
  }
  for (const std::string& s : a.assume) {
    const bool on = s.empty() || s[0] != '-';
    std::string id = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
    if (!model::find_assumption(id))
      return fix_usage(fmt::format("unknown assumption '{}' (see model/SEMANTICS.md)", id));
    smt.assume.push_back({on, id});
  }
  smt.timeout_ms = a.timeout_ms;
  exec::ExecOptions ex;
  ex.profile = smt.profile, ex.assume = smt.assume;
  ex.timeout_ms = a.timeout_ms, ex.max_states = a.max_states;
  model::CostModel costs;
  if (auto err = apply_costs(costs, a.costs)) return fix_usage(*err);
  if (a.budget == 0) return fix_usage("--budget must be at least 1");
  synth::FixOptions opt = fix_options(smt, ex, costs, a.budget);
  opt.minimize = a.minimize;
  Tally t;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    if (!in.problem.empty()) {
      out << fmt::format("{}: error: {}\n", in.path, in.problem);
      ++t.unreadable;
      continue;
    }
    fix_one(in.path, a, opt, smt, t, out);
  }
  out << fmt::format(
      "fix: {} case{}: {} fixed, {} with nothing to fix, {} unfixable, {} not found within the "
      "budget, {} not confirmed; {} input errors, {} unreadable\n",
      t.cases, t.cases == 1 ? "" : "s", t.fixed, t.nothing, t.unfixable, t.budget, t.unverified,
      t.input_errors, t.unreadable);
  return t.exit_code();
}

}  // namespace

void register_fix(CLI::App& app, int& rc) {
  auto args = std::make_shared<FixArgs>();
  auto* cmd = app.add_subcommand(
      "fix",
      "the cheapest edits (flags, new syncs, waits) that make every `prove` property proved, "
      "re-checked with both engines; a unified diff, or --apply");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_flag("--apply", args->apply, "write each fixed file back (atomically)");
  cmd->add_flag("--all", args->all,
                "fix every property that is not proved, `refute` and `check` ones too (they "
                "become `prove`)");
  cmd->add_flag("--minimize", args->minimize,
                "also remove the flags near the fix that it makes unnecessary");
  cmd->add_option("--cost", args->costs, "NAME=N: override a cost of model/COSTS.md (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--budget", args->budget, "engine calls per case for the search (3000)");
  cmd->add_option("--profile", args->profile, "model profile: rdna2 (default) or strict");
  cmd->add_option("--assume", args->assume, "+ID / -ID: turn a named assumption on or off")
      ->allow_extra_args(false);
  cmd->add_option("--timeout", args->timeout_ms, "solver budget per question, in ms (20000)");
  cmd->add_option("--max-states", args->max_states, "executor budget per search (20000000)");
  cmd->add_flag("--no-diff", args->no_diff, "print the edits, not the diff");
  cmd->add_flag("--quiet", args->quiet, "say nothing about cases with nothing to fix");
  cmd->callback([args, &rc] { rc = run_fix(*args, std::cout); });
}

}  // namespace syncproof::cli
