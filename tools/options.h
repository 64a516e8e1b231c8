#pragma once
// Option checks shared by the subcommands (CLI11 validators; a failure exits 64, Exit::Usage).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace syncproof::cli {

// --timeout MS: at least 1. 0 is refused rather than given a meaning: it used to mean "no limit"
// to the SMT engine and "already expired" to the executor. The largest value (4294967295 ms,
// about 50 days) is the nearest to no limit.
inline CLI::Validator positive_ms() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        std::uint64_t v = 0;
        if (!CLI::detail::lexical_cast(s, v) || v > 4294967295u)
          return "expected a number of milliseconds, 1 to 4294967295, got '" + s + "'";
        if (v == 0) return "0 is not a budget: give at least 1 ms (4294967295 for about 50 days)";
        return {};
      },
      "MS>=1");
}

// --max-file-size SIZE (64MiB; "1k" = 1024 bytes): case files larger than this are not read.
inline CLI::Option* add_max_file_size(CLI::App& cmd, std::uint64_t& bytes) {
  return cmd
      .add_option("--max-file-size", bytes,
                  "largest case file read, in bytes or with a unit: 64MiB (default), 1G, ...; "
                  "larger ones are refused (exit 7)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40, "SIZE in 1 byte..1 TiB"));
}

// --max-memory SIZE (0 = none): the address space the run may use (tools/memory_limit.h).
inline CLI::Option* add_max_memory(CLI::App& cmd, std::uint64_t& bytes) {
  return cmd
      .add_option("--max-memory", bytes,
                  "address space the run may use, e.g. 8G (default: 3/4 of the physical memory; "
                  "0 = none); a case that needs more stops with exit 70 and its size")
      ->transform(CLI::AsSizeValue(false));
}

}  // namespace syncproof::cli
