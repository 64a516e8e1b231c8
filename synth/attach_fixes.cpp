#include "synth/attach_fixes.h"

#include <algorithm>

#include "synth/changes.h"
#include "synth/missing.h"
#include "synth/text.h"

namespace syncproof::synth {

namespace {

// Engine calls for the fix that stands in for advice the re-check refuted (a plain `check`).
constexpr size_t kMissingBudget = 400;

}  // namespace

std::string case_source(const model::Case& c) {
  std::string s;
  for (const std::string& l : c.lines) s += l + "\n";
  return s;
}

void attach_fixes(const model::Case& c, properties::CaseResult& r, FixPolicy fixes,
                  const FixOptions& options) {
  std::vector<size_t> keep;
  for (const auto& pr : r.results)
    if (std::holds_alternative<properties::Proved>(pr.verdict) &&
        c.properties[pr.property].expect == model::Expectation::Holds)
      keep.push_back(pr.property);
  const std::string source = case_source(c);
  // The fix of one property with at most `budget` engine calls, put under its trace; with it,
  // `missing:` becomes the fix (`first`: the fix is all of it; else before the explanation's
  // phrases). Whether there was one.
  auto put_fix = [&](properties::PropertyResult& pr, properties::Violated& v, size_t budget,
                     bool only) {
    const model::Property& p = c.properties[pr.property];
    FixOptions opt = options;
    opt.budget = std::min(opt.budget, budget);
    FixResult res = fix_case(c, {pr.property}, keep, opt);
    // The trace is about the model's verdict, not the file's expectation: a `refute` stays.
    std::erase_if(res.changes, [](const Change& ch) { return ch.kind == Change::Kind::Expect; });
    res.fixed.properties[pr.property].expect = p.expect;
    properties::Fix f = trace_fix(c, source, res, options.costs);
    const std::string words =
        res.status == FixResult::Status::Fixed ? missing_from_changes(c, res.changes) : "";
    const bool found = !words.empty() && !f.edits.empty();
    if (found) {
      if (only) v.trace.blamed.clear();
      v.trace.blamed.insert(v.trace.blamed.begin(), words + std::string(kTheFix));
    }
    if (found || only) v.trace.fix = std::move(f);
    return found;
  };
  for (auto& pr : r.results) {
    auto* v = std::get_if<properties::Violated>(&pr.verdict);
    if (!v) continue;
    const model::Property& p = c.properties[pr.property];
    const bool fix = fixes == FixPolicy::All ||
                     (fixes == FixPolicy::Unexpected && p.expect == model::Expectation::Holds);
    // Asked for: the fix, and `missing:` is that fix (proved by both engines).
    const bool from_fix = fix && put_fix(pr, *v, options.budget, true);
    // Otherwise each alternative the explanation names is re-checked (synth/missing.h); when
    // nothing is left, not even a phrase, a fix search gives what is missing, unless the fix was
    // searched already or --no-fix. A deadlock's advice is about values and waits, no edit of
    // flags: it stays.
    const bool advice = !from_fix && options.search && v->witness.obligation >= 0;
    if (advice && !recheck_missing(c, pr.property, *v, options.search) && v->trace.blamed.empty() &&
        !fix && fixes != FixPolicy::Off)
      put_fix(pr, *v, kMissingBudget, false);
    pr.as_expected = properties::as_expected(p, pr.verdict);
  }
}

}  // namespace syncproof::synth
