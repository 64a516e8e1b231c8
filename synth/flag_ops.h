#pragma once
// The operation flags a sync command carries and the commands that carry them, shared by the
// synthesis (synth/) and the metamorphic checks (tools/metamorphic.cpp): both add operation flags
// to syncs, which the model's monotonicity (SEMANTICS.md §6) says never proves less.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/case.h"

namespace syncproof::synth {

// The SyncFlags word of a command that carries one, and its API: SyncTopOfPipeX,
// SyncBottomOfPipeX, Write32/64BitValueBottomOfPipe2X, Signal2X, WaitX. The standard Signal and
// Wait carry none.
struct Carrier {
  uint32_t* flags;
  model::SyncApi api;
  model::ControlFlags* control;  // nullptr for Signal2X/WaitX (they take no ControlFlags)
};
std::optional<Carrier> carrier(model::Command& cmd);
struct ConstCarrier {
  uint32_t flags;
  model::SyncApi api;
  model::ControlFlags control;
};
std::optional<ConstCarrier> carrier(const model::Command& cmd);

// The operation flags: every independent bit of D3D12XBOX_SYNC_FLAGS, and ICACHE_INVALIDATE (the
// ALL value of its field). Range, margin and volatile selectors are modifiers, not operations.
std::vector<const model::FlagDef*> operation_flags();

// Whether `word` already performs the operation `bit` (ICACHE: its field selects anything).
bool has_operation(uint32_t word, uint32_t bit);
// Whether `bit` can be added to `word` as an operation: ICACHE only when its field is empty (a
// RANGE/MARGIN selector there would turn into another selector).
bool can_add_operation(uint32_t word, uint32_t bit);

// Whether `word` is a valid SyncFlags word for the API on the queue type: no error among
// model::check_sync_flags's problems (warnings allowed).
bool valid_word(uint32_t word, model::SyncApi api, model::QueueType q, bool whole_memory = true);

}  // namespace syncproof::synth
