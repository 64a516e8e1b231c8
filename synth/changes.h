#pragma once
// What a fix changes, command by command, found by comparing the fixed case with the original
// (through the origin of every fixed command): flags added to or removed from a command, a
// command inserted or removed, a property's expectation turned into `prove`. The edit lines
// `syncproof fix` prints and the text edits of the case file are both made from this list.
#include <string>
#include <vector>

#include "model/costs.h"
#include "synth/edit.h"

namespace syncproof::synth {

struct Change {
  enum class Kind : uint8_t { Flags, Insert, Remove, Expect } kind = Kind::Flags;
  uint32_t queue = 0, cmd = 0;   // the original command; Insert: the one it goes before
  uint32_t add = 0, remove = 0;  // Flags: sync flags
  model::ControlFlags add_control, remove_control;
  model::Command inserted;  // Insert
  size_t property = 0;      // Expect: the property (index) that is `prove` now
  int cost = 0;             // what it adds to the barrier (negative: saves)
  // Insert of a sync with no flags: what its step orders ("the ME step that orders WaitX(f, 1)
  // before ExecuteIndirect (consume)"), the reason it is there.
  std::string why;
};

std::vector<Change> diff(const model::Case& orig, const model::Case& fixed, const Origins& origin,
                         const model::CostModel& costs);

// One line per flag and command: "case.sync:12: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to
// SyncTopOfPipeX (+2)", "case.sync:14: insert SyncTopOfPipeX(...) before Dispatch (consume)
// (+3)", "case.sync:9: remove D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH from SyncBottomOfPipeX (-4)";
// an inserted sync with no flags ends with "; why: " and its Change::why.
std::vector<std::string> describe(const model::Case& orig, const std::vector<Change>& changes,
                                  const model::CostModel& costs);

int total_cost(const std::vector<Change>& changes);

// A sync with no flags and no control flags: a command for its step alone.
bool bare_sync(const model::Command& c);
// Why such a sync is command k of queue q of `c`: its ME step, in queue order after the command
// before it (after the queue resumes, when that is a wait) and before the command after it.
std::string step_why(const model::Case& c, uint32_t q, uint32_t k);

}  // namespace syncproof::synth
