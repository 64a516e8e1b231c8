#pragma once
// `syncproof check --redundant`: in a case whose properties are all proved, the flags of each
// sync that can go with every property still proved, and the cheapest barrier that keeps them
// all proved. A flag whose removal alone breaks a proof is needed by every smaller barrier too
// (monotonicity, SEMANTICS.md §6), so only the flags that can go on their own are searched: the
// smallest barrier keeps the cheapest subset of them that still proves everything
// (synth/search.h, over adding them back to the barrier without any of them).
#include <string>
#include <utility>
#include <vector>

#include "synth/fix.h"

namespace syncproof::synth {

// One flag (with the selectors and engine selects that would modify nothing without it) or
// control flag of one command.
struct Removal {
  uint32_t queue = 0, cmd = 0;
  uint32_t flags = 0;
  model::ControlFlags control;
  int saves = 0;
  std::string what;  // "D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH"
};

struct RedundantResult {
  enum class Status : uint8_t {
    NotProved,    // some property is not proved: nothing is reported
    None,         // every flag is needed
    Found,        // `alone` and the smallest barrier
    Budget,       // not finished within the budget
    NotVerified,  // the engines disagree on the smaller barrier (a bug to report)
  } status = Status::None;
  std::vector<Removal> alone;  // each of these can go on its own
  model::Case minimized;       // the smallest barrier found
  Origins origin;
  std::vector<Change> changes;  // the original -> minimized
  int before = 0, saves = 0;
  bool exact = true;
  std::string why;
  size_t calls = 0;
  Verification verification;
};
std::string_view to_string(RedundantResult::Status s);

// `props`: the properties that must stay proved (all of the case's, usually). `only`, when not
// empty: the commands (queue, index) whose flags may go; others are left alone.
RedundantResult find_redundant(const model::Case& c, const std::vector<size_t>& props,
                               const FixOptions& opt,
                               const std::vector<std::pair<uint32_t, uint32_t>>& only = {});

}  // namespace syncproof::synth
