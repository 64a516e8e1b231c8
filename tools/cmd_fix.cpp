// `syncproof fix FILE|DIR... [--apply]`: for each case whose `prove` properties do not all hold,
// the cheapest set of edits (model/COSTS.md) that makes every one of them proved, found with the
// SMT engine (synth/) and re-checked with both engines; printed as one line per edit and as a
// unified diff of the case file, which --apply writes back atomically, keeping the file's byte
// order mark, line breaks, mode and owner (tools/line_breaks.h, util/atomic_file.h) and refusing a
// read-only file (exit 73). docs/FIX.md. The report goes to standard output, diagnostics about
// inputs and outputs to standard error.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include <filesystem>
#include <iostream>

#include "lang/lint_files.h"
#include "lang/parse.h"
#include "model/targets.h"
#include "report/run.h"
#include "report/text.h"
#include "synth/text.h"
#include "tools/color.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/line_breaks.h"
#include "tools/options.h"
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
  std::vector<std::string> target;
  unsigned timeout_ms = 20000;
  uint64_t max_states = 20'000'000;
  std::string color = "auto";
  std::string style = "any";
};

struct Tally {
  size_t cases = 0, fixed = 0, nothing = 0, unfixable = 0, budget = 0, unverified = 0;
  size_t input_errors = 0, unreadable = 0, rejected = 0, unwritable = 0;
  Exit exit_code() const {
    Exit e = Exit::Ok;
    const auto when = [&](size_t n, Exit x) {
      if (n) e = worse(e, x);
    };
    when(unwritable, Exit::CannotWrite);
    when(unverified, Exit::Disagreement);
    when(unreadable, Exit::Unreadable);
    when(rejected, Exit::Rejected);
    when(input_errors, Exit::InputError);
    when(unfixable, Exit::NotAsExpected);
    when(budget, Exit::Unknown);
    return e;
  }
};

// The check's and the search's options with gl2-rb-coherent set to each value (alt[v]: with
// gl2-rb-coherent v), the one fact the targets differ in (model/targets.h).
struct AltTarget {
  encode::CheckOptions smt;
  synth::FixOptions fix;
};
using AltOptions = std::array<AltTarget, 2>;

std::string coherence_why(bool coherent) {
  return coherent ? "there GL2 is coherent between the render back-ends and the other clients, so "
                    "data crossing between them need not meet in memory; no console target is "
                    "known to be such a GPU (model/SEMANTICS.md, Targets)"
                  : "there GL2 is not coherent between the render back-ends and the other "
                    "clients: data crossing between them must meet in memory, a GL2 write-back, "
                    "then a GL2 invalidation (research §2.3; model/SEMANTICS.md, Targets)";
}

// The facts on the other value of gl2-rb-coherent, for describe_where.
model::Target other_facts(const model::Target& here) {
  model::Target t;
  model::apply_target(t, "gl2-rb-coherent", here.gl2_rb_coherent ? "no" : "yes");
  return t;
}

// Names the target the fix was found on and, where gl2-rb-coherent can matter in the case, what
// the other value of that fact needs instead.
void print_target(std::ostream& out, const model::Case& c, const synth::FixResult& res,
                  const std::vector<size_t>& goals, const std::vector<size_t>& keep,
                  const model::Target& here, const AltOptions& alt) {
  out << fmt::format("  target: {}\n", model::describe(here));
  if (!model::rb_coherence_matters(c)) return;
  const model::Target there = other_facts(here);
  const synth::FixResult o = synth::fix_case(c, goals, keep, alt[there.gl2_rb_coherent].fix);
  if (o.status == synth::FixResult::Status::Nothing)
    out << fmt::format("  with {} nothing needs fixing: {}\n", model::describe_where(there),
                       coherence_why(there.gl2_rb_coherent));
  else if (o.status == synth::FixResult::Status::Fixed && o.cost != res.cost)
    out << fmt::format("  with {} the cheapest fix costs {:+} instead: {}\n",
                       model::describe_where(there), o.cost, coherence_why(there.gl2_rb_coherent));
}

// Where nothing needs fixing on a target that assumes GL2 coherent between the render back-ends and
// the other clients (set by the user: no console target has it), the properties the other value
// violates.
void print_unfixed_elsewhere(std::ostream& out, const model::Case& c, const model::Target& here,
                             const AltOptions& alt, bool all) {
  if (!here.gl2_rb_coherent || !model::rb_coherence_matters(c)) return;
  const model::Target there = other_facts(here);
  const properties::CaseResult r = encode::check_case(c, alt[there.gl2_rb_coherent].smt);
  std::vector<size_t> goals, keep;
  synth::default_goals(c, r, all, &goals, &keep);
  if (goals.empty()) return;
  std::vector<unsigned> lines;
  for (size_t g : goals) lines.push_back(c.properties[g].loc.line);
  const bool one = lines.size() == 1;
  out << fmt::format("  but with {} the propert{} at line{} {} {} not proved: {}\n",
                     model::describe_where(there), one ? "y" : "ies", one ? "" : "s",
                     fmt::join(lines, ", "), one ? "is" : "are",
                     coherence_why(there.gl2_rb_coherent));
}

void fix_one(const lang::CaseInput& in, const FixArgs& a, const synth::FixOptions& opt,
             const AltOptions& alt, const encode::CheckOptions& smt,
             const report::TextStyle& err_style, Tally& t) {
  std::ostream& out = std::cout;
  const std::string& name = in.display;
  if (std::filesystem::path(in.path).extension() == ".json") {
    std::cerr << fmt::format(
        "{}: error: a JSON command stream is generated, not edited: fix the code that records it "
        "(`syncproof check {}` lists the fix under each violation)\n",
        name, name);
    ++t.input_errors;
    return;
  }
  const lang::SourceText src = lang::read_source(in.path);
  if (src.problem != lang::FileProblem::None) {
    std::cerr << fmt::format("{}: error: {}\n", name, src.message);
    ++(src.problem == lang::FileProblem::Rejected ? t.rejected : t.unreadable);
    return;
  }
  const FileText file = split_conventions(src.text);
  lang::ParseResult pr = lang::parse_case(name, file.text);
  for (const lang::Diagnostic& d : pr.diags)
    std::cerr << report::diagnostic_text(d, pr.c, err_style);
  if (pr.has_errors()) {
    ++t.input_errors;
    return;
  }
  ++t.cases;
  const model::Case& c = pr.c;
  const properties::CaseResult now = encode::check_case(c, smt);
  const model::Target here = model::config_for(c, smt.profile, smt.assume, smt.target).target;
  // Reports name a target other than the default.
  const std::string on_target =
      here.name == "conservative" && !here.changed ? "" : " on target " + model::describe(here);
  std::vector<size_t> goals, keep;
  synth::default_goals(c, now, a.all, &goals, &keep);
  const bool barriers = std::any_of(c.queues.begin(), c.queues.end(), [](const model::Queue& q) {
    return std::any_of(q.commands.begin(), q.commands.end(), [](const model::Command& cmd) {
      return std::holds_alternative<model::BarrierCmd>(cmd.body);
    });
  });
  // With standard barriers a proved case may still be rewritten: cheaper Xbox sync calls for them.
  if (goals.empty() && (!barriers || opt.style == synth::Style::Standard)) {
    ++t.nothing;
    if (!a.quiet) {
      out << fmt::format("{}: nothing to fix (every {}property is proved{})\n", name,
                         a.all ? "" : "`prove` ", on_target);
      print_unfixed_elsewhere(out, c, here, alt, a.all);
    }
    return;
  }
  for (size_t g : goals) {
    const auto& r = now.results[g];
    const model::Property& p = c.properties[g];
    out << fmt::format("{}:{}: {}: {}", name, p.loc.line, report::property_text(c, p),
                       properties::verdict_name(r.verdict));
    if (const auto* v = std::get_if<properties::Violated>(&r.verdict)) out << ": " << v->trace.why;
    out << "\n";
  }
  const synth::FixResult res = synth::fix_case(c, goals, keep, opt);
  switch (res.status) {
    case synth::FixResult::Status::Nothing:
      ++t.nothing;
      if (!a.quiet || !goals.empty()) {
        out << fmt::format("{}: nothing to fix{}{}\n", name,
                           goals.empty() ? " (every property is proved, and no standard barrier "
                                           "has a cheaper replacement)"
                                         : "",
                           on_target);
        if (goals.empty()) print_unfixed_elsewhere(out, c, here, alt, a.all);
      }
      return;
    case synth::FixResult::Status::Unfixable:
      ++t.unfixable;
      out << fmt::format("{}: no fix: {}\n", name, res.why);
      return;
    case synth::FixResult::Status::Budget:
      ++t.budget;
      out << fmt::format("{}: no fix: {}\n", name, res.why);
      return;
    case synth::FixResult::Status::NotVerified:
      ++t.unverified;
      out << fmt::format(
          "{}: the fix found is not confirmed by both engines, so it is not given: {}\n", name,
          res.why);
      return;
    case synth::FixResult::Status::Fixed:
      break;
  }
  const synth::EditedText et = synth::edit_text(c, file.text, res.changes, res.fixed, opt.costs);
  // What --apply writes: the edits on the file's own bytes, which must read as the edited text.
  const std::string bytes = apply_keeping_conventions(file, et.changes);
  std::string error = et.error;
  if (error.empty() && split_conventions(bytes).text != synth::join_source(et.text))
    error = "keeping the file's line breaks changed the edited text";
  if (!error.empty()) {
    ++t.unverified;
    std::cerr << fmt::format("{}: internal error: the fix cannot be written into the file: {}\n",
                             name, error);
    return;
  }
  ++t.fixed;
  out << fmt::format(
      "{}: fix: {} edit{}, cost {:+} (barrier {} -> {}){}; proved by both engines ({} engine "
      "calls)\n",
      name, et.edits.size(), et.edits.size() == 1 ? "" : "s", res.cost, res.before,
      res.before + res.cost, res.exact ? "" : ", cheapest found (search budget hit)", res.calls);
  for (const std::string& e : et.edits) out << "  " << e << "\n";
  print_target(out, c, res, goals, keep, here, alt);
  if (!a.no_diff) out << et.diff;
  if (a.apply) {
    if (auto err = util::write_file_atomically(in.path, bytes)) {
      std::cerr << "syncproof fix: " << *err << "\n";
      ++t.unwritable;
    } else {
      out << fmt::format("{}: applied\n", name);
    }
  }
  out << std::flush;
}

int run_fix(const FixArgs& a) {
  encode::CheckOptions smt;
  exec::ExecOptions ex;
  apply_model_options(a.profile, a.assume, a.target, smt, ex);
  smt.timeout_ms = a.timeout_ms;
  ex.timeout_ms = a.timeout_ms, ex.max_states = a.max_states;
  model::CostModel costs;
  apply_costs(costs, a.costs);  // validated while parsing (add_cost)
  synth::FixOptions opt = fix_options(smt, ex, costs, a.budget);
  opt.minimize = a.minimize;
  const report::TextStyle err_style{use_color(a.color, 2), false};
  for (const std::string& p : a.paths)
    if (p == "-") throw UsageError("fix edits files: give the case file, not standard input ('-')");
  const auto style = synth::find_style(a.style);
  if (!style) throw UsageError(fmt::format("--style '{}': expected x, standard or any", a.style));
  opt.style = *style;
  AltOptions alt;
  for (int v = 0; v < 2; ++v) {
    alt[v].smt = smt;
    exec::ExecOptions e = ex;
    alt[v].smt.target.push_back(v ? "gl2-rb-coherent=yes" : "gl2-rb-coherent=no");
    e.target = alt[v].smt.target;
    alt[v].fix = fix_options(alt[v].smt, e, costs, a.budget);
    alt[v].fix.minimize = opt.minimize, alt[v].fix.style = opt.style;
  }
  Tally t;
  for (const lang::CaseInput& in : lang::collect_case_files(a.paths)) {
    if (!in.problem.empty()) {
      std::cerr << fmt::format("{}: error: {}\n", in.display, in.problem);
      ++(in.kind == lang::FileProblem::Rejected ? t.rejected : t.unreadable);
      continue;
    }
    fix_one(in, a, opt, alt, smt, err_style, t);
  }
  std::cout << fmt::format(
      "fix: {} case{}: {} fixed, {} with nothing to fix, {} unfixable, {} not found within the "
      "budget, {} not confirmed; {} input errors, {} unreadable\n",
      t.cases, t.cases == 1 ? "" : "s", t.fixed, t.nothing, t.unfixable, t.budget, t.unverified,
      t.input_errors, t.unreadable + t.rejected);
  return static_cast<int>(t.exit_code());
}

}  // namespace

Command register_fix(CLI::App& app) {
  auto args = std::make_shared<FixArgs>();
  auto* cmd = app.add_subcommand(
      "fix",
      "the cheapest edits (flags, new syncs, waits) that make every `prove` property proved, "
      "re-checked with both engines; a unified diff, or --apply");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_flag("--apply", args->apply,
                "write each fixed file back (atomically; its line breaks, byte order mark, mode "
                "and owner kept; a read-only file is refused, exit 73)");
  cmd->add_flag("--all", args->all,
                "fix every property that is not proved, `refute` and `check` ones too (they "
                "become `prove`)");
  cmd->add_flag("--minimize", args->minimize,
                "also remove the flags near the fix that it makes unnecessary");
  add_cost(*cmd, args->costs);
  add_budget(*cmd, args->budget, "case for the search");
  add_profile(*cmd, args->profile);
  add_assume(*cmd, args->assume);
  add_target(*cmd, args->target);
  add_timeout(*cmd, args->timeout_ms);
  add_max_states(*cmd, args->max_states);
  add_color(*cmd, args->color);
  cmd->add_option("--style", args->style,
                  "x (Xbox sync calls), standard (D3D12 barriers) or any (default): what the fix "
                  "may add; with x or any, a standard barrier cheaper X calls can replace is");
  cmd->add_flag("--no-diff", args->no_diff, "print the edits, not the diff");
  cmd->add_flag("--quiet", args->quiet, "say nothing about cases with nothing to fix");
  return {cmd, [args] { return run_fix(*args); }};
}

}  // namespace syncproof::cli
