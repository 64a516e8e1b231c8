#pragma once
// What "no operation used as a carrier" (docs/FIX.md) means for one fix, as a list of problems:
//  - no edit adds an operation the model gives no effect of its own (model::sync::kNoEffectInModel:
//    MCACHE_WRITEBACK, GL2_INVALIDATE_UNSHARED);
//  - a sync the fix inserts with flags needs them: the fix with that sync left with no flags
//    does not prove every goal (else the flags only made the command exist);
//  - a sync inserted with no flags says why, in its edit line.
#include <fmt/format.h>

#include <string>
#include <variant>
#include <vector>

#include "encode/check.h"
#include "model/flags.h"
#include "synth/fix.h"

namespace syncproof::testing {

inline std::vector<std::string> carrier_problems(const synth::FixResult& r,
                                                 const std::vector<std::string>& lines,
                                                 const std::vector<size_t>& goals,
                                                 const encode::CheckOptions& smt) {
  std::vector<std::string> out;
  for (const synth::Change& ch : r.changes) {
    if (ch.kind == synth::Change::Kind::Flags && (ch.add & model::sync::kNoEffectInModel))
      out.push_back(fmt::format("adds 0x{:X}, which moves nothing", ch.add));
    const auto* s = ch.kind == synth::Change::Kind::Insert
                        ? std::get_if<model::SyncCmd>(&ch.inserted.body)
                        : nullptr;
    if (s && (s->flags & model::sync::kNoEffectInModel))
      out.push_back(fmt::format("inserts a sync with 0x{:X}, which moves nothing", s->flags));
    if (s && synth::bare_sync(ch.inserted) && ch.why.empty())
      out.push_back("inserts a sync with no flags and says not why");
  }
  for (const std::string& l : lines)
    if (l.find("D3D12XBOX_SYNC_FLAG_NONE, D3D12XBOX_SYNC_CONTROL_FLAG_NONE") != std::string::npos &&
        l.find("; why: the ME step that orders ") == std::string::npos)
      out.push_back("no why on: " + l);
  // Each inserted sync with flags, left with none: the goals must not all be proved.
  for (uint32_t q = 0; q < r.fixed.queues.size(); ++q)
    for (uint32_t k = 0; k < r.fixed.queues[q].commands.size(); ++k) {
      if (!r.origin[q][k].fresh) continue;
      const auto* s = std::get_if<model::SyncCmd>(&r.fixed.queues[q].commands[k].body);
      if (!s || (s->flags == 0 && s->control.bits == 0)) continue;
      model::Case bare = r.fixed;
      auto& b = std::get<model::SyncCmd>(bare.queues[q].commands[k].body);
      b.flags = 0, b.control = {};
      const properties::CaseResult res = encode::check_case(bare, smt);
      bool all = true;
      for (size_t g : goals)
        all = all && g < res.results.size() &&
              std::holds_alternative<properties::Proved>(res.results[g].verdict);
      if (all)
        out.push_back(
            fmt::format("the sync it inserts on queue {} before command {} proves as "
                        "much with no flags: they only carry it",
                        r.fixed.queues[q].name, k));
    }
  return out;
}

}  // namespace syncproof::testing
