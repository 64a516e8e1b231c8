#include "tools/line_breaks.h"

#include "synth/source_edit.h"

namespace syncproof::cli {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

}  // namespace

FileText split_conventions(const std::string& raw) {
  FileText f;
  std::string_view s = raw;
  if (s.starts_with(kBom)) {
    f.bom = true;
    s.remove_prefix(kBom.size());
  }
  for (size_t i = 0; i < s.size();) {
    size_t j = s.find('\n', i);
    const bool last = j == std::string_view::npos;
    if (last) j = s.size();
    std::string_view line = s.substr(i, j - i);
    const bool cr = line.ends_with('\r');
    if (cr) line.remove_suffix(1);
    f.text.append(line);
    if (!last) f.text += '\n';
    f.cr.push_back(cr);
    i = j + 1;
  }
  return f;
}

std::string apply_keeping_conventions(const FileText& f,
                                      const std::vector<properties::SourceEdit>& edits) {
  synth::SourceText src = synth::split_source(f.text);
  // The raw lines: each with its own CR back, so it stays where it was.
  for (size_t i = 0; i < src.lines.size() && i < f.cr.size(); ++i)
    if (f.cr[i]) src.lines[i] += '\r';
  const auto cr_of = [&](unsigned line) {
    if (f.cr.empty()) return false;
    return line >= 1 && line <= f.cr.size() ? f.cr[line - 1] : f.cr.back();
  };
  std::vector<properties::SourceEdit> raw = edits;
  for (properties::SourceEdit& e : raw) {
    const bool insertion = e.col == 1 && e.len == 0 && !e.text.empty() && e.text.back() == '\n';
    if (insertion && cr_of(e.line)) {
      std::string text;
      for (char ch : e.text) text += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
      e.text = std::move(text);
    } else if (e.col == 1 && e.line >= 1 && e.line <= src.lines.size() && e.line <= f.cr.size() &&
               f.cr[e.line - 1] && e.len == src.lines[e.line - 1].size()) {
      ++e.len;  // the whole line with its break: its CR goes too
    }
  }
  src.lines = synth::apply_source_edits(src.lines, raw);
  return std::string(f.bom ? kBom : "") + synth::join_source(src);
}

}  // namespace syncproof::cli
