// Recorder::Verify: the recording's case text linted and checked exactly like a case file, then
// every line number mapped back to the call that recorded it.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "crosscheck/fix_engines.h"
#include "encode/check.h"
#include "exec/check.h"
#include "model/assumptions.h"
#include "properties/result.h"
#include "record/recorded.h"
#include "synth/attach_fixes.h"

namespace syncproof::record {

namespace {

const Origin& origin_of(const CaseText& t, uint32_t line) {
  static const Origin none;
  return line >= 1 && line <= t.origins.size() ? t.origins[line - 1] : none;
}

std::string relocate(const CaseText& t, const std::string& text);

Diagnostic diagnostic(const CaseText& t, const lang::Diagnostic& d) {
  const Origin& o = origin_of(t, d.loc.line);
  Diagnostic out{std::string(lang::to_string(d.severity)),
                 o.file,
                 o.line,
                 o.column,
                 d.loc.line,
                 relocate(t, d.message)};
  if (o.file.empty()) out.file = "recording.sync", out.line = d.loc.line, out.column = d.loc.col;
  return out;
}

std::string place(const Origin& o) {
  return o.column ? fmt::format("{}:{}:{}", o.file, o.line, o.column)
                  : fmt::format("{}:{}", o.file, o.line);
}

// The explanation's places in the case text (`recording.sync:N`, `line N`) as the calls that
// recorded those lines, where a call is known.
std::string relocate(const CaseText& t, const std::string& text) {
  static const std::regex re(R"((recording\.sync:|line )([0-9]+))");
  std::string out;
  auto it = std::sregex_iterator(text.begin(), text.end(), re);
  size_t last = 0;
  for (; it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    out += text.substr(last, m.position(0) - last);
    const Origin& o = origin_of(t, static_cast<uint32_t>(std::stoul(m[2].str())));
    out += o.file.empty() ? m[0].str() : place(o);
    last = m.position(0) + m.length(0);
  }
  return out + text.substr(last);
}

std::string verdict_detail(const PropertyResult& p) {
  if (p.verdict == "proved")
    return p.assumptions.empty() ? "" : fmt::format(" [{}]", fmt::join(p.assumptions, ", "));
  return p.reason.empty() ? "" : ": " + p.reason;
}

}  // namespace

std::string Diagnostic::text() const {
  return fmt::format("{}:{}:{}: {}: {}", file, line, column, severity, message);
}

bool Result::ok() const {
  if (has_errors) return false;
  for (const PropertyResult& p : properties)
    if (!p.as_expected) return false;
  return true;
}

std::string Result::report() const {
  std::string out;
  for (const Diagnostic& d : diagnostics) out += d.text() + "\n";
  for (const PropertyResult& p : properties) {
    out += fmt::format("{}: {}{}{}\n", p.property, p.verdict, verdict_detail(p),
                       p.as_expected ? "" : "  <-- NOT AS EXPECTED");
    if (p.verdict != "violated") continue;
    size_t n = 0;
    for (const TraceStep& s : p.trace)
      out += fmt::format(
          "    {:>3}. t={:<3} {:<8} {:<28} {:<32} {}\n", ++n, s.time, s.queue,
          s.file.empty() ? fmt::format("line {}", s.case_line) : place({s.file, s.line, s.column}),
          s.command, s.what);
    out += fmt::format("    why: {}\n", p.why);
    if (!p.missing.empty()) out += fmt::format("    missing: {}\n", fmt::join(p.missing, " or "));
    for (const FixEdit& e : p.fix) out += fmt::format("    fix: {}\n", e.text);
    if (!p.fix_note.empty()) out += fmt::format("    fix: none ({})\n", p.fix_note);
  }
  return out;
}

Result Recorder::Verify(const Options& o) const {
  const record::CaseText t = case_text(*this);
  Result res;
  res.diagnostics = t.problems;
  lang::ParseResult pr = lang::parse_case("recording.sync", t.text());
  // A call that recorded two accesses of one resource (a UAV binding: read and write) can get
  // the same diagnostic twice at its line: once is enough.
  for (const lang::Diagnostic& d : pr.diags) {
    Diagnostic n = diagnostic(t, d);
    if (std::none_of(res.diagnostics.begin(), res.diagnostics.end(),
                     [&](const Diagnostic& x) { return x.text() == n.text(); }))
      res.diagnostics.push_back(std::move(n));
  }
  encode::CheckOptions opt;
  opt.timeout_ms = o.timeout_ms;
  if (!o.profile.empty()) {
    opt.profile = model::find_profile(o.profile);
    if (!opt.profile)
      res.diagnostics.push_back(
          {"error", "", 0, 0, 0, fmt::format("unknown profile '{}' (strict, rdna2)", o.profile)});
  }
  for (const std::string& a : o.assume) {
    const bool on = a.empty() || a[0] != '-';
    const std::string id = !a.empty() && (a[0] == '+' || a[0] == '-') ? a.substr(1) : a;
    if (model::find_assumption(id))
      opt.assume.push_back({on, id});
    else
      res.diagnostics.push_back({"error", "", 0, 0, 0, fmt::format("unknown assumption '{}'", id)});
  }
  for (const Diagnostic& d : res.diagnostics) res.has_errors |= d.severity == "error";
  if (res.has_errors) return res;
  properties::CaseResult cr = encode::check_case(pr.c, opt);
  // As `syncproof check` gives them (docs/FIX.md): under a violated `prove` the cheapest fix,
  // confirmed by both engines (their verdicts, and each counterexample replayed on the other
  // engine), and under every other violation `missing:` re-checked.
  exec::ExecOptions ex;
  ex.profile = opt.profile;
  ex.assume = opt.assume;
  ex.timeout_ms = opt.timeout_ms;
  synth::attach_fixes(pr.c, cr, o.fix ? synth::FixPolicy::Unexpected : synth::FixPolicy::Off,
                      crosscheck::fix_options(opt, ex, model::CostModel{}, o.fix_budget));
  for (const properties::PropertyResult& r : cr.results) {
    const model::Property& p = pr.c.properties[r.property];
    PropertyResult out;
    const char* verb = p.expect == model::Expectation::Holds      ? "prove"
                       : p.expect == model::Expectation::Violated ? "refute"
                                                                  : "check";
    out.property = fmt::format(
        "{} {}", verb, t.lines[p.loc.line - 1].substr(t.lines[p.loc.line - 1].find(' ') + 1));
    out.rule = properties::property_def(p.kind).id;
    out.verdict = properties::verdict_name(r.verdict);
    out.as_expected = r.as_expected;
    if (const auto* pv = std::get_if<properties::Proved>(&r.verdict)) {
      out.assumptions = pv->assumptions;
    } else if (const auto* v = std::get_if<properties::Violated>(&r.verdict)) {
      for (const properties::TraceLine& l : v->trace.lines) {
        const Origin& at = origin_of(t, l.line);
        out.trace.push_back(
            {l.time, l.queue, l.line, at.file, at.line, l.command, l.what, at.column});
      }
      out.why = relocate(t, v->trace.why);
      for (const std::string& b : v->trace.blamed) out.missing.push_back(relocate(t, b));
      if (v->trace.fix) {
        static const std::regex at(R"(^recording\.sync:([0-9]+):)");
        for (const std::string& e : v->trace.fix->edits) {
          std::smatch m;
          const Origin& o = std::regex_search(e, m, at)
                                ? origin_of(t, static_cast<uint32_t>(std::stoul(m[1].str())))
                                : origin_of(t, 0);
          out.fix.push_back({o.file, o.line, o.column, relocate(t, e)});
        }
        if (v->trace.fix->edits.empty()) out.fix_note = relocate(t, v->trace.fix->note);
      }
    } else if (const auto* u = std::get_if<properties::Unknown>(&r.verdict)) {
      out.reason = u->reason;
    } else if (const auto* e = std::get_if<properties::Error>(&r.verdict)) {
      out.reason = e->message;
    }
    res.properties.push_back(std::move(out));
  }
  return res;
}

}  // namespace syncproof::record
