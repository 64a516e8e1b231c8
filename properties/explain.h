#pragma once
// Where a missing flag goes, for the `missing:` line of an explanation: the sync command (by
// file:line) that should carry it — the nearest one on the right queue, in API order between the
// write and the read, whose API accepts the flag and that does not have it yet — or, when there is
// none, a new sync to insert. An explanation never names a flag for a command that already has it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/events.h"

namespace syncproof::properties {

enum class Side : uint8_t {
  Producer,  // after the write, on its queue: write-backs, flushes
  Consumer,  // before the read, on its queue: invalidations
  Between,   // what makes the reader wait for the writer: partial flushes, IDLE, SYNC_CPDMA
};

// A command: (queue, index).
struct At {
  uint32_t queue, cmd;
};

// "FLAG on SyncTopOfPipeX at case.sync:12", "FLAG in a new SyncBottomOfPipeX after case.sync:9",
// or `flag` unchanged when it is not a sync flag (a wait, a control flag, a phrase). `from` is
// the command whose work must be done or visible (the write), `to` the one that must see it.
std::string place_flag(const model::LoweredProgram& p, const std::string& flag, Side side, At from,
                       At to);
std::vector<std::string> place_flags(const model::LoweredProgram& p,
                                     const std::vector<std::string>& flags, Side side, At from,
                                     At to);

// `flag` on the command `at` itself if it lacks it and its API takes it ("FLAG on
// SyncBottomOfPipeX at case.sync:9"), else in a sync after it.
std::string on_or_after(const model::LoweredProgram& p, const std::string& flag, At at);

// "case.sync:12": where a command is.
std::string where(const model::LoweredProgram& p, At at);

// One alternative of a `missing:` line as the edit it names, when it names one: flags on an
// existing command, or a new sync before a command (cmd == the queue's size: at its end).
// Phrases ("a fence or label wait") and ranges name none.
struct Remedy {
  enum class Kind : uint8_t { AddFlags, NewSync } kind = Kind::AddFlags;
  uint32_t queue = 0, cmd = 0;
  model::SyncApi api = model::SyncApi::SyncTopOfPipeX;
  uint32_t flags = 0;
};
// Reads back the forms place_flag and on_or_after write ("FLAG on API at f:12", "FLAG in a new
// API before|after f:12", "FLAG in a sync after f:12"), with the rest of the text ignored.
std::optional<Remedy> remedy_of(const model::Case& c, std::string_view text);

}  // namespace syncproof::properties
