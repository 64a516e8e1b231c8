#include "tools/synth_check.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/validity.h"
#include "synth/changes.h"
#include "synth/flag_ops.h"
#include "synth/missing.h"
#include "synth/redundant.h"
#include "synth/text.h"

namespace syncproof::cli {

namespace {

// Engine calls for the fix that stands in for advice the re-check refuted (a plain `check`).
constexpr size_t kMissingBudget = 400;

std::string source_of(const model::Case& c) {
  std::string s;
  for (const std::string& l : c.lines) s += l + "\n";
  return s;
}

}  // namespace

void attach_fixes(const model::Case& c, properties::CaseResult& r, const SynthCheck& s) {
  std::vector<size_t> keep;
  for (const auto& pr : r.results)
    if (std::holds_alternative<properties::Proved>(pr.verdict) &&
        c.properties[pr.property].expect == model::Expectation::Holds)
      keep.push_back(pr.property);
  const std::string source = source_of(c);
  // The fix of one property with at most `budget` engine calls, put under its trace; with it,
  // `missing:` becomes the fix (`first`: the fix is all of it; else before the explanation's
  // phrases). Whether there was one.
  auto put_fix = [&](properties::PropertyResult& pr, properties::Violated& v, size_t budget,
                     bool only) {
    const model::Property& p = c.properties[pr.property];
    synth::FixOptions opt = s.opt;
    opt.budget = std::min(opt.budget, budget);
    synth::FixResult res = synth::fix_case(c, {pr.property}, keep, opt);
    // The trace is about the model's verdict, not the file's expectation: a `refute` stays.
    std::erase_if(res.changes,
                  [](const synth::Change& ch) { return ch.kind == synth::Change::Kind::Expect; });
    res.fixed.properties[pr.property].expect = p.expect;
    properties::Fix f = synth::trace_fix(c, source, res, s.opt.costs);
    const std::string words = res.status == synth::FixResult::Status::Fixed
                                  ? synth::missing_from_changes(c, res.changes)
                                  : "";
    const bool found = !words.empty() && !f.edits.empty();
    if (found) {
      if (only) v.trace.blamed.clear();
      v.trace.blamed.insert(v.trace.blamed.begin(), words + std::string(synth::kTheFix));
    }
    if (found || only) v.trace.fix = std::move(f);
    return found;
  };
  for (auto& pr : r.results) {
    auto* v = std::get_if<properties::Violated>(&pr.verdict);
    if (!v) continue;
    const model::Property& p = c.properties[pr.property];
    const bool fix =
        s.fixes == SynthCheck::Fixes::All ||
        (s.fixes == SynthCheck::Fixes::Unexpected && p.expect == model::Expectation::Holds);
    // Asked for: the fix, and `missing:` is that fix (proved by both engines).
    const bool from_fix = fix && put_fix(pr, *v, s.opt.budget, true);
    // Otherwise each alternative the explanation names is re-checked (synth/missing.h); when
    // nothing is left, not even a phrase, a fix search gives what is missing, unless the fix was
    // searched already or --no-fix. A deadlock's advice is about values and waits, no edit of
    // flags: it stays.
    const bool advice = !from_fix && s.opt.search && v->witness.obligation >= 0;
    if (advice && !synth::recheck_missing(c, pr.property, *v, s.opt.search) &&
        v->trace.blamed.empty() && !fix && s.fixes != SynthCheck::Fixes::Off)
      put_fix(pr, *v, kMissingBudget, false);
    pr.as_expected = properties::as_expected(p, pr.verdict);
  }
}

// The standard barriers cheaper Xbox sync calls can replace (synth::replace_barriers), with the
// replacing edits, checked with both engines.
std::string replacement_report(const model::Case& c, const std::vector<size_t>& props,
                               const SynthCheck& s) {
  synth::FixOptions opt = s.opt;
  if (opt.style == synth::Style::Standard) return "";
  synth::ReplaceResult rr = synth::replace_barriers(c, props, opt, opt.budget);
  if (rr.done.empty()) return "";
  synth::FixResult fr;
  fr.before = opt.costs.barrier(c);
  fr.verification = opt.verify(rr.replaced);
  bool ok = fr.verification.problems.empty();
  for (size_t p : props)
    for (const auto* res : {&fr.verification.smt, &fr.verification.exec})
      ok = ok && p < res->results.size() &&
           std::holds_alternative<properties::Proved>(res->results[p].verdict);
  if (!ok)
    return fmt::format(
        "{}: standard barriers: the replacement is not confirmed, so none is given\n", c.file);
  const auto changes = synth::diff(c, rr.replaced, rr.origin, opt.costs);
  const int saves = -synth::total_cost(changes);
  std::string out = fmt::format(
      "{}: standard barriers: {} can be replaced by Xbox sync calls, cost {} -> {} (saves {}), "
      "every property proved by both engines:\n",
      c.file, rr.done.size() == 1 ? "1 barrier" : fmt::format("{} barriers", rr.done.size()),
      fr.before, fr.before - saves, saves);
  const synth::EditedText t = synth::edit_text(c, source_of(c), changes, rr.replaced, opt.costs);
  for (const std::string& e : t.edits) out += "  " + e + "\n";
  if (!t.error.empty()) out += fmt::format("  (the file cannot be edited: {})\n", t.error);
  return out;
}

std::string redundant_report(const model::Case& c, const properties::CaseResult& r,
                             const SynthCheck& s) {
  if (!s.redundant) return "";
  std::vector<size_t> props;
  for (const auto& pr : r.results) {
    if (!std::holds_alternative<properties::Proved>(pr.verdict))
      return fmt::format("{}: redundant: not looked for (a property is not proved)\n", c.file);
    props.push_back(pr.property);
  }
  if (props.empty()) return "";
  const std::string replaced = replacement_report(c, props, s);
  const synth::RedundantResult red = synth::find_redundant(c, props, s.opt);
  using S = synth::RedundantResult::Status;
  switch (red.status) {
    case S::None:
      return fmt::format("{}: redundant: none (every flag is needed; {} engine calls)\n", c.file,
                         red.calls) +
             replaced;
    case S::NotProved:
      return fmt::format("{}: redundant: not looked for (a property is not proved)\n", c.file);
    case S::Budget:
      return fmt::format("{}: redundant: not finished within {} engine calls (--budget)\n", c.file,
                         s.opt.budget);
    case S::NotVerified:
      return fmt::format(
          "{}: redundant: the smaller barrier is not confirmed, so none is given: {}\n", c.file,
          red.why);
    case S::Found:
      break;
  }
  std::string out =
      fmt::format("{}: redundant: {} flag{} can go on {} own:\n", c.file, red.alone.size(),
                  red.alone.size() == 1 ? "" : "s", red.alone.size() == 1 ? "its" : "their");
  for (const synth::Removal& x : red.alone) {
    const model::Command& cmd = c.queues[x.queue].commands[x.cmd];
    const auto car = synth::carrier(cmd);
    out += fmt::format("  {}:{}: {} in {} (saves {})\n", c.file, cmd.loc.line, x.what,
                       car ? model::to_string(car->api) : "", x.saves);
  }
  out += fmt::format(
      "{}: smallest barrier: cost {} -> {} (saves {}{}), every property proved by both engines:\n",
      c.file, red.before, red.before - red.saves, red.saves,
      red.exact ? "" : "; the cheapest found, the search budget was hit");
  const std::string source = source_of(c);
  const synth::EditedText t = synth::edit_text(c, source, red.changes, red.minimized, s.opt.costs);
  for (const std::string& e : t.edits) out += "  " + e + "\n";
  if (!t.error.empty()) out += fmt::format("  (the file cannot be edited: {})\n", t.error);
  return out + replaced;
}

}  // namespace syncproof::cli
