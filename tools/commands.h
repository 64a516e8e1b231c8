#pragma once
// Each subcommand registers itself on the CLI11 app; its callback stores its exit code in `rc`.
#include <CLI/CLI.hpp>

namespace syncproof::cli {

void register_encode(CLI::App& app, int& rc);
void register_decode(CLI::App& app, int& rc);
void register_lint(CLI::App& app, int& rc);
void register_check(CLI::App& app, int& rc);
void register_fuzz(CLI::App& app, int& rc);
void register_monotone(CLI::App& app, int& rc);
void register_export(CLI::App& app, int& rc);
void register_fix(CLI::App& app, int& rc);
void register_barrier(CLI::App& app, int& rc);

}  // namespace syncproof::cli
