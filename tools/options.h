#pragma once
// The options several subcommands share, each defined once here: its name, its help text and
// the check of its value (a CLI11 validator). Every check runs while the command line is parsed,
// before any subcommand starts work, and fails with the same message whichever subcommand it is
// given to: "syncproof fix: --timeout: 0 is not a budget: ..." (exit 64, Exit::Usage;
// tools/main/syncproof.cpp prints it).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "encode/check.h"
#include "exec/check.h"

namespace syncproof::cli {

// --timeout MS: at least 1. 0 is refused rather than given a meaning: it used to mean "no limit"
// to the SMT engine and "already expired" to the executor. The largest value (4294967295 ms,
// about 50 days) is the nearest to no limit.
CLI::Option* add_timeout(CLI::App& cmd, unsigned& ms);
// --budget N: engine calls per search, at least 1 (3000).
CLI::Option* add_budget(CLI::App& cmd, size_t& calls, std::string_view what);
// --profile strict|rdna2.
CLI::Option* add_profile(CLI::App& cmd, std::string& profile);
// --assume +ID|-ID, repeatable, one value per occurrence: a named assumption (model/SEMANTICS.md).
CLI::Option* add_assume(CLI::App& cmd, std::vector<std::string>& assume);
// --cost NAME=N, repeatable: a cost of model/COSTS.md.
CLI::Option* add_cost(CLI::App& cmd, std::vector<std::string>& costs);
// --max-states N: the executor's states per search, at least 1.
CLI::Option* add_max_states(CLI::App& cmd, uint64_t& states);
// --jobs N / -j N: worker threads (0: one per core).
CLI::Option* add_jobs(CLI::App& cmd, unsigned& jobs, std::string_view what);
// --engine NAME, one of `names`.
CLI::Option* add_engine(CLI::App& cmd, std::string& engine, const std::vector<std::string>& names,
                        std::string_view help);
// --color auto|always|never (tools/color.h).
CLI::Option* add_color(CLI::App& cmd, std::string& mode);
// --max-file-size SIZE (64MiB; "1k" = 1024 bytes): case files larger than this are not read.
CLI::Option* add_max_file_size(CLI::App& cmd, std::uint64_t& bytes);
// --max-memory SIZE (0 = none): the address space the run may use (tools/memory_limit.h).
CLI::Option* add_max_memory(CLI::App& cmd, std::uint64_t& bytes);

// --target NAME|KEY=VALUE, repeatable: a named console target (xbox-series-x, xbox-series-s,
// conservative) or one fact (gl2-rb-coherent=yes|no), applied in order over the case's own.
CLI::Option* add_target(CLI::App& cmd, std::vector<std::string>& target);

// The validated --profile, --assume and --target values put into engine options.
void apply_model_options(const std::string& profile, const std::vector<std::string>& assume,
                         const std::vector<std::string>& target, encode::CheckOptions& smt,
                         exec::ExecOptions& ex);

}  // namespace syncproof::cli
