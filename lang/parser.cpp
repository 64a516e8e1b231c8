// The driver: lines -> tokens -> one statement per line; names and their declarations.
#include "lang/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <system_error>

#include "util/edit_distance.h"

namespace syncproof::lang {

namespace detail {

namespace {

constexpr std::string_view kDeclarations[] = {"case",   "profile", "assume", "target", "queue",
                                              "buffer", "texture", "fence",  "label"};
constexpr size_t kMaxErrors = 100;  // like a compiler's error limit: a binary file stops here
constexpr std::string_view kVerbs[] = {"prove", "refute", "check"};

struct ApiName {
  Api api;
  std::string_view name;
};
constexpr ApiName kApis[] = {
    {Api::Draw, "Draw"},
    {Api::DrawInstanced, "DrawInstanced"},
    {Api::DrawIndexedInstanced, "DrawIndexedInstanced"},
    {Api::Dispatch, "Dispatch"},
    {Api::DispatchX, "DispatchX"},
    {Api::ExecuteIndirect, "ExecuteIndirect"},
    {Api::CopyBufferRegion, "CopyBufferRegion"},
    {Api::CopyResource, "CopyResource"},
    {Api::CopyTextureRegion, "CopyTextureRegion"},
    {Api::Host, "Host"},
    {Api::SyncTopOfPipeX, "SyncTopOfPipeX"},
    {Api::SyncBottomOfPipeX, "SyncBottomOfPipeX"},
    {Api::Write32BitValueBottomOfPipe2X, "Write32BitValueBottomOfPipe2X"},
    {Api::Write64BitValueBottomOfPipe2X, "Write64BitValueBottomOfPipe2X"},
    {Api::Wait32BitValueX, "Wait32BitValueX"},
    {Api::Wait64BitValueX, "Wait64BitValueX"},
    {Api::Signal2X, "Signal2X"},
    {Api::WaitX, "WaitX"},
    {Api::Signal, "Signal"},
    {Api::Wait, "Wait"},
    {Api::ResourceBarrier, "ResourceBarrier"},
    {Api::Barrier, "Barrier"},
};

bool contains(std::span<const std::string_view> list, std::string_view w) {
  return std::find(list.begin(), list.end(), w) != list.end();
}

}  // namespace

std::string_view to_string(NameKind k) {
  switch (k) {
    case NameKind::Queue:
      return "queue";
    case NameKind::Resource:
      return "resource";
    case NameKind::Fence:
      return "fence";
    case NameKind::Label:
      return "label";
    case NameKind::Command:
      return "command label";
  }
  return "?";
}

std::optional<Api> api_from_name(std::string_view name) {
  for (const ApiName& a : kApis) {
    if (a.name == name) return a.api;
  }
  return std::nullopt;
}

std::vector<std::string_view> api_names() {
  std::vector<std::string_view> out;
  for (const ApiName& a : kApis) out.push_back(a.name);
  return out;
}

bool is_work(Api a) {
  switch (a) {
    case Api::Draw:
    case Api::DrawInstanced:
    case Api::DrawIndexedInstanced:
    case Api::Dispatch:
    case Api::DispatchX:
    case Api::ExecuteIndirect:
    case Api::CopyBufferRegion:
    case Api::CopyResource:
    case Api::CopyTextureRegion:
    case Api::Host:
      return true;
    default:
      return false;
  }
}

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string_view>& candidates) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  size_t best_d = limit + 1;
  for (std::string_view cand : candidates) {
    const size_t d = util::edit_distance(word, cand);
    if (d < best_d && d < std::max(word.size(), cand.size())) {
      best_d = d;
      best = std::string(cand);
    }
  }
  return best;
}

Parser::Parser(std::string_view file, std::string_view text) {
  c_.file = std::string(file);
  split_lines(text);
}

void Parser::split_lines(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // UTF-8 byte order mark
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    c_.lines.emplace_back(line);
    start = nl + 1;
  }
}

// Lexes every line and records where each name is declared, so that a use before the
// declaration can say so instead of calling the name unknown.
void Parser::prescan() {
  lexed_.reserve(c_.lines.size());
  for (size_t i = 0; i < c_.lines.size(); ++i) {
    lexed_.push_back(lex_line(c_.lines[i], static_cast<uint32_t>(i + 1)));
    const std::vector<Token>& t = lexed_.back().tokens;
    if (t.size() < 2 || t[0].kind != TokKind::Ident) continue;
    const auto line = static_cast<uint32_t>(i + 1);
    if (t[1].kind == TokKind::Ident && contains(kDeclarations, t[0].text) && t[0].text != "case" &&
        t[0].text != "profile" && t[0].text != "assume" && t[0].text != "target") {
      decl_line_.try_emplace(t[1].text, line);
    } else if (t[1].kind == TokKind::Colon && t[0].text != "on") {
      decl_line_.try_emplace(t[0].text, line);
    }
  }
}

ParseResult Parser::run() {
  prescan();
  for (size_t i = 0; i < lexed_.size(); ++i) {
    line_ = static_cast<uint32_t>(i + 1);
    if (errors_ >= kMaxErrors) {
      report(model::Severity::Error, 1, 1,
             fmt::format("too many errors ({}): the rest of the file is not checked", kMaxErrors));
      sort_diagnostics(diags_);
      return ParseResult{std::move(c_), std::move(diags_)};
    }
    const LexedLine& l = lexed_[i];
    if (l.error) {
      ++statements_;
      ++errors_;
      diags_.push_back(*l.error);
      continue;
    }
    if (l.tokens.size() <= 1) continue;  // blank or comment
    ++statements_;
    if (check_brackets(l.tokens)) parse_line(l.tokens);
  }
  line_ = 0;
  finish();
  sort_diagnostics(diags_);
  ParseResult r;
  r.c = std::move(c_);
  r.diags = std::move(diags_);
  return r;
}

// Parentheses and brackets never nest in the language: report the first stray or unclosed one.
bool Parser::check_brackets(const std::vector<Token>& toks) {
  const Token* open = nullptr;
  for (const Token& t : toks) {
    const bool opens = t.kind == TokKind::LParen || t.kind == TokKind::LBracket;
    const bool closes = t.kind == TokKind::RParen || t.kind == TokKind::RBracket;
    if (opens && open) {
      error(t, fmt::format("unexpected '{}' inside '{}' (column {}): brackets do not nest", t.text,
                           open->text, open->col));
      return false;
    }
    if (opens) open = &t;
    if (closes) {
      const TokKind want = t.kind == TokKind::RParen ? TokKind::LParen : TokKind::LBracket;
      if (!open || open->kind != want) {
        error(t, fmt::format("unmatched '{}'", t.text));
        return false;
      }
      open = nullptr;
    }
  }
  if (open) {
    error(*open, fmt::format("'{}' is never closed", open->text));
    return false;
  }
  return true;
}

void Parser::parse_line(const std::vector<Token>& toks) {
  Cursor c(toks, 0, toks.size() - 1);
  const Token& t0 = c.peek();
  if (t0.kind != TokKind::Ident) {
    error(t0,
          fmt::format("expected a declaration, a command or a property, found {}", describe(t0)));
    return;
  }
  if (c.peek(1).kind == TokKind::Colon || api_from_name(t0.text)) {
    parse_command(c);
  } else if (t0.text == "on") {
    parse_on(c);
  } else if (contains(kDeclarations, t0.text)) {
    in_block_ = false;
    parse_declaration(c);
  } else if (contains(kVerbs, t0.text)) {
    in_block_ = false;
    parse_property(c);
  } else {
    unknown_statement(t0);
  }
}

void Parser::unknown_statement(const Token& t) {
  std::vector<std::string_view> all = api_names();
  all.insert(all.end(), std::begin(kDeclarations), std::end(kDeclarations));
  all.insert(all.end(), std::begin(kVerbs), std::end(kVerbs));
  all.push_back("on");
  const std::optional<std::string> best = closest(t.text, all);
  const bool command = best ? api_from_name(*best).has_value() : in_block_;
  std::string msg =
      fmt::format("unknown {} {}", command ? "command" : "keyword or command", quote(t.text));
  if (best) msg += fmt::format("; did you mean '{}'?", *best);
  error(t, std::move(msg));
}

void Parser::report(model::Severity s, uint32_t col, uint32_t len, std::string msg) {
  if (s == model::Severity::Error) ++errors_;
  diags_.push_back(Diagnostic{s, {line_, col}, std::move(msg), std::max<uint32_t>(len, 1)});
}

bool Parser::expect_end(const Cursor& c, std::string_view what) {
  if (c.at_end()) return true;
  error(c.peek(), fmt::format("unexpected {} after {}", describe(c.peek()), what));
  return false;
}

bool Parser::declare(const Token& name, NameKind kind, uint32_t index, bool valid, uint32_t queue) {
  auto [it, fresh] = names_.try_emplace(name.text, Symbol{kind, line_, valid, index, queue});
  if (!fresh) {
    error(name, fmt::format("duplicate name {}: previous declaration at line {}", quote(name.text),
                            it->second.line));
    return false;
  }
  return true;
}

const Symbol* Parser::lookup(const Token& name, NameKind want) {
  if (name.kind != TokKind::Ident) {
    error(name, fmt::format("expected a {} name, found {}", to_string(want), describe(name)));
    return nullptr;
  }
  if (auto it = names_.find(name.text); it != names_.end()) {
    const Symbol& s = it->second;
    if (s.kind != want) {
      error(name, fmt::format("{} is a {}, not a {} (declared at line {})", quote(name.text),
                              to_string(s.kind), to_string(want), s.line));
      return nullptr;
    }
    return s.valid ? &s : nullptr;
  }
  if (auto it = decl_line_.find(name.text); it != decl_line_.end()) {
    if (it->second > line_) {
      error(name, fmt::format("{} is used before its declaration at line {}", quote(name.text),
                              it->second));
    }
    return nullptr;  // else its declaration line has an error of its own
  }
  std::vector<std::string_view> same_kind;
  for (const auto& [n, s] : names_) {
    if (s.kind == want) same_kind.push_back(n);
  }
  std::sort(same_kind.begin(), same_kind.end());
  std::string msg = fmt::format("undeclared {} {}", to_string(want), quote(name.text));
  if (std::optional<std::string> best = closest(name.text, same_kind)) {
    msg += fmt::format("; did you mean '{}'?", *best);
  }
  error(name, std::move(msg));
  return nullptr;
}

std::optional<uint32_t> Parser::resource(const Token& name) {
  const Symbol* s = lookup(name, NameKind::Resource);
  if (!s) return std::nullopt;
  return s->index;
}

const model::Queue* Parser::current_queue() const {
  return block_queue_ ? &c_.queues[*block_queue_] : nullptr;
}

}  // namespace detail

bool ParseResult::has_errors() const {
  return errors() > 0;
}
bool ParseResult::unreadable() const {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.unreadable; });
}
bool ParseResult::rejected() const {
  return std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.rejected; });
}
size_t ParseResult::errors() const {
  return count(diags, model::Severity::Error);
}
size_t ParseResult::warnings() const {
  return count(diags, model::Severity::Warning);
}

ParseResult parse_case(std::string_view file_name, std::string_view text) {
  return detail::Parser(file_name, text).run();
}

ParseResult parse_case_file(const std::string& path, uint64_t max_bytes) {
  SourceText src = read_source(path, max_bytes);
  if (src.problem == FileProblem::None) return parse_case(display_path(path), src.text);
  ParseResult r;
  r.c.file = display_path(path);
  Diagnostic d{model::Severity::Error, {}, std::move(src.message), 1, true};
  d.rejected = src.problem == FileProblem::Rejected;
  r.diags.push_back(std::move(d));
  return r;
}

std::string render_all(const ParseResult& r) {
  std::string out;
  for (const Diagnostic& d : r.diags) out += render(d, r.c.file, r.c.lines);
  return out;
}

}  // namespace syncproof::lang
