#include "lang/expect.h"

#include <fmt/format.h>

#include <functional>
#include <map>

namespace syncproof::lang {

namespace {

struct Marker {
  size_t at;    // position of the '#'
  size_t body;  // first byte after "expect:" / "expect-file:"
  bool file_level;
};

// Every `#` followed by optional blanks and `expect:` or `expect-file:`. The search is textual
// (not string-aware) so that a marker after an unterminated string is still found.
std::vector<Marker> find_markers(std::string_view line) {
  std::vector<Marker> out;
  for (size_t p = line.find('#'); p != std::string_view::npos; p = line.find('#', p + 1)) {
    size_t q = p + 1;
    while (q < line.size() && (line[q] == ' ' || line[q] == '\t')) ++q;
    const std::string_view rest = line.substr(q);
    if (rest.starts_with("expect:")) out.push_back({p, q + 7, false});
    if (rest.starts_with("expect-file:")) out.push_back({p, q + 12, true});
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool matches(const ExpectedDiag& e, const Diagnostic& d) {
  return e.severity == d.severity && d.message.find(e.text) != std::string::npos;
}

// Maximum bipartite matching (Kuhn) between the markers and the diagnostics of one line, so
// that a loose TEXT cannot steal the only diagnostic a more precise marker could match.
void match_group(const std::vector<const ExpectedDiag*>& exp,
                 const std::vector<const Diagnostic*>& got, ExpectationReport& r) {
  std::vector<int> owner(got.size(), -1);  // diagnostic -> marker
  std::function<bool(size_t, std::vector<bool>&)> augment = [&](size_t e, std::vector<bool>& seen) {
    for (size_t d = 0; d < got.size(); ++d) {
      if (seen[d] || !matches(*exp[e], *got[d])) continue;
      seen[d] = true;
      if (owner[d] < 0 || augment(static_cast<size_t>(owner[d]), seen)) {
        owner[d] = static_cast<int>(e);
        return true;
      }
    }
    return false;
  };
  std::vector<bool> matched(exp.size(), false);
  for (size_t e = 0; e < exp.size(); ++e) {
    std::vector<bool> seen(got.size(), false);
    matched[e] = augment(e, seen);
  }
  for (size_t e = 0; e < exp.size(); ++e) {
    if (!matched[e]) r.missing.push_back(*exp[e]);
  }
  for (size_t d = 0; d < got.size(); ++d) {
    if (owner[d] < 0) r.unexpected.push_back(*got[d]);
  }
}

}  // namespace

Expectations read_expectations(std::span<const std::string> lines) {
  Expectations out;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::vector<Marker> markers = find_markers(line);
    for (size_t m = 0; m < markers.size(); ++m) {
      const size_t end = m + 1 < markers.size() ? markers[m + 1].at : line.size();
      std::string_view body = trim(line.substr(markers[m].body, end - markers[m].body));
      ExpectedDiag e;
      e.line = markers[m].file_level ? 0 : static_cast<uint32_t>(i + 1);
      e.col = static_cast<uint32_t>(markers[m].at + 1);
      const size_t sp = body.find_first_of(" \t");
      const std::string_view sev = body.substr(0, sp);
      const std::string_view text = sp == std::string_view::npos ? "" : trim(body.substr(sp));
      if ((sev != "error" && sev != "warning") || text.empty()) {
        out.malformed.push_back(Diagnostic{
            model::Severity::Error,
            {static_cast<uint32_t>(i + 1), e.col},
            fmt::format("malformed expectation: write '# {}: error TEXT' or '# {}: warning TEXT'",
                        markers[m].file_level ? "expect-file" : "expect",
                        markers[m].file_level ? "expect-file" : "expect"),
            1});
        continue;
      }
      e.severity = sev == "error" ? model::Severity::Error : model::Severity::Warning;
      e.text = std::string(text);
      out.expected.push_back(std::move(e));
    }
  }
  return out;
}

ExpectationReport compare_expectations(std::span<const std::string> lines,
                                       std::span<const Diagnostic> diags) {
  Expectations ex = read_expectations(lines);
  ExpectationReport r;
  r.malformed = std::move(ex.malformed);
  // Group by line; a diagnostic whose line is not in the file goes with `# expect-file:`.
  std::map<uint32_t, std::pair<std::vector<const ExpectedDiag*>, std::vector<const Diagnostic*>>>
      by_line;
  for (const ExpectedDiag& e : ex.expected) by_line[e.line].first.push_back(&e);
  for (const Diagnostic& d : diags) {
    const uint32_t line = d.loc.line <= lines.size() ? d.loc.line : 0;
    by_line[line].second.push_back(&d);
  }
  for (const auto& [line, group] : by_line) match_group(group.first, group.second, r);
  return r;
}

std::string render_report(const ExpectationReport& r, std::string_view file) {
  std::string out;
  for (const Diagnostic& d : r.malformed) out += render_header(d, file) + "\n";
  for (const ExpectedDiag& e : r.missing) {
    out += e.line ? fmt::format("{}:{}: ", file, e.line) : fmt::format("{}: ", file);
    out += fmt::format("missing {} containing '{}'\n", to_string(e.severity), e.text);
  }
  for (const Diagnostic& d : r.unexpected) {
    out += d.loc.line ? fmt::format("{}:{}:{}: ", file, d.loc.line, d.loc.col)
                      : fmt::format("{}: ", file);
    out += fmt::format("unexpected {}: {}\n", to_string(d.severity), d.message);
  }
  return out;
}

}  // namespace syncproof::lang
