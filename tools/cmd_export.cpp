// `syncproof export CASE.sync [--output FILE]`: the case as a JSON command stream
// (docs/STREAM-FORMAT.md), which `syncproof check FILE.json` reads back with the same verdicts.
// JSON is the one format, so `--json` is accepted and changes nothing. `-` reads standard input.
#include <fmt/format.h>

#include <iostream>
#include <set>

#include "lang/parse.h"
#include "report/text.h"
#include "stream/export.h"
#include "tools/color.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/inputs.h"
#include "tools/options.h"
#include "util/atomic_file.h"

namespace syncproof::cli {

namespace {

struct ExportArgs {
  std::string path;
  bool json = false;
  std::string output;
  std::string color = "auto";
};

int run_export(const ExportArgs& a) {
  lang::ParseResult pr;
  if (a.path == "-") {
    bool json = false;
    pr = read_stream_case({"-", kStdinName, "", lang::FileProblem::None}, lang::kDefaultMaxFileSize,
                          &json);
  } else {
    pr = lang::parse_case_file(a.path);
  }
  const report::TextStyle style{use_color(a.color, 2), false};
  for (const lang::Diagnostic& d : pr.diags) std::cerr << report::diagnostic_text(d, pr.c, style);
  if (pr.unreadable()) return static_cast<int>(pr.rejected() ? Exit::Rejected : Exit::Unreadable);
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

Command register_export(CLI::App& app) {
  auto args = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand("export", "write a case file as a JSON command stream");
  cmd->add_option("path", args->path, "the case file (*.sync), or - for standard input")
      ->required();
  cmd->add_flag("--json", args->json,
                "as a JSON command stream (docs/STREAM-FORMAT.md): the only format, the default");
  cmd->add_option("--output,-o", args->output, "write it here (atomically) instead of stdout");
  add_color(*cmd, args->color);
  return {cmd, [args] { return run_export(*args); }};
}

}  // namespace syncproof::cli
