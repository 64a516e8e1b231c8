// `syncproof encode NAME[|NAME...]`: the CLI11 binding of run_encode (tools/flag_commands.h).
#include <iostream>
#include <memory>

#include "tools/commands.h"
#include "tools/flag_commands.h"

namespace syncproof::cli {

Command register_encode(CLI::App& app) {
  auto names = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand(
      "encode",
      "Print the value of flag names OR-ed together, e.g. `encode GL2_INVALIDATE|GL2_WRITEBACK`");
  sub->add_option("names", *names,
                  "flag names of one enumeration, with or without prefix, joined by '|' or given "
                  "as separate arguments")
      ->required();
  sub->footer(
      "Prints 0x%08X on the first line, then one line per name and notes about MARGIN fields.\n"
      "Exit: 0 ok, 2 unknown name / no published value / mixed enumerations, 64 usage.");
  return {sub, [names] { return run_encode(*names, std::cout, std::cerr); }};
}

}  // namespace syncproof::cli
