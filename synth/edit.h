#pragma once
// An edit of a case's synchronization, as data: flags added to a command that carries SyncFlags,
// a new SyncTopOfPipeX/SyncBottomOfPipeX or wait inserted at a point of a queue, a control flag
// switched, flags or a whole sync removed. Edits apply to a copy of a model::Case (what the
// engines check) and, through synth/source_edit.h, to the case file's text (what the user gets).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/case.h"
#include "model/costs.h"

namespace syncproof::synth {

enum class EditKind : uint8_t {
  AddFlags,       // OR `flags` / `control` into an existing command (queue, cmd)
  NewSync,        // a new `api` command before command `cmd` of `queue` (cmd == size: at the end)
  NewWait,        // the wait `wait` before command `cmd` of `queue`
  SetControl,     // set `control` and clear `clear` on an existing command
  RemoveFlags,    // clear `flags` / `control` of an existing command
  RemoveCommand,  // delete the command (a sync left with nothing to do)
  NewBarrier,     // the standard barrier `wait` (a BarrierCmd) before command `cmd` of `queue`
};

// Which barriers a fix may add (`--style`): the Xbox sync calls, standard D3D12 barriers, or
// whichever is cheaper.
enum class Style : uint8_t { X, Standard, Any };
std::string_view to_string(Style s);
std::optional<Style> find_style(std::string_view name);

struct Edit {
  EditKind kind = EditKind::AddFlags;
  uint32_t queue = 0, cmd = 0;
  model::SyncApi api = model::SyncApi::SyncTopOfPipeX;  // NewSync
  uint32_t flags = 0;
  model::ControlFlags control, clear;
  // NewSync: new syncs of one API at one point with different variants are different commands
  // (variant 1: the one that waits for the PFP's CP DMA, SYNC_CPDMA | CPDMA_SELECT_ENGINE_PFP).
  uint8_t variant = 0;
  model::CommandBody wait;  // NewWait: a WaitValueCmd or WaitFenceCmd; NewBarrier: a BarrierCmd
};

bool same_edit(const Edit& a, const Edit& b);

// A command of an edited case mapped back to the case the edits apply to: the command itself,
// or (fresh) a new command inserted before command `index`.
struct Origin {
  uint32_t index = 0;
  bool fresh = false;
};
using Origins = std::vector<std::vector<Origin>>;  // [queue][command of the edited case]
Origins identity_origins(const model::Case& c);
// origin of the commands of (b edited from a) composed with a's origins (a edited from o): b -> o.
Origins compose(const Origins& a_from_o, const Origins& b_from_a);

// The case with the edits made. New commands at one point go in this order: bottom-of-pipe syncs,
// waits, top-of-pipe syncs (release, wait, acquire); edits at one point that make the same new
// command share it (their flags are ORed). New commands have no label and no source location.
// `origin`, when given, receives where each command of the result comes from.
model::Case apply(const model::Case& base, const std::vector<Edit>& edits,
                  Origins* origin = nullptr);

// The edits' addresses, in order (for added_cost).
std::vector<const Edit*> pointers(const std::vector<Edit>& edits);

// What the edits add to the case's barrier cost (model::CostModel::barrier), without copying it.
int added_cost(const model::Case& base, const std::vector<const Edit*>& edits,
               const model::CostModel& costs);

// The command an edit set creates at each point, for reports: queue, point, and the command.
struct NewCommand {
  uint32_t queue, before;  // inserted before command `before` of the base case
  model::Command cmd;
};
std::vector<NewCommand> new_commands(const model::Case& base, const std::vector<Edit>& edits);

// "D3D12XBOX_SYNC_FLAG_A | D3D12XBOX_SYNC_FLAG_B" ("D3D12XBOX_SYNC_FLAG_NONE" for 0); `prefix`
// false: "A | B" ("NONE").
std::string sync_word_text(uint32_t word, bool prefix = true);
std::string control_word_text(model::ControlFlags f, bool prefix = true);
// The command as the case language spells it: "SyncTopOfPipeX(GL1_INVALIDATE, NONE, 0,
// D3D12XBOX_FLUSH_RANGE_ALL)", "Wait(f, 1)", "Wait64BitValueX(done, GREATER_EQUAL, 1)".
std::string command_source(const model::Case& c, const model::Command& cmd, bool prefix);

}  // namespace syncproof::synth
