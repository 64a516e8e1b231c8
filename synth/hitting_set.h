#pragma once
// The cheapest set that meets every core (each core: a set of candidate edits of which any fix
// must contain one), by depth-first branch and bound. Costs need not be additive (a new sync's
// packet is paid once however many flags it carries), only monotone: a superset never costs
// less. The lower bound of a partial set P is the largest, over the cores P misses, of the least
// any member of the core adds to P; it never overestimates, so the first set found at the least
// cost is optimal. Ties go to the member with the lower rank, then the lower index.
#include <cstdint>
#include <functional>
#include <vector>

namespace syncproof::synth {

struct HittingSet {
  std::vector<uint32_t> members;
  int cost = 0;
  bool optimal = true;  // false: the node budget ran out; `members` is the best found
  bool found = false;   // false: some core is empty (no set meets it)
};

HittingSet cheapest_hitting_set(const std::vector<std::vector<uint32_t>>& cores,
                                const std::function<int(const std::vector<uint32_t>&)>& cost,
                                const std::function<int(uint32_t)>& rank, size_t node_budget);

}  // namespace syncproof::synth
