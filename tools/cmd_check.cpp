// `syncproof check FILE|DIR...`: parse, lint and check every case; one line per property, the
// trace under each violation, a summary table, and an exit code (tools/exit_codes.h: the worst
// outcome of the run). The cases run on --jobs worker threads (tools/batch.h); an exception while
// working on one case is reported with the case's name and counted (Exit::Internal), and the run
// goes on with the next. --format/--output write the same results as JSON, JUnit XML or SARIF
// (report/).
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <set>

#include "encode/check.h"
#include "properties/obligation.h"
#include "report/json.h"
#include "report/junit.h"
#include "report/sarif.h"
#include "syncproof/version.h"
#include "tools/batch.h"
#include "tools/case_limits.h"
#include "tools/commands.h"
#include "tools/engines.h"
#include "tools/exit_codes.h"
#include "tools/memory_limit.h"
#include "tools/options.h"
#include "tools/report.h"
#include "tools/synth_engines.h"
#include "util/atomic_file.h"

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
  bool no_slice = false;
  size_t slice_above = 2000;
  uint64_t max_states = 20'000'000;
  unsigned jobs = 0;
  std::string shard;
  std::vector<std::string> formats, outputs;
  std::string trace_out;
  bool fix = false, no_fix = false, redundant = false;
  std::vector<std::string> costs;
  size_t budget = 3000;
};

enum class Format : uint8_t { Text, Json, Junit, Sarif };

std::optional<Format> find_format(std::string_view s) {
  if (s == "text") return Format::Text;
  if (s == "json") return Format::Json;
  if (s == "junit") return Format::Junit;
  if (s == "sarif") return Format::Sarif;
  return std::nullopt;
}

struct Destination {
  Format format;
  std::string path;  // "-": standard output
};

int check_usage(const std::string& msg) {
  std::cerr << "syncproof check: " << msg << "\n";
  return static_cast<int>(Exit::Usage);
}

// --format F [--output FILE], repeatable in pairs: the i-th --format goes to the i-th --output.
// Without --output, one format goes to standard output. The text report goes to standard output
// unless a machine-readable format is written there.
std::optional<std::vector<Destination>> destinations(const CheckArgs& a, std::string* error) {
  std::vector<Destination> out;
  std::vector<std::string> formats = a.formats;
  if (formats.empty()) formats.push_back("text");
  if (a.outputs.empty() && formats.size() > 1) {
    *error = "several --format need as many --output (one file per format)";
    return std::nullopt;
  }
  if (!a.outputs.empty() && formats.size() != a.outputs.size()) {
    *error = fmt::format("{} --format for {} --output: give one --format per --output",
                         a.formats.size(), a.outputs.size());
    return std::nullopt;
  }
  size_t to_stdout = 0;
  for (size_t i = 0; i < formats.size(); ++i) {
    auto f = find_format(formats[i]);
    if (!f) {
      *error = fmt::format("unknown format '{}' (text, json, junit, sarif)", formats[i]);
      return std::nullopt;
    }
    std::string path = a.outputs.empty() ? "-" : a.outputs[i];
    to_stdout += path == "-";
    out.push_back({*f, path});
  }
  if (to_stdout > 1) {
    *error = "only one format can go to standard output ('-')";
    return std::nullopt;
  }
  return out;
}

std::string render(Format f, const report::Run& run) {
  switch (f) {
    case Format::Json:
      return report::write_json(run);
    case Format::Junit:
      return report::write_junit(run);
    case Format::Sarif:
      return report::write_sarif(run);
    case Format::Text:
      break;
  }
  return "";
}

int run_check(const CheckArgs& a, std::ostream& out) {
  encode::CheckOptions opt;
  if (!a.profile.empty()) {
    auto p = model::find_profile(a.profile);
    if (!p) return check_usage(fmt::format("unknown profile '{}' (strict, rdna2)", a.profile));
    opt.profile = p;
  }
  for (const std::string& s : a.assume) {
    bool on = s.empty() || s[0] != '-';
    std::string id = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
    if (!model::find_assumption(id))
      return check_usage(fmt::format("unknown assumption '{}' (see model/SEMANTICS.md)", id));
    opt.assume.push_back({on, id});
  }
  opt.timeout_ms = a.timeout_ms;
  opt.rlimit = a.rlimit;
  opt.order_proofs = !a.no_order_proofs;
  opt.slice = !a.no_slice;
  opt.slice_above = a.slice_above;
  if (!a.dump_dir.empty()) opt.dump_dir = a.dump_dir;
  EngineRun run;
  if (auto e = find_engine(a.engine))
    run.engine = *e;
  else
    return check_usage(fmt::format("unknown engine '{}' (smt, exec, both)", a.engine));
  run.smt = opt;
  run.exec.profile = opt.profile, run.exec.assume = opt.assume;
  run.exec.timeout_ms = a.timeout_ms, run.exec.max_states = a.max_states;
  run.exec.cones = opt.slice, run.exec.cone_above = opt.slice_above;
  std::pair<unsigned, unsigned> shard{1, 1};
  if (!a.shard.empty()) {
    auto s = parse_shard(a.shard);
    if (!s) return check_usage(fmt::format("--shard '{}': expected I/N with 1 <= I <= N", a.shard));
    shard = *s;
  }
  if (a.fix && a.no_fix) return check_usage("--fix and --no-fix exclude each other");
  if (a.budget == 0) return check_usage("--budget must be at least 1");
  model::CostModel costs;
  if (auto err = apply_costs(costs, a.costs)) return check_usage(*err);
  std::string error;
  auto dests = destinations(a, &error);
  if (!dests) return check_usage(error);
  bool text_to_stdout = true;
  for (const Destination& d : *dests)
    if (d.path == "-" && d.format != Format::Text) text_to_stdout = false;

  report::Run report;
  report.version = SYNCPROOF_VERSION;
  report.engine = a.engine;
  report.profile = a.profile;
  report.assume = a.assume;
  report.jobs = resolve_jobs(a.jobs);
  report.shard = shard.first, report.shards = shard.second;
  const auto t0 = std::chrono::steady_clock::now();

  // Text that goes to standard output, and text for a --format text file.
  std::ostringstream text_file;
  const bool text_to_file = std::any_of(dests->begin(), dests->end(), [](const Destination& d) {
    return d.format == Format::Text && d.path != "-";
  });
  const auto emit = [&](const std::string& s) {
    if (text_to_stdout) out << s << std::flush;
    if (text_to_file) text_file << s;
  };

  if (std::string e = apply_memory_limit(a.max_memory); !e.empty())
    return check_usage(fmt::format("cannot set the memory limit (--max-memory): {}", e));

  Summary sum;
  const auto inputs = shard_inputs(lang::collect_case_files(a.paths), shard.first, shard.second);
  BatchOptions bo{report.jobs, a.quiet, !a.trace_out.empty(), true};
  SynthCheck synth;
  synth.fixes = a.no_fix ? SynthCheck::Fixes::Off
                : a.fix  ? SynthCheck::Fixes::All
                         : SynthCheck::Fixes::Unexpected;
  synth.redundant = a.redundant;
  synth.opt = fix_options(opt, run.exec, costs, a.budget);
  bo.synth = &synth;
  bo.limits = {a.max_file_size, a.caps, a.max_memory};
  std::set<std::string> pictures;  // names written, so that none overwrites another
  bool rc_write = false;
  run_batch(inputs, run, bo, [&](CaseOutcome& o) {
    emit(o.text);
    for (const Picture& pic : o.pictures) {
      std::string name = pic.name;
      for (int n = 2; !pictures.insert(name).second; ++n) name = fmt::format("{}-{}", n, pic.name);
      if (auto err = util::write_file_atomically(
              (std::filesystem::path(a.trace_out) / name).string(), pic.text)) {
        std::cerr << "syncproof check: " << *err << "\n";
        rc_write = true;
      }
    }
    count(sum, run, o);
    report.cases.push_back(std::move(o.entry));
  });
  std::ostringstream tail;
  print_summary(tail, sum);
  print_engine_summary(tail, run);
  emit(tail.str());

  sum.disagreements = run.problems;
  Exit rc = sum.exit_code();
  if (rc_write) rc = worse(rc, Exit::CannotWrite);
  report.exit_code = static_cast<int>(rc);
  report.ms = properties::ms_since(t0);
  for (const Destination& d : *dests) {
    if (d.format == Format::Text && d.path == "-") continue;  // printed as it went
    std::string body = d.format == Format::Text ? text_file.str() : render(d.format, report);
    if (d.path == "-") {
      out << body << std::flush;
      continue;
    }
    if (auto err = util::write_file_atomically(d.path, body)) {
      std::cerr << "syncproof check: " << *err << "\n";
      rc = worse(rc, Exit::CannotWrite);
    }
  }
  return static_cast<int>(rc);
}

}  // namespace

void register_check(CLI::App& app, int& rc) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "prove or refute the properties of case files");
  cmd->add_option("paths", args->paths, "case files or directories (searched for *.sync)")
      ->required();
  cmd->add_option("--profile", args->profile, "model profile: rdna2 (default) or strict");
  // One value per occurrence: `--assume +A cases/` must not swallow the path.
  cmd->add_option("--assume", args->assume, "+ID / -ID: turn a named assumption on or off")
      ->allow_extra_args(false);
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
  cmd->add_option("--jobs,-j", args->jobs,
                  "cases checked in parallel (default and 0: the number of cores); the output is "
                  "the same for every N");
  cmd->add_option("--shard", args->shard,
                  "I/N: check only the I-th of N disjoint parts of the inputs (split by path)");
  cmd->add_option("--format", args->formats,
                  "text (default), json, junit or sarif; repeat with --output for several")
      ->allow_extra_args(false);
  cmd->add_option("--output,-o", args->outputs,
                  "write the i-th --format to this file (atomically; '-': standard output)")
      ->allow_extra_args(false);
  cmd->add_option("--trace-out", args->trace_out,
                  "write each counterexample here as a Perfetto trace (.perfetto.json) and a "
                  "Graphviz happens-before graph (.dot)");
  cmd->add_flag("--quiet", args->quiet, "print only failures and the summary");
  cmd->add_flag("--fix", args->fix,
                "under every violation, the cheapest complete fix (by default only under "
                "violated `prove` properties; docs/FIX.md)");
  cmd->add_flag("--no-fix", args->no_fix, "no fix under any violation");
  cmd->add_flag("--redundant", args->redundant,
                "for cases whose properties are all proved: the flags that can go, and the "
                "smallest barrier");
  cmd->add_option("--cost", args->costs, "NAME=N: override a cost of model/COSTS.md (repeatable)")
      ->allow_extra_args(false);
  cmd->add_option("--budget", args->budget, "engine calls per fix or --redundant search (3000)");
  cmd->add_flag("--no-order-proofs", args->no_order_proofs,
                "ask the solver every question (no must-happen-before shortcut)");
  cmd->add_flag("--no-slice", args->no_slice,
                "look for counterexamples in the whole program only (not first among the events "
                "between the accesses, replayed on the whole program)");
  cmd->add_option("--slice-above", args->slice_above,
                  "slice only programs of more than this many lowered events (2000; 0: all)");
  cmd->callback([args, &rc] { rc = run_check(*args, std::cout); });
}

}  // namespace syncproof::cli
