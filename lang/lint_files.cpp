#include "lang/lint_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "lang/expect.h"
#include "lang/parse.h"

namespace syncproof::lang {

namespace fs = std::filesystem;

namespace {

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::vector<CaseInput> collect_case_files(const std::vector<std::string>& paths) {
  std::vector<CaseInput> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      out.push_back({p, ""});  // a missing or unreadable file is reported by parse_case_file
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code fec;
      if (it->path().extension() == ".sync" && it->is_regular_file(fec)) {
        found.push_back(it->path().string());
      }
    }
    if (ec) {
      out.push_back({p, "cannot read the directory: " + ec.message()});
      continue;
    }
    if (found.empty()) {
      out.push_back({p, "no .sync files in the directory"});
      continue;
    }
    std::sort(found.begin(), found.end());
    for (std::string& f : found) out.push_back({std::move(f), ""});
  }
  return out;
}

LintSummary lint_paths(const std::vector<std::string>& paths, bool expect_inline,
                       std::ostream& out) {
  LintSummary s;
  for (const CaseInput& in : collect_case_files(paths)) {
    ++s.files;
    ParseResult r;
    if (in.problem.empty()) {
      r = parse_case_file(in.path);
    } else {
      r.c.file = in.path;
      r.diags.push_back(Diagnostic{model::Severity::Error, {}, in.problem, 1, true});
    }
    if (r.unreadable()) {
      ++s.unreadable;
      ++s.errors;
      out << render_all(r);
      continue;
    }
    s.errors += r.errors();
    s.warnings += r.warnings();
    if (!expect_inline) {
      out << render_all(r);
      continue;
    }
    const ExpectationReport rep = compare_expectations(r.c.lines, r.diags);
    if (!rep.ok()) {
      ++s.not_as_expected;
      out << render_report(rep, r.c.file);
    }
  }
  if (expect_inline) {
    out << fmt::format("{}, {} as expected, {} not as expected\n", plural(s.files, "file", "files"),
                       s.files - s.not_as_expected - s.unreadable, s.not_as_expected);
  } else {
    out << fmt::format("{}, {}, {}\n", plural(s.files, "file", "files"),
                       plural(s.errors, "error", "errors"),
                       plural(s.warnings, "warning", "warnings"));
  }
  return s;
}

}  // namespace syncproof::lang
