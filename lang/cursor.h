#pragma once
// A view of part of a token line. Peeking past its end yields the token that delimits it (a ',',
// a ')' or the line's End token), so "expected X, found ')'" messages and locations come for free.
#include <algorithm>
#include <string_view>
#include <vector>

#include "lang/lexer.h"

namespace syncproof::lang::detail {

class Cursor {
 public:
  Cursor(const std::vector<Token>& toks, size_t begin, size_t end)
      : toks_(&toks), pos_(begin), end_(end) {}

  const Token& peek(size_t k = 0) const { return (*toks_)[std::min(pos_ + k, end_)]; }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < end_) ++pos_;
    return t;
  }
  bool at_end() const { return pos_ >= end_; }
  bool at(TokKind k) const { return at_end() ? k == TokKind::End : peek().kind == k; }
  bool at_word(std::string_view w) const {
    return !at_end() && peek().kind == TokKind::Ident && peek().text == w;
  }
  bool accept(TokKind k) {
    if (at_end() || peek().kind != k) return false;
    ++pos_;
    return true;
  }
  bool accept_word(std::string_view w) {
    if (!at_word(w)) return false;
    ++pos_;
    return true;
  }
  size_t pos() const { return pos_; }
  size_t end() const { return end_; }
  size_t size() const { return end_ > pos_ ? end_ - pos_ : 0; }
  const std::vector<Token>& tokens() const { return *toks_; }

 private:
  const std::vector<Token>* toks_;
  size_t pos_, end_;
};

}  // namespace syncproof::lang::detail
