#include "lang/lexer.h"

#include <fmt/format.h>

#include "lang/utf8.h"

namespace syncproof::lang {

namespace {

bool is_ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || is_digit(c) || c == '.' || c == '-';
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
int hex_digit(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Lexer {
 public:
  Lexer(std::string_view line, uint32_t line_no) : s_(line), line_no_(line_no) {}

  LexedLine run() {
    if (s_.size() > kMaxLineBytes) {
      return fail(
          0, 1, fmt::format("line too long: {} bytes (the limit is {})", s_.size(), kMaxLineBytes));
    }
    if (size_t nul = s_.find('\0'); nul != std::string_view::npos) {
      return fail(nul, 1, "NUL byte in the line (is this a binary file?)");
    }
    if (size_t bad = find_invalid_utf8(s_); bad != std::string_view::npos) {
      return fail(
          bad, 1,
          fmt::format("invalid UTF-8 (byte 0x{:02X})", static_cast<unsigned char>(s_[bad])));
    }
    size_t end_of_code = 0;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (is_space(c)) {
        ++i_;
        continue;
      }
      if (c == '#') break;
      if (!next_token()) return std::move(out_);  // tokens so far kept for the name prescan
      end_of_code = i_;
    }
    Token end;
    end.kind = TokKind::End;
    end.col = static_cast<uint32_t>(end_of_code + 1);
    out_.tokens.push_back(end);
    return std::move(out_);
  }

 private:
  LexedLine fail(size_t at, size_t len, std::string msg) {
    set_error(at, len, std::move(msg));
    return std::move(out_);
  }

  void set_error(size_t at, size_t len, std::string msg) {
    out_.error = Diagnostic{model::Severity::Error,
                            {line_no_, static_cast<uint32_t>(at + 1)},
                            std::move(msg),
                            static_cast<uint32_t>(len)};
  }

  void push(TokKind k, size_t start, std::string text, uint64_t value = 0) {
    Token t;
    t.kind = k;
    t.text = std::move(text);
    t.value = value;
    t.col = static_cast<uint32_t>(start + 1);
    t.len = static_cast<uint32_t>(i_ - start);
    out_.tokens.push_back(std::move(t));
  }

  bool next_token() {
    const size_t start = i_;
    const char c = s_[i_];
    if (is_ident_start(c)) {
      while (i_ < s_.size() && is_ident_char(s_[i_])) {
        if (s_[i_] == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '>') break;
        ++i_;
      }
      push(TokKind::Ident, start, std::string(s_.substr(start, i_ - start)));
      return true;
    }
    if (is_digit(c)) return number();
    if (c == '"') return string();
    TokKind k = TokKind::End;
    switch (c) {
      case '(':
        k = TokKind::LParen;
        break;
      case ')':
        k = TokKind::RParen;
        break;
      case ',':
        k = TokKind::Comma;
        break;
      case '|':
        k = TokKind::Pipe;
        break;
      case ':':
        k = TokKind::Colon;
        break;
      case '[':
        k = TokKind::LBracket;
        break;
      case ']':
        k = TokKind::RBracket;
        break;
      case '+':
        k = TokKind::Plus;
        break;
      case '-':
        k = (i_ + 1 < s_.size() && s_[i_ + 1] == '>') ? TokKind::Arrow : TokKind::Minus;
        break;
      default:
        break;
    }
    if (k == TokKind::End) {
      const size_t n = std::max<size_t>(1, utf8_sequence_length(s_.substr(i_)));
      const auto b = static_cast<unsigned char>(c);
      std::string shown =
          b < 0x20 || b == 0x7f ? fmt::format("\\x{:02X}", b) : std::string(s_.substr(i_, n));
      set_error(i_, n, fmt::format("unexpected character '{}'", shown));
      return false;
    }
    i_ += k == TokKind::Arrow ? 2 : 1;
    push(k, start, std::string(s_.substr(start, i_ - start)));
    return true;
  }

  bool number() {
    const size_t start = i_;
    const bool hex =
        s_[i_] == '0' && i_ + 1 < s_.size() && (s_[i_ + 1] == 'x' || s_[i_ + 1] == 'X');
    const unsigned base = hex ? 16 : 10;
    if (hex) i_ += 2;
    const size_t digits = i_;
    uint64_t v = 0;
    bool overflow = false;
    for (; i_ < s_.size(); ++i_) {
      const int d = hex_digit(s_[i_]);
      if (d < 0 || static_cast<unsigned>(d) >= base) break;
      if (v > (UINT64_MAX - static_cast<unsigned>(d)) / base) overflow = true;
      v = v * base + static_cast<unsigned>(d);
    }
    const size_t digits_end = i_;
    // Anything glued to the digits (12abc, 0x, 0x12g, 1.5) makes the whole word malformed.
    while (i_ < s_.size() && is_ident_char(s_[i_]) && s_[i_] != '-') ++i_;
    const std::string_view text = s_.substr(start, i_ - start);
    if (digits_end == digits || i_ != digits_end) {
      set_error(start, i_ - start, fmt::format("malformed number {}", quote(text)));
      return false;
    }
    if (overflow) {
      set_error(start, i_ - start, fmt::format("{} does not fit 64 bits", quote(text)));
      return false;
    }
    push(TokKind::Number, start, std::string(text), v);
    return true;
  }

  bool string() {
    const size_t start = i_++;
    std::string text;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        push(TokKind::String, start, std::move(text));
        return true;
      }
      if (c == '\\') {
        if (i_ + 1 < s_.size() && (s_[i_ + 1] == '"' || s_[i_ + 1] == '\\')) {
          text += s_[i_ + 1];
          i_ += 2;
          continue;
        }
        const std::string_view esc = s_.substr(i_, std::min<size_t>(2, s_.size() - i_));
        set_error(
            i_, esc.size(),
            fmt::format("unknown escape '{}' in string (only \\\" and \\\\ are allowed)", esc));
        return false;
      }
      text += c;
      ++i_;
    }
    set_error(start, 1, "unterminated string");
    return false;
  }

  std::string_view s_;
  uint32_t line_no_;
  size_t i_ = 0;
  LexedLine out_;
};

}  // namespace

std::string_view to_string(TokKind k) {
  switch (k) {
    case TokKind::Ident:
      return "identifier";
    case TokKind::Number:
      return "number";
    case TokKind::String:
      return "string";
    case TokKind::LParen:
      return "'('";
    case TokKind::RParen:
      return "')'";
    case TokKind::Comma:
      return "','";
    case TokKind::Pipe:
      return "'|'";
    case TokKind::Colon:
      return "':'";
    case TokKind::Arrow:
      return "'->'";
    case TokKind::LBracket:
      return "'['";
    case TokKind::RBracket:
      return "']'";
    case TokKind::Plus:
      return "'+'";
    case TokKind::Minus:
      return "'-'";
    case TokKind::End:
      return "end of line";
  }
  return "?";
}

LexedLine lex_line(std::string_view line, uint32_t line_no) {
  return Lexer(line, line_no).run();
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokKind::End:
      return "end of line";
    case TokKind::String: {
      const std::string q = quote(t.text);  // 'text' cut to a readable length
      return "string \"" + q.substr(1, q.size() - 2) + "\"";
    }
    default:
      return quote(t.text);
  }
}

}  // namespace syncproof::lang
