#include <doctest/doctest.h>

#include "lang/lexer.h"

namespace syncproof::lang {

namespace {

std::string kinds(const LexedLine& l) {
  std::string out;
  for (const Token& t : l.tokens) {
    if (!out.empty()) out += ' ';
    out += t.kind == TokKind::Ident || t.kind == TokKind::Number ? t.text
                                                                 : std::string(to_string(t.kind));
  }
  return out;
}

std::string error_of(std::string_view line) {
  LexedLine l = lex_line(line, 7);
  if (!l.error) return "no error";
  return std::to_string(l.error->loc.line) + ":" + std::to_string(l.error->loc.col) + ": " +
         l.error->message;
}

}  // namespace

TEST_CASE("identifiers keep '-' and '.', but not the '-' of '->'") {
  LexedLine l = lex_line("assume -A-WAVE-END-STORES-IN-GL2 +x.y_z", 1);
  REQUIRE(!l.error);
  CHECK(kinds(l) == "assume '-' A-WAVE-END-STORES-IN-GL2 '+' x.y_z end of line");
  CHECK(kinds(lex_line("prove visible a->b", 1)) == "prove visible a '->' b end of line");
  CHECK(kinds(lex_line("a -> b", 1)) == "a '->' b end of line");
  CHECK(kinds(lex_line("gl2-rb-coherent no-hazards", 1)) ==
        "gl2-rb-coherent no-hazards end of line");
}

TEST_CASE("punctuation") {
  CHECK(kinds(lex_line("f(a, b | c) : [x] + -", 1)) ==
        "f '(' a ',' b '|' c ')' ':' '[' x ']' '+' '-' end of line");
}

TEST_CASE("numbers: decimal and hex, values and columns") {
  LexedLine l = lex_line("  buffer b 0x10000 4096 0XfF 18446744073709551615", 3);
  REQUIRE(!l.error);
  REQUIRE(l.tokens.size() == 7);
  CHECK(l.tokens[2].value == 0x10000);
  CHECK(l.tokens[2].col == 12);
  CHECK(l.tokens[2].len == 7);
  CHECK(l.tokens[3].value == 4096);
  CHECK(l.tokens[4].value == 0xFF);
  CHECK(l.tokens[5].value == UINT64_MAX);
  CHECK(l.tokens[0].col == 3);
}

TEST_CASE("numbers over 64 bits and malformed numbers are located errors") {
  CHECK(error_of("label l 0x10000000000000000") ==
        "7:9: '0x10000000000000000' does not fit 64 bits");
  CHECK(error_of("label l 18446744073709551616") ==
        "7:9: '18446744073709551616' does not fit 64 bits");
  CHECK(error_of("x 12abc") == "7:3: malformed number '12abc'");
  CHECK(error_of("x 0x") == "7:3: malformed number '0x'");
  CHECK(error_of("x 1.5") == "7:3: malformed number '1.5'");
  CHECK(error_of(std::string("x ") + std::string(200, '9')).find("does not fit 64 bits") !=
        std::string::npos);
}

TEST_CASE("strings: escapes, unterminated, bad escapes") {
  LexedLine l = lex_line(R"(case "a \"b\" \\ c # not a comment")", 1);
  REQUIRE(!l.error);
  REQUIRE(l.tokens.size() == 3);
  CHECK(l.tokens[1].kind == TokKind::String);
  CHECK(l.tokens[1].text == R"(a "b" \ c # not a comment)");
  CHECK(error_of(R"(case "abc)") == "7:6: unterminated string");
  CHECK(error_of(R"(case "a\")") == "7:6: unterminated string");
  CHECK(error_of(R"(case "a\tb")") ==
        R"(7:8: unknown escape '\t' in string (only \" and \\ are allowed))");
}

TEST_CASE("comments end the line's code, the End token follows the last token") {
  LexedLine l = lex_line("fence f   # a comment ( \" ", 1);
  REQUIRE(!l.error);
  CHECK(kinds(l) == "fence f end of line");
  CHECK(l.tokens.back().col == 8);
  CHECK(lex_line("   # only a comment", 1).tokens.size() == 1);
  CHECK(lex_line("", 1).tokens.size() == 1);
}

TEST_CASE("NUL bytes, invalid UTF-8, control characters, long lines") {
  CHECK(error_of(std::string("fence f\0g", 9)) ==
        "7:8: NUL byte in the line (is this a binary file?)");
  CHECK(error_of("# caf\xE9") == "7:6: invalid UTF-8 (byte 0xE9)");
  CHECK(error_of("x \xC0\x80") == "7:3: invalid UTF-8 (byte 0xC0)");          // overlong
  CHECK(error_of("x \xED\xA0\x80") == "7:3: invalid UTF-8 (byte 0xED)");      // surrogate
  CHECK(error_of("x \xF4\x90\x80\x80") == "7:3: invalid UTF-8 (byte 0xF4)");  // > U+10FFFF
  CHECK(error_of("x \x01") == "7:3: unexpected character '\\x01'");
  CHECK(error_of("x \xC3\xA9") == "7:3: unexpected character '\xC3\xA9'");
  CHECK(error_of("x @") == "7:3: unexpected character '@'");
  CHECK(error_of(std::string(kMaxLineBytes, 'a')) == "no error");
  CHECK(error_of(std::string(kMaxLineBytes + 1, 'a')) ==
        "7:1: line too long: 65537 bytes (the limit is 65536)");
  CHECK(error_of("# caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "no error");
}

TEST_CASE("a lexical error keeps the tokens before it, and no End token") {
  LexedLine l = lex_line("z: Draw \"abc", 1);
  REQUIRE(l.error);
  CHECK(kinds(l) == "z ':' Draw");
}

TEST_CASE("describe names tokens for messages") {
  LexedLine l = lex_line("abc \"s\" 12", 1);
  CHECK(describe(l.tokens[0]) == "'abc'");
  CHECK(describe(l.tokens[1]) == "string \"s\"");
  CHECK(describe(l.tokens[2]) == "'12'");
  CHECK(describe(l.tokens[3]) == "end of line");
  CHECK(quote(std::string(100, 'x')) == "'" + std::string(40, 'x') + "...'");
}

}  // namespace syncproof::lang
