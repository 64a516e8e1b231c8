#include "tools/synth_check.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/validity.h"
#include "synth/changes.h"
#include "synth/flag_ops.h"
#include "synth/redundant.h"
#include "synth/text.h"

namespace syncproof::cli {

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
  const synth::EditedText t =
      synth::edit_text(c, synth::case_source(c), changes, rr.replaced, opt.costs);
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
  const std::string source = synth::case_source(c);
  const synth::EditedText t = synth::edit_text(c, source, red.changes, red.minimized, s.opt.costs);
  for (const std::string& e : t.edits) out += "  " + e + "\n";
  if (!t.error.empty()) out += fmt::format("  (the file cannot be edited: {})\n", t.error);
  return out + replaced;
}

}  // namespace syncproof::cli
