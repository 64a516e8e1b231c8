// `syncproof check FILE|DIR|-...`: parse, lint and check every case; one line per property, the
// trace under each violation, a summary table, and an exit code (tools/exit_codes.h: the worst
// outcome of the run). The cases run on --jobs worker threads (tools/batch.h); an exception while
// working on one case is reported with the case's name and counted (Exit::Internal), and the run
// goes on with the next. Every report is a back-end over the same report::Run (report/): the text
// report on standard output (report/text.h) with the diagnostics on standard error, and
// --format/--output write it as JSON, JUnit XML, SARIF or text.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <set>

#include "encode/check.h"
#include "properties/obligation.h"
#include "report/json.h"
#include "report/junit.h"
#include "report/sarif.h"
#include "report/text.h"
#include "syncproof/version.h"
#include "tools/batch.h"
#include "tools/case_limits.h"
#include "tools/color.h"
#include "tools/commands.h"
#include "tools/engines.h"
#include "tools/exit_codes.h"
#include "tools/inputs.h"
#include "tools/memory_limit.h"
#include "tools/options.h"
#include "tools/synth_engines.h"
#include "util/atomic_file.h"

namespace syncproof::cli {

namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string profile;
  std::vector<std::string> assume;
  std::vector<std::string> target;
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
  std::string color = "auto";
  std::string style = "any";
};

enum class Format : uint8_t { Text, Json, Junit, Sarif };

std::optional<Format> find_format(std::string_view s) {
  if (s == "text") return Format::Text;
  if (s == "json") return Format::Json;
  if (s == "junit") return Format::Junit;
  if (s == "sarif") return Format::Sarif;
  return std::nullopt;
}

// `-o r.sarif` without --format: the format its name says, if it says one.
std::optional<Format> format_of_name(std::string_view path) {
  for (auto [ext, f] : {std::pair{".sarif", Format::Sarif},
                        {".sarif.json", Format::Sarif},
                        {".json", Format::Json},
                        {".xml", Format::Junit},
                        {".txt", Format::Text}})
    if (path.ends_with(ext)) return f;
  return std::nullopt;
}

struct Destination {
  Format format;
  std::string path;  // "-": standard output
};

// --format F [--output FILE], repeatable in pairs: the i-th --format goes to the i-th --output.
// Without --output, one format goes to standard output. Without --format, each --output's name
// says its format (.json, .xml: JUnit, .sarif or .sarif.json, .txt; '-': text). The text report
// goes to standard output unless a machine-readable format is written there.
std::vector<Destination> destinations(const CheckArgs& a) {
  std::vector<std::string> formats = a.formats;
  if (formats.empty() && !a.outputs.empty()) {
    for (const std::string& o : a.outputs) {
      const auto f = o == "-" ? std::optional(Format::Text) : format_of_name(o);
      if (!f)
        throw UsageError(fmt::format(
            "--output '{}': say which format with --format (json, junit, sarif, text); the "
            "name does not end in .json, .xml, .sarif or .txt",
            o));
      formats.emplace_back(*f == Format::Json    ? "json"
                           : *f == Format::Junit ? "junit"
                           : *f == Format::Sarif ? "sarif"
                                                 : "text");
    }
  }
  if (formats.empty()) formats.push_back("text");
  if (a.outputs.empty() && formats.size() > 1)
    throw UsageError("several --format need as many --output (one file per format)");
  if (!a.outputs.empty() && formats.size() != a.outputs.size())
    throw UsageError(fmt::format("{} --format for {} --output: give one --format per --output",
                                 a.formats.size(), a.outputs.size()));
  std::vector<Destination> out;
  size_t to_stdout = 0;
  for (size_t i = 0; i < formats.size(); ++i) {
    auto f = find_format(formats[i]);
    if (!f)
      throw UsageError(fmt::format("unknown format '{}' (text, json, junit, sarif)", formats[i]));
    std::string path = a.outputs.empty() ? "-" : a.outputs[i];
    to_stdout += path == "-";
    out.push_back({*f, path});
  }
  if (to_stdout > 1) throw UsageError("only one format can go to standard output ('-')");
  return out;
}

std::string render(Format f, const report::Run& run, bool quiet) {
  switch (f) {
    case Format::Json:
      return report::write_json(run);
    case Format::Junit:
      return report::write_junit(run);
    case Format::Sarif:
      return report::write_sarif(run);
    case Format::Text:
      return report::write_text(run, {false, quiet});
  }
  return "";
}

// Every output checked before the work starts: a missing directory or a read-only file is found
// now, not after the cases have run. --trace-out's directory is made (one level, not its
// parents). Returns the first problem.
std::optional<std::string> check_outputs(const std::vector<Destination>& dests,
                                         const std::string& trace_out) {
  for (const Destination& d : dests)
    if (d.path != "-")
      if (auto err = util::check_writable(d.path)) return err;
  if (trace_out.empty()) return std::nullopt;
  std::error_code ec;
  std::filesystem::create_directory(trace_out, ec);
  if (ec || !std::filesystem::is_directory(trace_out))
    return fmt::format("cannot write to --trace-out {}: {}", trace_out,
                       ec ? ec.message() : "not a directory");
  return std::nullopt;
}

int run_check(const CheckArgs& a) {
  encode::CheckOptions opt;
  EngineRun run;
  apply_model_options(a.profile, a.assume, a.target, opt, run.exec);
  opt.timeout_ms = a.timeout_ms;
  opt.rlimit = a.rlimit;
  opt.order_proofs = !a.no_order_proofs;
  opt.slice = !a.no_slice;
  opt.slice_above = a.slice_above;
  if (!a.dump_dir.empty()) opt.dump_dir = a.dump_dir;
  run.engine = *find_engine(a.engine);
  if (run.engine == Engine::Both) run.replays = std::make_shared<solver::ContextPool>(2);
  run.smt = opt;
  run.exec.timeout_ms = a.timeout_ms, run.exec.max_states = a.max_states;
  run.exec.cones = opt.slice, run.exec.cone_above = opt.slice_above;
  std::pair<unsigned, unsigned> shard{1, 1};
  if (!a.shard.empty()) {
    auto s = parse_shard(a.shard);
    if (!s) throw UsageError(fmt::format("--shard '{}': expected I/N with 1 <= I <= N", a.shard));
    shard = *s;
  }
  if (a.fix && a.no_fix) throw UsageError("--fix and --no-fix exclude each other");
  model::CostModel costs;
  apply_costs(costs, a.costs);  // validated while parsing (add_cost)
  const std::vector<Destination> dests = destinations(a);
  std::set<std::string> streams;
  std::string error;
  const auto collected = collect_inputs(a.paths, streams, &error);
  if (!error.empty()) throw UsageError(error);
  if (auto err = check_outputs(dests, a.trace_out)) {
    std::cerr << "syncproof check: " << *err << "\n";
    return static_cast<int>(Exit::CannotWrite);
  }
  const bool text_to_stdout = std::none_of(dests.begin(), dests.end(), [](const Destination& d) {
    return d.path == "-" && d.format != Format::Text;
  });
  const report::TextStyle out_style{use_color(a.color, 1), a.quiet};
  const report::TextStyle err_style{use_color(a.color, 2), false};

  report::Run report;
  report.version = SYNCPROOF_VERSION;
  report.engine = a.engine;
  report.profile = a.profile;
  report.assume = a.assume;
  report.jobs = resolve_jobs(a.jobs);
  report.shard = shard.first, report.shards = shard.second;
  const auto t0 = std::chrono::steady_clock::now();

  if (std::string e = apply_memory_limit(a.max_memory); !e.empty())
    throw UsageError(fmt::format("cannot set the memory limit (--max-memory): {}", e));

  const auto inputs = shard_inputs(collected, shard.first, shard.second);
  BatchOptions bo{report.jobs, !a.trace_out.empty(), true};
  SynthCheck synth;
  synth.fixes = a.no_fix ? SynthCheck::Fixes::Off
                : a.fix  ? SynthCheck::Fixes::All
                         : SynthCheck::Fixes::Unexpected;
  synth.redundant = a.redundant;
  synth.opt = fix_options(opt, run.exec, costs, a.budget);
  if (const auto style = synth::find_style(a.style))
    synth.opt.style = *style;
  else
    throw UsageError(fmt::format("--style '{}': expected x, standard or any", a.style));
  bo.synth = &synth;
  bo.limits = {a.max_file_size, a.caps, a.max_memory, streams};
  std::set<std::string> pictures;  // names written, so that none overwrites another
  bool rc_write = false;
  run_batch(inputs, run, bo, [&](CaseOutcome& o) {
    // Diagnostics first, as a compiler's come before what it makes of them.
    std::cerr << report::case_diagnostics(o.entry, err_style) << std::flush;
    if (text_to_stdout) std::cout << report::case_report(o.entry, out_style) << std::flush;
    for (const Picture& pic : o.pictures) {
      std::string name = pic.name;
      for (int n = 2; !pictures.insert(name).second; ++n) name = fmt::format("{}-{}", n, pic.name);
      if (auto err = util::write_file_atomically(
              (std::filesystem::path(a.trace_out) / name).string(), pic.text)) {
        std::cerr << "syncproof check: " << *err << "\n";
        rc_write = true;
      }
    }
    report.engines.add(o.engines);
    report.cases.push_back(std::move(o.entry));
  });
  if (text_to_stdout) std::cout << report::summary_text(report, out_style) << std::flush;

  Exit rc = exit_code(report);
  if (rc_write) rc = worse(rc, Exit::CannotWrite);
  report.exit_code = static_cast<int>(rc);
  report.ms = properties::ms_since(t0);
  for (const Destination& d : dests) {
    if (d.format == Format::Text && d.path == "-") continue;  // printed as it went
    const std::string body = render(d.format, report, a.quiet);
    if (d.path == "-") {
      std::cout << body << std::flush;
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

Command register_check(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand("check", "prove or refute the properties of case files");
  cmd->add_option("paths", args->paths,
                  "case files, JSON command streams, directories (searched for *.sync), or - "
                  "for standard input")
      ->required();
  add_profile(*cmd, args->profile);
  add_assume(*cmd, args->assume);
  add_target(*cmd, args->target);
  add_timeout(*cmd, args->timeout_ms);
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
  add_engine(*cmd, args->engine, {"smt", "exec", "both"},
             "smt (default), exec (the explicit-state executor) or both (cross-validate)");
  add_max_states(*cmd, args->max_states);
  add_jobs(*cmd, args->jobs,
           "cases checked in parallel (default and 0: the number of cores); the output is the "
           "same for every N");
  cmd->add_option("--shard", args->shard,
                  "I/N: check only the I-th of N disjoint parts of the inputs (split by path)");
  cmd->add_option("--format", args->formats,
                  "text (default), json, junit or sarif; repeat with --output for several")
      ->allow_extra_args(false);
  cmd->add_option("--output,-o", args->outputs,
                  "write the i-th --format to this file (atomically; '-': standard output); "
                  "without --format, the name says it: .json, .xml (junit), .sarif, .txt")
      ->allow_extra_args(false);
  cmd->add_option("--trace-out", args->trace_out,
                  "write each counterexample here as a Perfetto trace (.perfetto.json) and a "
                  "Graphviz happens-before graph (.dot); the directory is made if missing");
  add_color(*cmd, args->color);
  cmd->add_flag("--quiet", args->quiet, "print only failures and the summary");
  cmd->add_flag("--fix", args->fix,
                "under every violation, the cheapest complete fix (by default only under "
                "violated `prove` properties; docs/FIX.md)");
  cmd->add_flag("--no-fix", args->no_fix, "no fix under any violation");
  cmd->add_flag("--redundant", args->redundant,
                "for cases whose properties are all proved: the flags that can go, and the "
                "smallest barrier");
  add_cost(*cmd, args->costs);
  add_budget(*cmd, args->budget, "fix or --redundant search");
  cmd->add_option("--style", args->style,
                  "x, standard or any (default): the barriers a fix may add; with x or any, "
                  "--redundant also replaces standard barriers by cheaper X calls");
  cmd->add_flag("--no-order-proofs", args->no_order_proofs,
                "ask the solver every question (no must-happen-before shortcut)");
  cmd->add_flag("--no-slice", args->no_slice,
                "look for counterexamples in the whole program only (not first among the events "
                "between the accesses, replayed on the whole program)");
  cmd->add_option("--slice-above", args->slice_above,
                  "slice only programs of more than this many lowered events (2000; 0: all)");
  return {cmd, [args] { return run_check(*args); }};
}

}  // namespace syncproof::cli
