// `syncproof decode VALUE [--family ...] [--api ...] [--queue ...]`: the CLI11 binding of
// run_decode (tools/flag_commands.h).
#include <iostream>
#include <memory>

#include "tools/commands.h"
#include "tools/flag_commands.h"

namespace syncproof::cli {

Command register_decode(CLI::App& app) {
  auto opts = std::make_shared<DecodeOptions>();
  CLI::App* sub = app.add_subcommand(
      "decode", "Explain a flag word: one line per flag and field, with full names");
  sub->add_option("value", opts->value, "the flag word: hex 0x... or decimal, at most 32 bits")
      ->required();
  sub->add_option("--family", opts->family, "sync (default), dispatch or write-value");
  sub->add_option("--api", opts->api,
                  "sync: also check the word against SyncTopOfPipeX, SyncBottomOfPipeX, "
                  "Write32BitValueBottomOfPipe2X, Write64BitValueBottomOfPipe2X, Signal2X or "
                  "WaitX");
  sub->add_option("--queue", opts->queue,
                  "graphics (default) or compute: the queue type of the check (dispatch: check "
                  "the DispatchX flags on that queue)");
  sub->add_flag("--ranged", opts->ranged,
                "sync: the call has a BaseAddress/SizeInBytes range (default: whole memory)");
  sub->add_flag("--wave32", opts->wave32, "dispatch: the shader is compiled for wave32");
  sub->footer("Exit: 0 ok, 1 warnings only, 2 invalid word or errors for --api/--queue, 64 usage.");
  return {sub, [opts] { return run_decode(*opts, std::cout, std::cerr); }};
}

}  // namespace syncproof::cli
