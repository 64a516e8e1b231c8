#pragma once
// Every timing rule the lowering emits, with its source. model/SEMANTICS.md has the same table
// for review; traces and `syncproof explain-rule` print these texts.
#include <cstdint>
#include <span>
#include <string_view>

namespace syncproof::model {

enum class Rule : uint8_t {
  CpOrder,
  PfpAhead,
  WorkLaunch,
  StageSpan,
  PsAfterVs,
  RbAfterPs,
  WriteArrives,
  WaveEndStores,
  Dma,
  PfpReadsIndirect,
  IndexFetch,
  TopBlocksCp,
  TopOrder,
  CpdmaWait,
  PfpSyncMe,
  Idle,
  IdleDrains,
  Coherency,
  BopAfterWork,
  BopOrder,
  PartialFlush,
  BopFifo,
  BopValueWrite,
  BopWriteAfterGcr,
  GcrSequence,
  GcrOuterFirst,
  WaitValue,
  QueueWait,
  FenceSignal,
  StdFence,
  HostOrder,
  Signal2xFlags,
  RbOrder,
  PsFlushWaitsVs,
  BarrierWait,
  BarrierCache,
  BarrierHold,
  BarrierSplit,
  BarrierFence,
  BarrierPal,
};

struct RuleDef {
  Rule rule;
  std::string_view id;         // e.g. "R-TOP-ORDER"
  std::string_view statement;  // one line
  std::string_view source;     // seed file or public source (repository + path), or assumption ID
};
std::span<const RuleDef> all_rules();
const RuleDef& rule(Rule r);

}  // namespace syncproof::model
