#pragma once
// What the monotone search cannot choose, chosen before it: each *base* is a small set of edits
// the search starts from, and the fix is the cheapest over every base of (base + the search's
// cheapest edits from it).
//  - Waits. Two accesses on different queues that nothing orders (a race, or a read that must
//    see a write nothing makes it wait for) need a wait, and adding a wait is not monotone: a
//    wait can deadlock. For each such pair, the candidates are a wait right before the second
//    access for each signal or label value write of the first access's queue that follows it
//    (Wait or WaitX for a fence, Wait32/64BitValueX GREATER_EQUAL for a label); each choice of one
//    candidate per pair that no earlier choice orders is a base.
//  - Redirections. `CPDMA_SELECT_ENGINE_PFP` makes a SYNC_CPDMA wait for the PFP's CP DMA instead
//    of the ME's, and `GCR_SEQUENCE_FORWARD` / `_REVERSE` pick one order of a write's cache
//    actions: neither only adds, so switching one is a base of its own.
// The number of bases is capped; the first is always the case as it is.
#include <string>
#include <vector>

#include "model/assumptions.h"
#include "synth/edit.h"

namespace syncproof::synth {

struct Base {
  std::vector<Edit> edits;  // on the original case
};

struct Bases {
  std::vector<Base> list;
  // Pairs no wait can order, e.g. "nothing on queue acs after line 12 signals a fence or writes
  // a label that graphics could wait for".
  std::vector<std::string> unorderable;
};

Bases make_bases(const model::Case& c, const model::ModelConfig& config,
                 const std::vector<size_t>& props, size_t cap = 12);

}  // namespace syncproof::synth
