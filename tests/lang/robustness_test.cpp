// Bad input never crashes the parser, never stops it at the first error, and always yields a
// located diagnostic with a precise message.
#include <doctest/doctest.h>

#include "lang_test_util.h"

namespace syncproof::lang {

using test::diags;
using test::only;
using test::parse;
using test::with_prelude;

TEST_CASE("empty file, blank file, comment-only file") {
  CHECK(only(parse("")) == "1:1: error: empty case file: no queue declared");
  CHECK(only(parse("\n\n   \n\t\n")) == "1:1: error: empty case file: no queue declared");
  CHECK(only(parse("# a comment\n# another\n")) ==
        "1:1: error: empty case file: no queue declared");
  CHECK(only(parse("buffer b 0 4\n")) ==
        "1:1: error: no queue declared: a case needs 'queue NAME graphics|compute|host'");
  CHECK(parse("").c.lines.empty());
}

TEST_CASE("binary garbage: located errors, bounded in number") {
  std::string junk;
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1103515245u + 12345u;
    junk += static_cast<char>(x >> 24);
  }
  ParseResult r = parse(junk);
  REQUIRE(!r.diags.empty());
  CHECK(r.has_errors());
  CHECK(r.diags.size() <= 102);
  for (const Diagnostic& d : r.diags) CHECK(d.loc.line >= 1);
  CHECK(r.diags.back().message == "too many errors (100): the rest of the file is not checked");
}

TEST_CASE("NUL bytes and invalid UTF-8 are located, the next lines are still parsed") {
  ParseResult r =
      parse(std::string("queue q graphics\nfence a") + '\0' + "b\nfence c\n# caf\xE9\nlabel l x\n");
  CHECK(diags(r) ==
        "2:8: error: NUL byte in the line (is this a binary file?)\n"
        "4:6: error: invalid UTF-8 (byte 0xE9)\n"
        "5:9: error: expected the label's address (a number), found 'x'\n");
  REQUIRE(r.c.fences.size() == 1);
  CHECK(r.c.fences[0].name == "c");
}

TEST_CASE("a UTF-8 byte order mark and CRLF line ends are accepted") {
  ParseResult r = parse("\xEF\xBB\xBFqueue q graphics\r\nfence f\r\n");
  CHECK(diags(r) == "");
  CHECK(r.c.lines[0] == "queue q graphics");
  CHECK(r.c.fences.size() == 1);
}

TEST_CASE("a 1 MB line is a located error, the file goes on") {
  std::string text = "queue q graphics\nbuffer " + std::string(1 << 20, 'x') + " 0 4\nfence f\n";
  ParseResult r = parse(text);
  CHECK(only(r) == "2:1: error: line too long: 1048587 bytes (the limit is 65536)");
  CHECK(r.c.fences.size() == 1);
  // Its rendering is a window, not a megabyte.
  CHECK(render_all(r).size() < 400);
}

TEST_CASE("deeply nested and unbalanced parentheses") {
  std::string deep = "queue q graphics\non q:\n  Draw " + std::string(60000, '(') + "\n";
  CHECK(only(parse(deep)) ==
        "3:9: error: unexpected '(' inside '(' (column 8): brackets do not nest");
  CHECK(only(parse("queue q graphics\non q:\n  " + std::string(60000, ')') + "\n")) ==
        "3:3: error: unmatched ')'");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, 1\n")) == "9:9: error: '(' is never closed");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, 1))\n")) == "9:15: error: unmatched ')'");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, [1)]\n")) ==
        "9:13: error: unexpected '[' inside '(' (column 9): brackets do not nest");
}

TEST_CASE("unterminated strings") {
  CHECK(only(parse("queue q graphics\ncase \"no end\n")) == "2:6: error: unterminated string");
  CHECK(only(parse("queue q graphics\ncase \"ends with a backslash\\\"\n")) ==
        "2:6: error: unterminated string");
}

TEST_CASE("huge numbers: 32-bit flag words and 64-bit numbers") {
  CHECK(only(with_prelude(
            "on gfx:\n  SyncTopOfPipeX(0x1FFFFFFFFF, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:18: error: 0x1FFFFFFFFF does not fit a 32-bit flag word");
  CHECK(only(with_prelude("on acs:\n  DispatchX(4294967296) writes grid as uav\n")) ==
        "9:13: error: 4294967296 does not fit a 32-bit flag word");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, 0x1FFFFFFFFFFFFFFFFF)\n")) ==
        "9:13: error: '0x1FFFFFFFFFFFFFFFFF' does not fit 64 bits");
  CHECK(only(with_prelude(
            "on gfx:\n  Write32BitValueBottomOfPipe2X(done, 0x100000000, NONE, NONE, NONE)\n")) ==
        "9:39: error: Value 0x100000000 does not fit 32 bits");
  CHECK(diags(with_prelude("on gfx:\n  Write64BitValueBottomOfPipe2X(done, 0xFFFFFFFFFFFFFFFF, "
                           "NONE, NONE, NONE)\n")) == "");
}

TEST_CASE("unknown commands and keywords, with the closest known one") {
  CHECK(only(with_prelude("on gfx:\n  Dispach writes grid as uav\n")) ==
        "9:3: error: unknown command 'Dispach'; did you mean 'Dispatch'?");
  CHECK(only(with_prelude("on gfx:\n  Signal2x(f, 1)\n")) ==
        "9:3: error: unknown command 'Signal2x'; did you mean 'Signal2X'?");
  CHECK(only(with_prelude("on gfx:\n  Frobnicate grid\n")) ==
        "9:3: error: unknown command 'Frobnicate'");
  CHECK(only(with_prelude("lable x 0x10\n")) ==
        "8:1: error: unknown keyword or command 'lable'; did you mean 'label'?");
  CHECK(only(with_prelude("frobnicate\n")) ==
        "8:1: error: unknown keyword or command 'frobnicate'");
  CHECK(only(with_prelude("prov deadlock-free\n")) ==
        "8:1: error: unknown keyword or command 'prov'; did you mean 'prove'?");
  CHECK(only(with_prelude(std::string(5000, 'Z') + "\n"))
            .starts_with("8:1: error: unknown keyword or command 'ZZZZ"));
}

TEST_CASE("missing arguments") {
  CHECK(only(with_prelude("on gfx:\n  SyncTopOfPipeX()\n")) ==
        "9:18: error: missing argument SyncFlags: SyncTopOfPipeX(SyncFlags, ControlFlags, "
        "BaseAddress, SizeInBytes)");
  CHECK(only(with_prelude("on gfx:\n  SyncTopOfPipeX(NONE, , 0, D3D12XBOX_FLUSH_RANGE_ALL)\n")) ==
        "9:24: error: missing argument ControlFlags: SyncTopOfPipeX(SyncFlags, ControlFlags, "
        "BaseAddress, SizeInBytes)");
  CHECK(
      only(with_prelude("on gfx:\n  Wait64BitValueX(done)\n")) ==
      "9:23: error: missing argument Comparison: Wait64BitValueX(Destination, Comparison, Value)");
  CHECK(only(with_prelude("on gfx:\n  WaitX(f, 1, NONE, NONE)\n")) ==
        "9:21: error: too many arguments: WaitX(Fence, Value[, SyncFlags])");
  CHECK(only(with_prelude("on gfx:\n  Dispatch\n")) ==
        "9:11: error: Dispatch needs at least one access: 'reads|writes RESOURCE as KIND'");
  CHECK(only(with_prelude("on gfx:\n  Draw reads\n")) ==
        "9:13: error: expected a resource name, found end of line");
  CHECK(only(with_prelude("on gfx:\n  Draw reads grid as\n")) ==
        "9:21: error: expected an access kind, found end of line");
  CHECK(only(with_prelude("on gfx:\n  Draw reads grid as srv in\n")) ==
        "9:28: error: expected a stage (vs, ps or cs), found end of line");
  CHECK(only(with_prelude("queue\n")) == "8:6: error: expected the queue name, found end of line");
}

TEST_CASE("trailing garbage") {
  CHECK(only(with_prelude("fence g extra\n")) ==
        "8:9: error: unexpected 'extra' after the fence name");
  CHECK(only(with_prelude("on gfx: Signal(f, 1)\n")) ==
        "8:9: error: unexpected 'Signal' after 'on gfx:'");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, 1) (\n")) == "9:16: error: '(' is never closed");
  CHECK(only(with_prelude("on gfx:\n  Signal(f, 1) 2\n")) ==
        "9:16: error: unexpected '2' after the end of Signal(...)");
  CHECK(only(with_prelude("case \"t\" \"u\"\n")) ==
        "8:10: error: unexpected string \"u\" after the case title");
  CHECK(only(with_prelude("prove deadlock-free on gfx\n")) ==
        "8:21: error: unexpected 'on' after the 'deadlock-free' property");
}

TEST_CASE("one error per bad line, every bad line is reported") {
  ParseResult r = with_prelude(
      "on gfx:\n"
      "  Dispach writes grid as uav\n"
      "  Draw reads grid as svr\n"
      "  Signal(g, 1)\n"
      "  Draw reads grid as srv\n");
  CHECK(diags(r) ==
        "9:3: error: unknown command 'Dispach'; did you mean 'Dispatch'?\n"
        "10:22: error: unknown access kind 'svr'; did you mean 'srv'?\n"
        "11:10: error: undeclared fence 'g'\n");
  CHECK(r.c.queues[0].commands.size() == 1);
}

}  // namespace syncproof::lang
