// Inline expectations of lint cases, and the `lint` driver over files and directories.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/expect.h"
#include "lang/lint_files.h"
#include "lang_test_util.h"

namespace syncproof::lang {

namespace {

Diagnostic diag(uint32_t line, std::string msg, model::Severity s = model::Severity::Error) {
  return Diagnostic{s, {line, 3}, std::move(msg), 1};
}

// A scratch directory under the build's temp dir, removed at the end of the test.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(std::string_view name)
      : path(std::filesystem::temp_directory_path() / ("syncproof-lang-" + std::string(name))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string write(const std::string& rel, std::string_view text) const {
    std::filesystem::create_directories((path / rel).parent_path());
    std::ofstream(path / rel, std::ios::binary) << text;
    return (path / rel).string();
  }
};

}  // namespace

TEST_CASE("read_expectations: markers, several per line, file-level, malformed") {
  std::vector<std::string> lines = {
      "queue q graphics  # expect: error first # expect: warning  second one  ",
      "# a normal comment # expect-file: error whole file",
      "fence f # expected: error not a marker",
      "fence g # expect: eror typo",
      "fence h #expect: error",
      "case \"unterminated # expect: error unterminated string",
  };
  Expectations e = read_expectations(lines);
  REQUIRE(e.expected.size() == 4);
  CHECK(e.expected[0].line == 1);
  CHECK(e.expected[0].severity == model::Severity::Error);
  CHECK(e.expected[0].text == "first");
  CHECK(e.expected[1].severity == model::Severity::Warning);
  CHECK(e.expected[1].text == "second one");
  CHECK(e.expected[2].line == 0);
  CHECK(e.expected[2].text == "whole file");
  CHECK(e.expected[3].line == 6);
  CHECK(e.expected[3].text == "unterminated string");
  REQUIRE(e.malformed.size() == 2);
  CHECK(e.malformed[0].loc.line == 4);
  CHECK(e.malformed[0].loc.col == 9);
  CHECK(e.malformed[0].message ==
        "malformed expectation: write '# expect: error TEXT' or '# expect: warning TEXT'");
  CHECK(e.malformed[1].loc.line == 5);
}

TEST_CASE("compare_expectations: exact set, same lines, message contains the text") {
  std::vector<std::string> lines = {"a # expect: error unknown", "b # expect: warning never", "c"};
  std::vector<Diagnostic> good = {
      diag(1, "unknown sync flag 'X'"),
      diag(2, "nothing signals fence 'f'; never", model::Severity::Warning)};
  CHECK(compare_expectations(lines, good).ok());

  std::vector<Diagnostic> wrong_severity = {diag(1, "unknown sync flag 'X'"), diag(2, "never")};
  ExpectationReport r = compare_expectations(lines, wrong_severity);
  CHECK(!r.ok());
  REQUIRE(r.missing.size() == 1);
  CHECK(r.missing[0].line == 2);
  REQUIRE(r.unexpected.size() == 1);
  CHECK(render_report(r, "f.sync") ==
        "f.sync:2: missing warning containing 'never'\n"
        "f.sync:2:3: unexpected error: never\n");

  std::vector<Diagnostic> extra = {diag(1, "unknown sync flag 'X'"), diag(1, "unknown again"),
                                   diag(2, "never", model::Severity::Warning)};
  CHECK(compare_expectations(lines, extra).unexpected.size() == 1);
  std::vector<Diagnostic> other_line = {diag(3, "unknown sync flag 'X'"),
                                        diag(2, "never", model::Severity::Warning)};
  ExpectationReport o = compare_expectations(lines, other_line);
  CHECK(o.missing.size() == 1);
  CHECK(o.unexpected.size() == 1);
}

TEST_CASE("compare_expectations: a loose marker does not steal a precise marker's diagnostic") {
  std::vector<std::string> lines = {"x # expect: error flag # expect: error unknown sync flag"};
  std::vector<Diagnostic> d = {diag(1, "unknown sync flag 'A'"), diag(1, "wrong flag family")};
  CHECK(compare_expectations(lines, d).ok());
}

TEST_CASE("compare_expectations: expect-file matches diagnostics without a line in the file") {
  std::vector<std::string> lines = {"# expect-file: error cannot read"};
  CHECK(compare_expectations(lines, std::vector<Diagnostic>{Diagnostic{
                                        model::Severity::Error, {}, "cannot read it", 1}})
            .ok());
  CHECK(compare_expectations(lines, std::vector<Diagnostic>{diag(5, "cannot read it")}).ok());
  CHECK(!compare_expectations(lines, std::vector<Diagnostic>{diag(1, "cannot read it")}).ok());
  CHECK(!compare_expectations(lines, std::vector<Diagnostic>{}).ok());
}

TEST_CASE("compare_expectations: a file without markers expects no diagnostic") {
  std::vector<std::string> lines = {"queue q graphics"};
  CHECK(compare_expectations(lines, std::vector<Diagnostic>{}).ok());
  CHECK(
      !compare_expectations(lines, std::vector<Diagnostic>{diag(1, "w", model::Severity::Warning)})
           .ok());
}

TEST_CASE("collect_case_files: recursive, sorted, only *.sync, unreadable inputs") {
  TempDir t("collect");
  t.write("b.sync", "queue q graphics\n");
  t.write("a/z.sync", "queue q graphics\n");
  t.write("a/notes.txt", "x");
  t.write("a/a.sync", "queue q graphics\n");
  std::filesystem::create_directories(t.path / "empty");
  std::vector<CaseInput> in = collect_case_files(
      {t.path.string(), (t.path / "empty").string(), (t.path / "a/notes.txt").string()});
  REQUIRE(in.size() == 5);
  CHECK(in[0].path == (t.path / "a/a.sync").string());
  CHECK(in[1].path == (t.path / "a/z.sync").string());
  CHECK(in[2].path == (t.path / "b.sync").string());
  CHECK(in[3].path == (t.path / "empty").string());
  CHECK(in[3].problem == "no .sync files in the directory");
  CHECK(in[4].problem.empty());  // a file named explicitly is linted whatever its name
}

TEST_CASE("lint_paths: diagnostics, summary line, counts") {
  TempDir t("lint");
  const std::string clean = t.write("clean.sync", "queue q graphics\n");
  const std::string warn = t.write("warn.sync", "queue q graphics\nfence f\non q:\n  Wait(f, 1)\n");
  const std::string err = t.write("err.sync", "queue q graphics\nfenc f\n");
  std::ostringstream out;
  LintSummary s = lint_paths({clean}, false, out);
  CHECK(out.str() == "1 file, 0 errors, 0 warnings\n");
  CHECK(s.errors == 0);
  out.str("");
  s = lint_paths({t.path.string()}, false, out);
  CHECK(s.files == 3);
  CHECK(s.errors == 1);
  CHECK(s.warnings == 1);
  CHECK(s.unreadable == 0);
  CHECK(out.str() == err +
                         ":2:1: error: unknown keyword or command 'fenc'; did you mean 'fence'?\n"
                         "fenc f\n"
                         "^~~~\n" +
                         warn +
                         ":4:8: warning: nothing signals fence 'f': this wait never completes\n"
                         "  Wait(f, 1)\n"
                         "       ^\n"
                         "3 files, 1 error, 1 warning\n");
  out.str("");
  s = lint_paths({(t.path / "missing.sync").string()}, false, out);
  CHECK(s.unreadable == 1);
  CHECK(out.str() == (t.path / "missing.sync").string() +
                         ": error: cannot read the file: No such file or directory\n"
                         "1 file, 1 error, 0 warnings\n");
}

TEST_CASE("lint_paths --expect-inline: matches, mismatches, summary") {
  TempDir t("expect");
  const std::string good =
      t.write("good.sync", "queue q graphics\nfenc f  # expect: error unknown keyword\n");
  const std::string bad =
      t.write("bad.sync", "queue q graphics\nfence f  # expect: error nothing\nfenc g\n");
  std::ostringstream out;
  LintSummary s = lint_paths({good}, true, out);
  CHECK(s.not_as_expected == 0);
  CHECK(out.str() == "1 file, 1 as expected, 0 not as expected\n");
  out.str("");
  s = lint_paths({good, bad}, true, out);
  CHECK(s.not_as_expected == 1);
  CHECK(out.str() == bad + ":2: missing error containing 'nothing'\n" + bad +
                         ":3:1: unexpected error: unknown keyword or command 'fenc'; did you mean "
                         "'fence'?\n"
                         "2 files, 1 as expected, 1 not as expected\n");
}

TEST_CASE("every cases/lint/*.sync file matches its inline expectations") {
  const std::filesystem::path dir = SYNCPROOF_SOURCE_DIR "/cases/lint";
  std::vector<CaseInput> files = collect_case_files({dir.string()});
  CHECK(files.size() >= 30);
  size_t clean = 0;
  for (const CaseInput& f : files) {
    CAPTURE(f.path);
    ParseResult r = parse_case_file(f.path);
    REQUIRE(!r.unreadable());
    const ExpectationReport rep = compare_expectations(r.c.lines, r.diags);
    CHECK_MESSAGE(rep.ok(), render_report(rep, f.path));
    // Each lint case opens with a comment saying what it shows.
    REQUIRE(!r.c.lines.empty());
    CHECK(r.c.lines[0].starts_with("# "));
    if (r.diags.empty()) ++clean;
  }
  CHECK(clean >= 3);
}

}  // namespace syncproof::lang
