#pragma once
// The edits a fix is chosen from. For each obligation that fails (properties/obligation.h: a
// write and the read that must see it, two accesses that must be ordered, ...) the candidates
// are the edits that can change its verdict, located by API order:
//  - every operation flag, engine select and sequence flag that can be added to a command that
//    carries SyncFlags (SyncTopOfPipeX, SyncBottomOfPipeX, the BOP value writes, Signal2X, WaitX)
//    and lies between the two commands in API order (an operation before the first command or
//    after the second cannot be ordered between them in every execution, so it proves nothing);
//  - the same flags in a new SyncBottomOfPipeX or SyncTopOfPipeX (and a SyncTopOfPipeX with none:
//    its ME step alone) right after the first command, right before the second, right after each
//    wait and right before each signal or value write between them: the named points where a
//    release or an acquire belongs.
// Waits are not in this list (adding a wait can deadlock, so it is not monotone): they are chosen
// before the search, as bases (synth/bases.h).
#include <cstdint>
#include <map>
#include <vector>

#include "model/events.h"
#include "properties/api_order.h"
#include "properties/obligation.h"
#include "synth/edit.h"

namespace syncproof::synth {

// A universe of candidate edits without duplicates; indices are stable.
class Universe {
 public:
  // The index of the edit, adding it when it is new (*added set to true then).
  uint32_t add(const Edit& e, bool* added = nullptr);
  const Edit& operator[](uint32_t i) const { return edits_[i]; }
  // Which barriers the candidates may be (`--style`): Xbox flags and syncs, standard barriers.
  void set_style(Style s) { style_ = s; }
  Style style() const { return style_; }
  size_t size() const { return edits_.size(); }
  const std::vector<Edit>& edits() const { return edits_; }

 private:
  std::vector<Edit> edits_;
  std::multimap<uint64_t, uint32_t> by_key_;
  Style style_ = Style::X;
};

// Two commands an obligation relates, in the order API order must put them: (queue, command).
struct Pair {
  uint32_t qa, a, qb, b;
  bool race = false;  // a race: either order would do
};
std::vector<Pair> obligation_pairs(const model::LoweredProgram& p, const properties::Obligation& o);

// Adds the candidates for a pair of commands of `variant` (a case derived from `base` by edits
// whose origins are given; `order` is the API order of `variant`). Returns how many were new.
size_t add_candidates(const model::Case& base, const model::Case& variant, const Origins& origin,
                      const properties::ApiOrder& order, const Pair& pair, Universe& out);

// The edits that add one flag or control flag to the command at (queue, cmd) of `base` (an
// existing carrier), each valid for its API and queue.
std::vector<Edit> carrier_additions(const model::Case& base, uint32_t queue, uint32_t cmd);
// The standard barriers for a pair (synth/candidates.cpp): an enhanced global barrier
// from the first command's stages and accesses to the second's, on each command's queue.
std::vector<Edit> barrier_candidates(const model::Case& base, const model::Case& variant,
                                     const Origins& origin, const Pair& pair);
// The new syncs that can go before command `before` of `queue`: a SyncTopOfPipeX with no flags
// (its ME step alone), then one flag each. Flags the model gives no effect of their own
// (model::sync::kNoEffectInModel) are never candidates: they could only carry a command.
std::vector<Edit> new_sync_candidates(const model::Case& base, uint32_t queue, uint32_t before);

}  // namespace syncproof::synth
