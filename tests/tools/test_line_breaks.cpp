// tools/line_breaks.h: a fix's text edits, made on the file's own bytes. Every kind of edit the fix
// writes (a new line, a removed line, a change inside a line) on LF, CRLF and mixed files, with
// and without a byte order mark.
#include <doctest/doctest.h>

#include "tools/line_breaks.h"

using namespace syncproof;
using syncproof::properties::SourceEdit;

namespace {

std::string edited(const std::string& raw, const std::vector<SourceEdit>& edits) {
  return cli::apply_keeping_conventions(cli::split_conventions(raw), edits);
}

}  // namespace

TEST_CASE("line breaks: the parsed text has LF breaks and no byte order mark") {
  const cli::FileText f = cli::split_conventions(
      "\xEF\xBB\xBF"
      "a\r\nb\nc\r\n");
  CHECK(f.bom);
  CHECK(f.text == "a\nb\nc\n");
  CHECK(f.cr == std::vector<bool>{true, false, true});
  CHECK(cli::split_conventions("a\nb").text == "a\nb");  // no final break stays without one
}

TEST_CASE("line breaks: a new line takes the break of the line it goes before") {
  const SourceEdit insert{2, 1, 0, "new\n"};
  CHECK(edited("a\nb\n", {insert}) == "a\nnew\nb\n");
  CHECK(edited("a\r\nb\r\n", {insert}) == "a\r\nnew\r\nb\r\n");
  CHECK(edited("a\nb\r\n", {insert}) == "a\nnew\r\nb\r\n");
  CHECK(edited("a\r\nb\n", {insert}) == "a\r\nnew\nb\n");
  // At the end of the file: the last line's break.
  CHECK(edited("a\r\nb\r\n", {{3, 1, 0, "new\n"}}) == "a\r\nb\r\nnew\r\n");
}

TEST_CASE("line breaks: a removed line goes with its own break, whatever it is") {
  // A whole line is `len` = its length + 1 from column 1 in the parsed text.
  CHECK(edited("a\r\nbb\r\nc\r\n", {{2, 1, 3, ""}}) == "a\r\nc\r\n");
  CHECK(edited("a\nbb\r\nc\n", {{2, 1, 3, ""}}) == "a\nc\n");
  CHECK(edited("a\nbb\nc\n", {{2, 1, 3, ""}}) == "a\nc\n");
}

TEST_CASE("line breaks: a change inside a line keeps the line's break and the byte order mark") {
  const SourceEdit add{1, 2, 0, " | X"};
  CHECK(edited("\xEF\xBB\xBF"
               "AB\r\nC\r\n",
               {add}) ==
        "\xEF\xBB\xBF"
        "A | XB\r\nC\r\n");
  CHECK(edited("AB\nC", {add}) == "A | XB\nC");
  // Several edits at once, as a fix makes them.
  CHECK(edited("\xEF\xBB\xBF"
               "A\r\nB\r\nC\r\n",
               {{1, 2, 0, "1"}, {2, 1, 2, ""}, {3, 1, 0, "n\n"}}) ==
        "\xEF\xBB\xBF"
        "A1\r\nn\r\nC\r\n");
}
