// `syncproof export --json CASE.sync [--output FILE]`: the case as a JSON command stream
// (docs/STREAM-FORMAT.md), which `syncproof check FILE.json` reads back with the same verdicts.
#include <fmt/format.h>

#include <iostream>

#include "lang/parse.h"
#include "stream/export.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "util/atomic_file.h"

namespace syncproof::cli {

namespace {

struct ExportArgs {
  std::string path;
  bool json = false;
  std::string output;
};

int run_export(const ExportArgs& a) {
  if (!a.json) {
    std::cerr << "syncproof export: say which format: --json\n";
    return static_cast<int>(Exit::Usage);
  }
  lang::ParseResult pr = lang::parse_case_file(a.path);
  std::cerr << lang::render_all(pr);
  if (pr.unreadable()) return static_cast<int>(Exit::Unreadable);
  if (pr.has_errors()) return static_cast<int>(Exit::InputError);
  const std::string text = stream::export_case(pr.c).dump(2) + "\n";
  if (a.output.empty() || a.output == "-") {
    std::cout << text;
  } else if (auto err = util::write_file_atomically(a.output, text)) {
    std::cerr << "syncproof export: " << *err << "\n";
    return static_cast<int>(Exit::CannotWrite);
  }
  return static_cast<int>(pr.warnings() ? Exit::Warnings : Exit::Ok);
}

}  // namespace

void register_export(CLI::App& app, int& rc) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "write a case file as a JSON command stream");
  cmd->add_option("path", args->path, "the case file (*.sync)")->required();
  cmd->add_flag("--json", args->json, "as a JSON command stream (docs/STREAM-FORMAT.md)");
  cmd->add_option("--output,-o", args->output, "write it here (atomically) instead of stdout");
  cmd->callback([args, &rc] { rc = run_export(*args); });
}

}  // namespace syncproof::cli
