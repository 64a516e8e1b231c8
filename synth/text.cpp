#include "synth/text.h"

#include <fmt/format.h>

#include "lang/parse.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

bool same_body(const CommandBody& a, const CommandBody& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<WorkCmd>(&a)) {
    const auto& y = std::get<WorkCmd>(b);
    return x->kind == y.kind && x->api == y.api && x->accesses.size() == y.accesses.size() &&
           x->dispatch_flags == y.dispatch_flags;
  }
  if (const auto* x = std::get_if<SyncCmd>(&a)) {
    const auto& y = std::get<SyncCmd>(b);
    return x->api == y.api && x->flags == y.flags && x->control.bits == y.control.bits &&
           x->range.all == y.range.all && x->range.base == y.range.base &&
           x->range.size == y.range.size;
  }
  if (const auto* x = std::get_if<BopWriteCmd>(&a)) {
    const auto& y = std::get<BopWriteCmd>(b);
    return x->api == y.api && x->address == y.address && x->value == y.value &&
           x->flags == y.flags && x->control.bits == y.control.bits && x->source == y.source;
  }
  if (const auto* x = std::get_if<WaitValueCmd>(&a)) {
    const auto& y = std::get<WaitValueCmd>(b);
    return x->is64 == y.is64 && x->address == y.address && x->cmp == y.cmp && x->value == y.value;
  }
  if (const auto* x = std::get_if<SignalCmd>(&a)) {
    const auto& y = std::get<SignalCmd>(b);
    return x->xbox == y.xbox && x->fence == y.fence && x->value == y.value && x->flags == y.flags;
  }
  if (const auto* x = std::get_if<BarrierCmd>(&a)) return same_barrier(*x, std::get<BarrierCmd>(b));
  const auto& x = std::get<WaitFenceCmd>(a);
  const auto& y = std::get<WaitFenceCmd>(b);
  return x.xbox == y.xbox && x.fence == y.fence && x.value == y.value && x.flags == y.flags;
}

}  // namespace

bool same_commands(const Case& a, const Case& b, std::string* where) {
  if (a.queues.size() != b.queues.size()) {
    *where = "the queues differ";
    return false;
  }
  for (size_t q = 0; q < a.queues.size(); ++q) {
    const auto& x = a.queues[q].commands;
    const auto& y = b.queues[q].commands;
    if (x.size() != y.size()) {
      *where = fmt::format("queue {} has {} commands instead of {}", a.queues[q].name, y.size(),
                           x.size());
      return false;
    }
    for (size_t i = 0; i < x.size(); ++i)
      if (!same_body(x[i].body, y[i].body) || x[i].label != y[i].label) {
        *where = fmt::format("command {} of queue {} (line {}) differs", i + 1, a.queues[q].name,
                             y[i].loc.line);
        return false;
      }
  }
  if (a.properties.size() != b.properties.size()) {
    *where = "the properties differ";
    return false;
  }
  for (size_t i = 0; i < a.properties.size(); ++i)
    if (a.properties[i].expect != b.properties[i].expect ||
        a.properties[i].kind != b.properties[i].kind) {
      *where = fmt::format("the property of line {} differs", b.properties[i].loc.line);
      return false;
    }
  return true;
}

EditedText edit_text(const Case& orig, const std::string& source,
                     const std::vector<Change>& changes, const Case& fixed,
                     const CostModel& costs) {
  EditedText out;
  out.edits = describe(orig, changes, costs);
  const SourceText src = split_source(source);
  std::string error;
  auto edits = source_edits(orig, src.lines, changes, &error);
  if (!edits) {
    out.error = error;
    return out;
  }
  out.changes = *edits;
  out.text = src;
  out.text.lines = apply_source_edits(src.lines, out.changes);
  out.diff = unified_diff(orig.file, src.lines, out.text.lines);
  // The edited text must be the fixed case, with no diagnostic the original did not have.
  const lang::ParseResult before = lang::parse_case(orig.file, source);
  const lang::ParseResult after = lang::parse_case(orig.file, join_source(out.text));
  std::string where;
  if (after.has_errors() || after.warnings() > before.warnings()) {
    out.error = "the edited file has new diagnostics:\n" + lang::render_all(after);
  } else if (!same_commands(fixed, after.c, &where)) {
    out.error = "the edited file is not the fixed case: " + where;
  }
  return out;
}

properties::Fix trace_fix(const Case& orig, const std::string& source, const FixResult& r,
                          const CostModel& costs) {
  properties::Fix f;
  switch (r.status) {
    case FixResult::Status::Fixed: {
      const EditedText t = edit_text(orig, source, r.changes, r.fixed, costs);
      f.edits = t.edits;
      f.cost = r.cost;
      if (t.error.empty())
        f.changes = t.changes;
      else
        f.note = t.error;
      break;
    }
    case FixResult::Status::Nothing:
      f.note = "nothing to fix";
      break;
    default:
      f.note = r.why;
      break;
  }
  return f;
}

}  // namespace syncproof::synth
