// Recorder::Verify: the recording's case text linted and checked exactly like a case file, then
// every line number mapped back to the call that recorded it.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "encode/check.h"
#include "exec/check.h"
#include "model/assumptions.h"
#include "properties/obligation.h"
#include "properties/result.h"
#include "record/recorded.h"
#include "synth/fix.h"
#include "synth/missing.h"
#include "synth/text.h"

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

// The fix under a violated `prove` (the cheapest edits under which it is proved, proved by both
// engines: synth/fix.h) and, under every other violation, `missing:` re-checked (synth/missing.h),
// as `syncproof check` gives them (tools/synth_check.cpp).
synth::FixOptions fix_options(const encode::CheckOptions& smt, size_t budget) {
  synth::FixOptions f;
  f.budget = budget;
  f.search = [smt](const model::Case& c) { return encode::check_case(c, smt); };
  exec::ExecOptions ex;
  ex.profile = smt.profile;
  ex.assume = smt.assume;
  ex.timeout_ms = smt.timeout_ms;
  f.verify = [smt, ex](const model::Case& c) {
    synth::Verification v;
    v.smt = encode::check_case(c, smt);
    v.exec = exec::check_case(c, ex);
    for (size_t i = 0; i < v.smt.results.size() && i < v.exec.results.size(); ++i)
      if (v.smt.results[i].verdict.index() != v.exec.results[i].verdict.index())
        v.problems.push_back(fmt::format("the engines disagree on the property at line {}",
                                         c.properties[v.smt.results[i].property].loc.line));
    return v;
  };
  return f;
}

void attach_fixes(const model::Case& c, const std::string& source, properties::CaseResult& r,
                  const synth::FixOptions& opt, bool fix) {
  std::vector<size_t> keep;
  for (const auto& pr : r.results)
    if (std::holds_alternative<properties::Proved>(pr.verdict) &&
        c.properties[pr.property].expect == model::Expectation::Holds)
      keep.push_back(pr.property);
  for (auto& pr : r.results) {
    auto* v = std::get_if<properties::Violated>(&pr.verdict);
    if (!v) continue;
    const model::Property& p = c.properties[pr.property];
    bool from_fix = false;
    if (fix && p.expect == model::Expectation::Holds) {
      synth::FixResult res = synth::fix_case(c, {pr.property}, keep, opt);
      std::erase_if(res.changes,
                    [](const synth::Change& ch) { return ch.kind == synth::Change::Kind::Expect; });
      res.fixed.properties[pr.property].expect = p.expect;
      properties::Fix f = synth::trace_fix(c, source, res, opt.costs);
      const std::string words = res.status == synth::FixResult::Status::Fixed
                                    ? synth::missing_from_changes(c, res.changes)
                                    : "";
      from_fix = !words.empty() && !f.edits.empty();
      if (from_fix) v->trace.blamed = {words + std::string(synth::kTheFix)};
      v->trace.fix = std::move(f);
    }
    // Otherwise each alternative the explanation names is re-checked: only those that prove the
    // property or remove this counterexample stay (a deadlock's advice stays as it is).
    if (!from_fix && v->witness.obligation >= 0)
      synth::recheck_missing(c, pr.property, *v, opt.search);
  }
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
  attach_fixes(pr.c, t.text(), cr, fix_options(opt, o.fix ? o.fix_budget : 0), o.fix);
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
