#include "synth/missing.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/flags.h"
#include "model/validity.h"
#include "properties/explain.h"
#include "properties/trace.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

// The why of a violation without its times ("t=13"): two counterexamples that fail the same
// obligation for the same reason read the same.
std::string timeless(const std::string& why) {
  std::string out;
  for (size_t i = 0; i < why.size(); ++i) {
    out += why[i];
    if (why[i] == '=' && i > 0 && why[i - 1] == 't')
      while (i + 1 < why.size() && why[i + 1] >= '0' && why[i + 1] <= '9') ++i;
  }
  return out;
}

}  // namespace

std::optional<Edit> missing_edit(const Case& c, std::string_view text) {
  const auto r = properties::remedy_of(c, text);
  if (!r || r->queue >= c.queues.size()) return std::nullopt;
  const Queue& q = c.queues[r->queue];
  Edit e;
  e.queue = r->queue, e.cmd = r->cmd, e.flags = r->flags;
  if (r->kind == properties::Remedy::Kind::AddFlags) {
    if (r->cmd >= q.commands.size()) return std::nullopt;
    const auto car = carrier(q.commands[r->cmd]);
    // Never a flag the command has, nor one its API does not take on this queue.
    if (!car || (car->flags & r->flags) == r->flags ||
        (accepted_sync_flags(car->api, q.type) & r->flags) != r->flags)
      return std::nullopt;
    e.kind = EditKind::AddFlags;
    return e;
  }
  if (r->cmd > q.commands.size() || (accepted_sync_flags(r->api, q.type) & r->flags) != r->flags)
    return std::nullopt;
  e.kind = EditKind::NewSync, e.api = r->api;
  return e;
}

Recheck recheck(const Case& c, size_t prop, const properties::Violated& v, const Edit& e,
                const CaseRun& run) {
  Case asked = apply(c, {e});
  asked.properties = {c.properties[prop]};
  const properties::CaseResult res = run(asked);
  if (res.results.empty()) return Recheck::Unknown;
  const properties::Verdict& now = res.results[0].verdict;
  if (std::holds_alternative<properties::Proved>(now)) return Recheck::Proves;
  const auto* x = std::get_if<properties::Violated>(&now);
  if (!x) return Recheck::Unknown;
  return timeless(x->trace.why) == timeless(v.trace.why) ? Recheck::Stays : Recheck::Removes;
}

bool recheck_missing(const Case& c, size_t prop, properties::Violated& v, const CaseRun& run) {
  std::vector<std::string> kept;
  bool edit = false;
  for (const std::string& b : v.trace.blamed) {
    if (!properties::remedy_of(c, b)) {  // a phrase: names no single edit
      kept.push_back(b);
      continue;
    }
    const auto e = missing_edit(c, b);
    if (!e) continue;  // already there, or rejected by the linter there
    switch (recheck(c, prop, v, *e, run)) {
      case Recheck::Proves:
        kept.push_back(b + std::string(kProves));
        edit = true;
        break;
      case Recheck::Removes:
        kept.push_back(b + std::string(kRemoves));
        edit = true;
        break;
      case Recheck::Stays:
      case Recheck::Unknown:
        break;
    }
  }
  // Those that prove the property first.
  std::stable_partition(kept.begin(), kept.end(), [](const std::string& s) {
    return s.size() >= kProves.size() &&
           s.compare(s.size() - kProves.size(), kProves.size(), kProves) == 0;
  });
  v.trace.blamed = std::move(kept);
  return edit;
}

std::string missing_from_changes(const Case& c, const std::vector<Change>& changes) {
  std::vector<std::string> words;
  auto where = [&](uint32_t q, uint32_t i) {
    const auto& cmds = c.queues[q].commands;
    return fmt::format("{}:{}", c.file,
                       i < cmds.size() ? cmds[i].loc.line
                       : cmds.empty()  ? 0
                                       : cmds.back().loc.line);
  };
  for (const Change& ch : changes) {
    switch (ch.kind) {
      case Change::Kind::Insert:
        words.push_back(
            fmt::format("{} {} {}", command_source(c, ch.inserted, true),
                        ch.cmd < c.queues[ch.queue].commands.size() ? "before" : "after",
                        where(ch.queue, ch.cmd)));
        break;
      case Change::Kind::Flags: {
        const auto car = carrier(c.queues[ch.queue].commands[ch.cmd]);
        const std::string api = car ? std::string(to_string(car->api)) : "the command";
        if (ch.add) {
          const std::string names = sync_word_text(ch.add);
          for (size_t i = 0; i <= names.size();) {
            size_t j = names.find(" | ", i);
            if (j == std::string::npos) j = names.size();
            words.push_back(fmt::format("{} on {} at {}", names.substr(i, j - i), api,
                                        where(ch.queue, ch.cmd)));
            i = j + 3;
          }
        }
        for (int i = 0; i < kControlFlagCount; ++i)
          if (ch.add_control.has(static_cast<ControlFlag>(i)))
            words.push_back(fmt::format("{} on {} at {}", full_name(static_cast<ControlFlag>(i)),
                                        api, where(ch.queue, ch.cmd)));
        break;
      }
      case Change::Kind::Remove:
      case Change::Kind::Expect:
        break;  // what a fix removes or re-labels is nothing missing
    }
  }
  return fmt::format("{}", fmt::join(words, " and "));
}

}  // namespace syncproof::synth
