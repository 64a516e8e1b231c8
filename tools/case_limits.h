#pragma once
// The size caps `syncproof check` puts on one case before any engine sees it, so that a case
// too large to check gets a clear message with its numbers instead of running out of memory:
// at most --max-commands commands and --max-events lowered hardware events. The defaults are
// far above the 2,000-command benchmark stream (14,234 events) and a 50,000-command frame
// (about 373,000 events).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "model/events.h"

namespace syncproof::cli {

inline constexpr size_t kMaxCommands = 200'000;
inline constexpr size_t kMaxEvents = 2'000'000;

struct CaseCaps {
  size_t commands = kMaxCommands;
  size_t events = kMaxEvents;
};

struct CaseSize {
  size_t queues = 0, commands = 0, events = 0;  // events: 0 until lowered
  std::string describe() const;                 // "50000 commands on 3 queues, 373113 events"
};

// Counts the case's commands and, when they are within the cap, lowers it (with the profile,
// assumptions and target settings the engines will use: a target changes what a barrier
// lowers to) to count its events. Returns the message for a case over a cap ("the case has ...,
// over the cap of ...: not checked"), nullopt otherwise. Within the caps, `lowered` (when given)
// receives the whole lowering, the waits' analysis made after the count (model::StagedLowering),
// for the engines to check without lowering the case again; `lowering_ms` its time.
std::optional<std::string> over_caps(const model::Case& c, std::optional<model::Profile> profile,
                                     const std::vector<std::pair<bool, std::string>>& assume,
                                     const std::vector<std::string>& target, const CaseCaps& caps,
                                     CaseSize& size,
                                     std::optional<model::LoweredProgram>* lowered = nullptr,
                                     double* lowering_ms = nullptr);

}  // namespace syncproof::cli
