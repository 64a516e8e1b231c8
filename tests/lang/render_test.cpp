#include <doctest/doctest.h>

#include "lang/diagnostic.h"
#include "lang_test_util.h"

namespace syncproof::lang {

namespace {
Diagnostic diag(uint32_t line, uint32_t col, uint32_t len, std::string msg,
                model::Severity s = model::Severity::Error) {
  return Diagnostic{s, {line, col}, std::move(msg), len};
}
}  // namespace

TEST_CASE("render: header, source line, caret with tildes under the token") {
  std::vector<std::string> lines = {"queue gfx graphics", "  SyncTopOfPipeX(GL1_INVALIDTE, NONE)"};
  CHECK(render(diag(2, 18, 13, "unknown sync flag 'GL1_INVALIDTE'"), "a.sync", lines) ==
        "a.sync:2:18: error: unknown sync flag 'GL1_INVALIDTE'\n"
        "  SyncTopOfPipeX(GL1_INVALIDTE, NONE)\n"
        "                 ^~~~~~~~~~~~~\n");
  CHECK(render(diag(1, 1, 1, "w", model::Severity::Warning), "a.sync", lines) ==
        "a.sync:1:1: warning: w\nqueue gfx graphics\n^\n");
}

TEST_CASE("render: a caret after the end of the line, and a length past it is cut") {
  std::vector<std::string> lines = {"Draw"};
  CHECK(render(diag(1, 5, 1, "m"), "f", lines) == "f:1:5: error: m\nDraw\n    ^\n");
  CHECK(render(diag(1, 3, 10, "m"), "f", lines) == "f:1:3: error: m\nDraw\n  ^~\n");
}

TEST_CASE("render: tabs are kept in the caret line so the caret aligns") {
  std::vector<std::string> lines = {"\tDraw\treads x"};
  CHECK(render(diag(1, 7, 5, "m"), "f", lines) ==
        "f:1:7: error: m\n\tDraw\treads x\n\t    \t^~~~~\n");
}

TEST_CASE("render: multi-byte UTF-8 counts as one column, bad bytes print as '?'") {
  std::vector<std::string> lines = {"case \"caf\xC3\xA9\" x", std::string("a\0b\xFF", 4)};
  CHECK(render(diag(1, 14, 1, "m"), "f", lines) ==
        "f:1:14: error: m\ncase \"caf\xC3\xA9\" x\n            ^\n");
  CHECK(render(diag(2, 4, 1, "m"), "f", lines) == "f:2:4: error: m\na?b?\n   ^\n");
}

TEST_CASE("render: a long line is shown as a window around the column") {
  std::string line(100000, 'a');
  line[50000] = 'X';
  const std::string out = render(diag(1, 50001, 1, "m"), "f", std::vector<std::string>{line});
  const std::string expected_src =
      "..." + std::string(80, 'a') + "X" + std::string(79, 'a') + "...";
  CHECK(out == "f:1:50001: error: m\n" + expected_src + "\n" + std::string(83, ' ') + "^\n");
  const std::string start = render(diag(1, 1, 1, "m"), "f", std::vector<std::string>{line});
  CHECK(start == "f:1:1: error: m\n" + std::string(160, 'a') + "...\n^\n");
}

TEST_CASE("render: file-level diagnostics and lines the file does not have") {
  CHECK(render(Diagnostic{model::Severity::Error,
                          {},
                          "cannot read the file: No such file or directory",
                          1,
                          true},
               "missing.sync",
               {}) == "missing.sync: error: cannot read the file: No such file or directory\n");
  CHECK(render(diag(1, 1, 1, "empty case file: no queue declared"), "e.sync", {}) ==
        "e.sync:1:1: error: empty case file: no queue declared\n");
}

TEST_CASE("render_all of a parse: every diagnostic in line order") {
  ParseResult r = test::parse("queue q graphics\nfence\nbuffer b 0 0\n");
  CHECK(render_all(r) ==
        "t.sync:2:6: error: expected the fence name, found end of line\n"
        "fence\n"
        "     ^\n"
        "t.sync:3:12: error: buffer 'b' has size 0\n"
        "buffer b 0 0\n"
        "           ^\n");
}

TEST_CASE("sort_diagnostics orders by line then column, stably") {
  std::vector<Diagnostic> d = {diag(3, 1, 1, "c"), diag(1, 5, 1, "b"), diag(1, 2, 1, "a"),
                               diag(0, 0, 1, "file"), diag(1, 5, 1, "b2")};
  sort_diagnostics(d);
  CHECK(d[0].message == "file");
  CHECK(d[1].message == "a");
  CHECK(d[2].message == "b");
  CHECK(d[3].message == "b2");
  CHECK(d[4].message == "c");
}

}  // namespace syncproof::lang
