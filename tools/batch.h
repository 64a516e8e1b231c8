#pragma once
// The batch behind `syncproof check`: every input checked on its own (read, lint, compare the
// `# expect:` markers, run the engines), on N worker threads, handed back in input order so the
// output of --jobs N is byte for byte that of --jobs 1. Each case gets its own engine state:
// encode::check_case makes one solver context per case, and a worker shares nothing mutable.
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "lang/lint_files.h"
#include "report/run.h"
#include "tools/case_limits.h"
#include "tools/engines.h"
#include "tools/exit_codes.h"
#include "tools/synth_check.h"

namespace syncproof::cli {

struct Picture {
  std::string name;  // file name: "<case>-L<line>-<property>.perfetto.json" or ".dot"
  std::string text;
};

struct CaseOutcome {
  report::CaseEntry entry;        // what every report format says about the case
  report::EngineTotals engines;   // this case's share of the engine totals
  std::vector<Picture> pictures;  // --trace-out: two per violated property
};

// What one case may cost before an engine sees it (README "Limits"), and how it is read.
struct InputLimits {
  uint64_t max_file_size = lang::kDefaultMaxFileSize;  // --max-file-size
  CaseCaps caps;                                       // --max-commands, --max-events
  uint64_t max_memory = 0;  // --max-memory as applied (0: none), for the out-of-memory message
  std::set<std::string> streams;  // inputs read as streams (tools/inputs.h: `-`, pipes)
};

// One input, start to finish. Never throws: an exception (out of memory included) becomes an
// InternalError entry naming the case and its size. `synth`, when given: the fixes under
// violations and the --redundant report (synth_check.h).
CaseOutcome check_input(const lang::CaseInput& in, const EngineRun& settings, bool pictures = false,
                        const InputLimits& limits = {}, const SynthCheck* synth = nullptr);

// The exit code of a whole `check` run: its worst outcome (tools/exit_codes.h).
Exit exit_code(const report::Run& run);

// --shard I/N: the inputs whose path hashes to I (1-based) of N. The split depends only on each
// path (FNV-1a of its normalized spelling), so N machines given the same command line check
// disjoint sets that together cover every input, and adding a case moves no other.
std::vector<lang::CaseInput> shard_inputs(const std::vector<lang::CaseInput>& inputs,
                                          unsigned index, unsigned count);
// "2/4" -> {2, 4}; nullopt unless 1 <= I <= N.
std::optional<std::pair<unsigned, unsigned>> parse_shard(std::string_view text);

// --jobs 0: the number of cores.
unsigned resolve_jobs(unsigned requested);

struct BatchOptions {
  unsigned jobs = 1;
  bool pictures = false;  // --trace-out: draw every counterexample (viz/)
  // A progress line on stderr ("[37/261] 4.1 s"), shown only when stderr is a terminal and the
  // batch has run for longer than 2 s; cleared before each in-order delivery.
  bool progress = false;
  InputLimits limits = {};
  const SynthCheck* synth = nullptr;  // fixes and --redundant (synth_check.h)
};

// Checks every input on opt.jobs threads and calls deliver(outcome) on the calling thread, in
// input order, as soon as an outcome and all before it are done.
void run_batch(const std::vector<lang::CaseInput>& inputs, const EngineRun& settings,
               const BatchOptions& opt, const std::function<void(CaseOutcome&)>& deliver);

}  // namespace syncproof::cli
