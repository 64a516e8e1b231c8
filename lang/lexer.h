#pragma once
// Tokens of one case-file line. The language is line oriented: the lexer never looks across a
// newline, and a line with a lexical problem yields one located diagnostic and no tokens.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostic.h"

namespace syncproof::lang {

enum class TokKind : uint8_t {
  Ident,   // [A-Za-z_][A-Za-z0-9_.-]*  ('-' not followed by '>')
  Number,  // decimal or 0x hex, at most 64 bits
  String,  // "..." with \" and \\ escapes; text holds the unescaped contents
  LParen,
  RParen,
  Comma,
  Pipe,
  Colon,
  Arrow,
  LBracket,
  RBracket,
  Plus,
  Minus,
  End,  // end of the line's code (before any comment)
};
std::string_view to_string(TokKind k);

struct Token {
  TokKind kind = TokKind::End;
  std::string text;    // the spelling (strings: the unescaped contents)
  uint64_t value = 0;  // numbers
  uint32_t col = 1;    // 1-based byte column of the first byte
  uint32_t len = 1;    // bytes in the source
};

inline constexpr size_t kMaxLineBytes = 64 * 1024;

struct LexedLine {
  std::vector<Token> tokens;        // ends with an End token placed just after the last token
  std::optional<Diagnostic> error;  // the first lexical problem; `tokens` then holds only the
                                    // tokens before it, with no End token
};

LexedLine lex_line(std::string_view line, uint32_t line_no);

// How a token is named in a message: 'GL1_INVALIDTE', end of line, string "abc".
std::string describe(const Token& t);

}  // namespace syncproof::lang
