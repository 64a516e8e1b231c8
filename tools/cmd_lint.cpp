// `syncproof lint FILE|DIR...`: diagnostics of case files, or (--expect-inline) a comparison of
// them with each file's `# expect:` markers. The logic lives in lang/lint_files.h.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "lang/lint_files.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/options.h"

namespace syncproof::cli {

namespace {

struct LintOptions {
  std::vector<std::string> paths;
  bool expect_inline = false;
  uint64_t max_file_size = lang::kDefaultMaxFileSize;
};

Exit exit_code(const lang::LintSummary& s, bool expect_inline) {
  Exit e = s.internal ? Exit::Internal : Exit::Ok;
  if (s.unreadable) e = worse(e, Exit::Unreadable);
  if (s.rejected) e = worse(e, Exit::Rejected);
  if (expect_inline) return s.not_as_expected ? worse(e, Exit::NotAsExpected) : e;
  if (s.errors > s.unreadable + s.rejected) e = worse(e, Exit::InputError);
  if (s.warnings) e = worse(e, Exit::Warnings);
  return e;
}

}  // namespace

void register_lint(CLI::App& app, int& rc) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd =
      app.add_subcommand("lint", "Check case files (*.sync) and print their errors and warnings");
  cmd->add_option("paths", opts->paths,
                  "case files, or directories searched recursively for *.sync")
      ->required();
  cmd->add_flag("--expect-inline", opts->expect_inline,
                "compare the diagnostics with each file's '# expect:' markers instead of printing "
                "them (exit 0 when they match exactly, 4 otherwise)");
  add_max_file_size(*cmd, opts->max_file_size);
  cmd->callback([opts, &rc] {
    const lang::LintSummary s =
        lang::lint_paths(opts->paths, opts->expect_inline, std::cout, opts->max_file_size);
    rc = static_cast<int>(exit_code(s, opts->expect_inline));
  });
}

}  // namespace syncproof::cli
