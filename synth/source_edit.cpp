#include "synth/source_edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "model/flags.h"
#include "synth/flag_ops.h"
#include "synth/search.h"

namespace syncproof::synth {

using namespace model;

namespace {

struct Span {
  size_t begin, end;  // [begin, end) in the line, trimmed
};

// The arguments of the call whose name starts at column `col` (1-based), and the position of
// its closing parenthesis.
std::optional<std::vector<Span>> call_args(const std::string& line, uint32_t col, size_t* close) {
  size_t i = col ? col - 1 : 0;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
    ++i;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i >= line.size() || line[i] != '(') return std::nullopt;
  std::vector<Span> out;
  size_t start = ++i;
  for (; i < line.size(); ++i) {
    const char ch = line[i];
    if (ch == '#' || ch == '(') return std::nullopt;
    if (ch == ',' || ch == ')') {
      size_t b = start, e = i;
      while (b < e && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
      while (e > b && std::isspace(static_cast<unsigned char>(line[e - 1]))) --e;
      out.push_back({b, e});
      start = i + 1;
      if (ch == ')') {
        *close = i;
        return out;
      }
    }
  }
  return std::nullopt;
}

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> tokens(std::string_view word) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= word.size()) {
    size_t j = word.find('|', i);
    if (j == std::string_view::npos) j = word.size();
    out.push_back(trim(word.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

// The value of one item of a flag word: a name of the family or a number.
std::optional<uint32_t> item_value(const std::string& t, FlagFamily f) {
  if (const FlagDef* d = find_flag(f, t); d && d->value) return *d->value;
  uint64_t v = 0;
  const bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  const char* b = t.data() + (hex ? 2 : 0);
  auto [p, ec] = std::from_chars(b, t.data() + t.size(), v, hex ? 16 : 10);
  if (ec == std::errc() && p == t.data() + t.size()) return static_cast<uint32_t>(v);
  return std::nullopt;
}

std::optional<ControlFlag> control_item(const std::string& t) {
  if (const FlagDef* d = find_flag(FlagFamily::SyncControl, t)) return control_flag_from_def(*d);
  return std::nullopt;
}

bool empty_item(const std::string& t) {
  return t == "0" || t == "NONE" || t == "D3D12XBOX_SYNC_FLAG_NONE" ||
         t == "D3D12XBOX_SYNC_CONTROL_FLAG_NONE";
}

std::string join_items(const std::vector<std::string>& items) {
  std::vector<std::string> kept;
  for (const auto& s : items)
    if (!s.empty() && !empty_item(s)) kept.push_back(s);
  if (kept.empty()) return "";
  return fmt::format("{}", fmt::join(kept, " | "));
}

// The SyncFlags word `text` with `add` and without `remove`.
std::string rewrite_sync(const std::string& text, uint32_t add, uint32_t remove, bool prefix) {
  std::vector<std::string> items;
  for (const std::string& t : tokens(text)) {
    if (empty_item(t)) continue;
    const auto v = item_value(t, FlagFamily::Sync);
    if (!v || !(*v & remove)) {
      items.push_back(t);
      continue;
    }
    if (uint32_t rest = *v & ~remove) items.push_back(sync_word_text(rest, prefix));
  }
  if (add) items.push_back(sync_word_text(add, prefix));
  std::string out = join_items(items);
  return out.empty() ? (prefix ? "D3D12XBOX_SYNC_FLAG_NONE" : "NONE") : out;
}

std::string rewrite_control(const std::string& text, ControlFlags add, ControlFlags remove,
                            bool prefix) {
  std::vector<std::string> items;
  for (const std::string& t : tokens(text)) {
    if (empty_item(t)) continue;
    const auto f = control_item(t);
    if (f && remove.has(*f)) continue;
    items.push_back(t);
  }
  if (add.bits) items.push_back(control_word_text(add, prefix));
  std::string out = join_items(items);
  return out.empty() ? (prefix ? "D3D12XBOX_SYNC_CONTROL_FLAG_NONE" : "NONE") : out;
}

bool file_uses_prefix(const std::vector<std::string>& lines) {
  for (const std::string& l : lines) {
    const size_t hash = l.find('#');
    const size_t at = l.find("D3D12XBOX_SYNC_FLAG_");
    if (at != std::string::npos && (hash == std::string::npos || at < hash)) return true;
  }
  return false;
}

std::string indent_of(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.substr(0, i);
}

// The end of a line's code: before a comment, trailing blanks trimmed.
size_t code_end(const std::string& line) {
  bool str = false;
  size_t end = line.size();
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '"' && (i == 0 || line[i - 1] != '\\')) str = !str;
    if (!str && line[i] == '#') {
      end = i;
      break;
    }
  }
  while (end > 0 && std::isspace(static_cast<unsigned char>(line[end - 1]))) --end;
  return end;
}

}  // namespace

SourceText split_source(const std::string& text) {
  SourceText s;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find('\n', i);
    if (j == std::string::npos) {
      s.lines.push_back(text.substr(i));
      s.final_newline = false;
      return s;
    }
    s.lines.push_back(text.substr(i, j - i));
    i = j + 1;
  }
  return s;
}

std::string join_source(const SourceText& s) {
  std::string out;
  for (size_t i = 0; i < s.lines.size(); ++i) {
    out += s.lines[i];
    if (i + 1 < s.lines.size() || s.final_newline) out += '\n';
  }
  return out;
}

std::optional<std::vector<properties::SourceEdit>> source_edits(
    const Case& orig, const std::vector<std::string>& lines, const std::vector<Change>& changes,
    std::string* error) {
  std::vector<properties::SourceEdit> out;
  const bool file_prefix = file_uses_prefix(lines);
  auto line_of = [&](uint32_t n) -> const std::string* {
    return n >= 1 && n <= lines.size() ? &lines[n - 1] : nullptr;
  };
  for (const Change& ch : changes) {
    if (ch.kind == Change::Kind::Expect) {
      const Property& p = orig.properties[ch.property];
      const std::string* l = line_of(p.loc.line);
      if (!l || p.loc.col == 0) {
        *error = fmt::format("cannot find the property of line {} in the file", p.loc.line);
        return std::nullopt;
      }
      const size_t b = p.loc.col - 1, e = code_end(*l);
      out.push_back({p.loc.line, p.loc.col, static_cast<unsigned>(e > b ? e - b : 0),
                     "prove " + property_words(orig, p)});
      continue;
    }
    const auto& cmds = orig.queues[ch.queue].commands;
    if (ch.kind == Change::Kind::Insert) {
      const bool at_end = ch.cmd >= cmds.size();
      if (cmds.empty()) {
        *error = fmt::format("queue {} has no command to place a new one by",
                             orig.queues[ch.queue].name);
        return std::nullopt;
      }
      const Command& near = at_end ? cmds.back() : cmds[ch.cmd];
      const std::string* l = line_of(near.loc.line);
      if (!l) {
        *error = fmt::format("line {} is not in the file", near.loc.line);
        return std::nullopt;
      }
      const std::string text =
          indent_of(*l) + command_source(orig, ch.inserted, file_prefix) + "\n";
      out.push_back({at_end ? near.loc.line + 1 : near.loc.line, 1, 0, text});
      continue;
    }
    const Command& cmd = cmds[ch.cmd];
    const std::string* l = line_of(cmd.loc.line);
    if (!l) {
      *error = fmt::format("line {} is not in the file", cmd.loc.line);
      return std::nullopt;
    }
    if (ch.kind == Change::Kind::Remove) {
      out.push_back({cmd.loc.line, 1, static_cast<unsigned>(l->size() + 1), ""});
      continue;
    }
    size_t close = 0;
    const auto args = call_args(*l, cmd.loc.col, &close);
    const auto car = carrier(cmd);
    if (!args || !car) {
      *error =
          fmt::format("cannot find the arguments of the command at {}:{}", orig.file, cmd.loc.line);
      return std::nullopt;
    }
    const bool sync = car->api == SyncApi::SyncTopOfPipeX || car->api == SyncApi::SyncBottomOfPipeX;
    const size_t fi = sync ? 0 : 2, ci = sync ? 1 : 3;
    auto replace = [&](const Span& s, const std::string& text) {
      out.push_back({cmd.loc.line, static_cast<unsigned>(s.begin + 1),
                     static_cast<unsigned>(s.end - s.begin), text});
    };
    if (ch.add || ch.remove) {
      if (fi < args->size()) {
        const Span s = (*args)[fi];
        const std::string text = l->substr(s.begin, s.end - s.begin);
        const bool prefix =
            text.find("D3D12XBOX_") != std::string::npos || (empty_item(text) && file_prefix);
        replace(s, rewrite_sync(text, ch.add, ch.remove, prefix));
      } else if (ch.add) {  // Signal2X / WaitX without SyncFlags
        out.push_back({cmd.loc.line, static_cast<unsigned>(close + 1), 0,
                       ", " + sync_word_text(ch.add, file_prefix)});
      }
    }
    if (ch.add_control.bits || ch.remove_control.bits) {
      if (ci >= args->size()) {
        *error = fmt::format("{} at {}:{} takes no ControlFlags", to_string(car->api), orig.file,
                             cmd.loc.line);
        return std::nullopt;
      }
      const Span s = (*args)[ci];
      const std::string text = l->substr(s.begin, s.end - s.begin);
      const bool prefix =
          text.find("D3D12XBOX_") != std::string::npos || (empty_item(text) && file_prefix);
      replace(s, rewrite_control(text, ch.add_control, ch.remove_control, prefix));
    }
  }
  return out;
}

std::vector<std::string> apply_source_edits(const std::vector<std::string>& lines,
                                            const std::vector<properties::SourceEdit>& edits) {
  std::map<unsigned, std::vector<const properties::SourceEdit*>> by_line;
  for (const auto& e : edits) by_line[e.line].push_back(&e);
  std::vector<std::string> out;
  for (unsigned n = 1; n <= lines.size() + 1; ++n) {
    std::string line = n <= lines.size() ? lines[n - 1] : std::string();
    bool drop = n > lines.size();
    std::vector<const properties::SourceEdit*> inline_edits;
    for (const auto* e : by_line[n]) {
      if (e->col == 1 && e->len == 0 && !e->text.empty() && e->text.back() == '\n') {
        out.push_back(e->text.substr(0, e->text.size() - 1));  // a new line before this one
      } else if (n <= lines.size() && e->col == 1 && e->len == line.size() + 1) {
        drop = true;
      } else {
        inline_edits.push_back(e);
      }
    }
    std::stable_sort(inline_edits.begin(), inline_edits.end(),
                     [](const auto* a, const auto* b) { return a->col > b->col; });
    for (const auto* e : inline_edits) {
      const size_t at = std::min<size_t>(e->col - 1, line.size());
      line.replace(at, std::min<size_t>(e->len, line.size() - at), e->text);
    }
    if (!drop) out.push_back(line);
  }
  return out;
}

std::string unified_diff(const std::string& path, const std::vector<std::string>& a,
                         const std::vector<std::string>& b, size_t context) {
  const size_t n = a.size(), m = b.size();
  // Longest common subsequence, then the edit script.
  std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  struct Op {
    char kind;  // ' ', '-', '+'
    size_t i, j;
  };
  std::vector<Op> ops;
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j])
      ops.push_back({' ', i++, j++});
    else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]))
      ops.push_back({'-', i++, j});  // removals before additions, as diff -u prints them
    else
      ops.push_back({'+', i, j++});
  }
  std::string out;
  size_t k = 0;
  while (k < ops.size()) {
    while (k < ops.size() && ops[k].kind == ' ') ++k;
    if (k == ops.size()) break;
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is at most 2*context lines of equal text from the previous one.
    size_t start = k >= context ? k - context : 0;
    size_t end = k, equal = 0;
    for (size_t x = k; x < ops.size(); ++x) {
      if (ops[x].kind == ' ') {
        if (++equal > 2 * context) break;
      } else {
        equal = 0;
        end = x;
      }
    }
    end = std::min(ops.size(), end + 1 + context);
    size_t a0 = ops[start].i, b0 = ops[start].j, na = 0, nb = 0;
    for (size_t x = start; x < end; ++x) {
      na += ops[x].kind != '+';
      nb += ops[x].kind != '-';
    }
    if (out.empty()) out = fmt::format("--- a/{}\n+++ b/{}\n", path, path);
    out += fmt::format("@@ -{},{} +{},{} @@\n", na ? a0 + 1 : a0, na, nb ? b0 + 1 : b0, nb);
    for (size_t x = start; x < end; ++x) {
      const Op& o = ops[x];
      out += o.kind;
      out += o.kind == '+' ? b[o.j] : a[o.i];
      out += '\n';
    }
    k = end;
  }
  return out;
}

}  // namespace syncproof::synth
