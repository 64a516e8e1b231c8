// `syncproof lint FILE|DIR|-...`: the diagnostics of case files, as a compiler prints them (on
// standard error, `file:line:col: error|warning: message`, the source line and a caret), then one
// summary line on standard output; or (--expect-inline) a comparison of them with each file's
// `# expect:` markers, whose differences are the report (standard output).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lang/expect.h"
#include "lang/lint_files.h"
#include "lang/parse.h"
#include "report/text.h"
#include "tools/color.h"
#include "tools/commands.h"
#include "tools/exit_codes.h"
#include "tools/inputs.h"
#include "tools/options.h"

namespace syncproof::cli {

namespace {

struct LintOptions {
  std::vector<std::string> paths;
  bool expect_inline = false;
  uint64_t max_file_size = lang::kDefaultMaxFileSize;
  std::string color = "auto";
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

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// One input read and parsed, or why it could not be (a file-level diagnostic).
lang::ParseResult read_input(const lang::CaseInput& in, const std::set<std::string>& streams,
                             uint64_t max_bytes) {
  if (!in.problem.empty()) {
    lang::ParseResult r;
    r.c.file = in.display;
    lang::Diagnostic d{model::Severity::Error, {}, in.problem, 1, true};
    d.rejected = in.kind == lang::FileProblem::Rejected;
    r.diags.push_back(std::move(d));
    return r;
  }
  bool json = false;
  if (streams.count(in.path)) return read_stream_case(in, max_bytes, &json);
  return lang::parse_case_file(in.path, max_bytes);
}

int run_lint(const LintOptions& o) {
  std::set<std::string> streams;
  std::string error;
  const auto inputs = collect_inputs(o.paths, streams, &error);
  if (!error.empty()) throw UsageError(error);
  const report::TextStyle style{use_color(o.color, 2), false};
  lang::LintSummary s;
  for (const lang::CaseInput& in : inputs) {
    ++s.files;
    lang::ParseResult r;
    try {
      r = read_input(in, streams, o.max_file_size);
    } catch (const std::exception& e) {  // bad_alloc included: name the file, go on
      ++s.internal;
      std::cerr << fmt::format("{}: internal error: {}\n", in.display, e.what());
      continue;
    }
    std::string diags;
    for (const lang::Diagnostic& d : r.diags) diags += report::diagnostic_text(d, r.c, style);
    if (r.unreadable()) {
      ++(r.rejected() ? s.rejected : s.unreadable);
      ++s.errors;
      std::cerr << diags << std::flush;
      continue;
    }
    s.errors += r.errors();
    s.warnings += r.warnings();
    if (!o.expect_inline) {
      std::cerr << diags << std::flush;
      continue;
    }
    const lang::ExpectationReport rep = lang::compare_expectations(r.c.lines, r.diags);
    if (!rep.ok()) {
      ++s.not_as_expected;
      std::cout << lang::render_report(rep, r.c.file) << std::flush;
    }
  }
  if (o.expect_inline)
    std::cout << fmt::format(
        "{}, {} as expected, {} not as expected\n", plural(s.files, "file", "files"),
        s.files - s.not_as_expected - s.unreadable - s.rejected - s.internal, s.not_as_expected);
  else
    std::cout << fmt::format("{}, {}, {}\n", plural(s.files, "file", "files"),
                             plural(s.errors, "error", "errors"),
                             plural(s.warnings, "warning", "warnings"));
  return static_cast<int>(exit_code(s, o.expect_inline));
}

}  // namespace

Command register_lint(CLI::App& app) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd =
      app.add_subcommand("lint", "check case files (*.sync) and print their errors and warnings");
  cmd->add_option("paths", opts->paths,
                  "case files, directories searched recursively for *.sync, or - for standard "
                  "input")
      ->required();
  cmd->add_flag("--expect-inline", opts->expect_inline,
                "compare the diagnostics with each file's '# expect:' markers instead of printing "
                "them (exit 0 when they match exactly, 4 otherwise)");
  add_max_file_size(*cmd, opts->max_file_size);
  add_color(*cmd, opts->color);
  return {cmd, [opts] { return run_lint(*opts); }};
}

}  // namespace syncproof::cli
