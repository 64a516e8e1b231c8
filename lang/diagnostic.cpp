#include "lang/diagnostic.h"

#include <algorithm>

#include "lang/utf8.h"

namespace syncproof::lang {

namespace {

constexpr size_t kMaxShown = 160;    // bytes of a long source line shown around the column
constexpr size_t kShownBefore = 80;  // of which before the column

// One display character per source byte position: a valid UTF-8 sequence is one character,
// printed as is; any other non-printable byte is '?'. `width[i]` is 1 at the first byte of a
// character and 0 at its continuation bytes, so a column maps to a display offset.
struct Display {
  std::string text;
  std::vector<uint8_t> width;
  std::vector<char> blank;  // what to print under each character in the caret line
};

Display display(std::string_view s) {
  Display d;
  d.width.assign(s.size(), 0);
  d.blank.assign(s.size(), ' ');
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\t') {
      d.text += '\t';
      d.width[i] = 1;
      d.blank[i] = '\t';
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      d.text += '?';
      d.width[i++] = 1;
    } else if (c < 0x80) {
      d.text += static_cast<char>(c);
      d.width[i++] = 1;
    } else if (size_t n = utf8_sequence_length(s.substr(i)); n > 0) {
      d.text.append(s.substr(i, n));
      d.width[i] = 1;
      i += n;
    } else {
      d.text += '?';
      d.width[i++] = 1;
    }
  }
  return d;
}

}  // namespace

std::string_view to_string(model::Severity s) {
  switch (s) {
    case model::Severity::Error:
      return "error";
    case model::Severity::Warning:
      return "warning";
  }
  return "error";
}

std::string render_header(const Diagnostic& d, std::string_view file) {
  std::string out(file);
  if (d.loc.line > 0) {
    out +=
        ':' + std::to_string(d.loc.line) + ':' + std::to_string(std::max<uint32_t>(d.loc.col, 1));
  }
  out += ": ";
  out += to_string(d.severity);
  out += ": ";
  out += d.message;
  return out;
}

std::string render(const Diagnostic& d, std::string_view file, std::span<const std::string> lines) {
  std::string out = render_header(d, file) + "\n";
  if (d.loc.line == 0 || d.loc.line > lines.size()) return out;
  const std::string& line = lines[d.loc.line - 1];
  size_t col0 = std::min<size_t>(std::max<uint32_t>(d.loc.col, 1) - 1, line.size());
  size_t begin = 0, end = line.size();
  if (line.size() > kMaxShown) {
    begin = col0 > kShownBefore ? col0 - kShownBefore : 0;
    end = std::min(line.size(), begin + kMaxShown);
  }
  const Display shown = display(std::string_view(line).substr(begin, end - begin));
  out += (begin > 0 ? "..." : "") + shown.text + (end < line.size() ? "..." : "") + "\n";
  std::string caret(begin > 0 ? 3 : 0, ' ');
  for (size_t i = 0; i < col0 - begin && i < shown.width.size(); ++i) {
    if (shown.width[i]) caret += shown.blank[i];
  }
  caret += '^';
  const size_t last = std::min<size_t>(col0 + std::max<uint32_t>(d.length, 1), end);
  for (size_t i = col0 + 1; i < last; ++i) {
    if (shown.width[i - begin]) caret += '~';
  }
  out += caret + "\n";
  return out;
}

void sort_diagnostics(std::vector<Diagnostic>& diags) {
  std::stable_sort(diags.begin(), diags.end(), [](const Diagnostic& a, const Diagnostic& b) {
    if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
    return a.loc.col < b.loc.col;
  });
}

size_t count(std::span<const Diagnostic> diags, model::Severity s) {
  return static_cast<size_t>(std::count_if(diags.begin(), diags.end(),
                                           [s](const Diagnostic& d) { return d.severity == s; }));
}

std::string quote(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  if (text.size() <= kMax) {
    out += text;
  } else {
    size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    out += text.substr(0, cut);
    out += "...";
  }
  return out + "'";
}

}  // namespace syncproof::lang
