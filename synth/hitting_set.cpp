#include "synth/hitting_set.h"

#include <algorithm>
#include <climits>

namespace syncproof::synth {

namespace {

struct HittingSearch {
  const std::vector<std::vector<uint32_t>>& cores;
  const std::function<int(const std::vector<uint32_t>&)>& cost;
  const std::function<int(uint32_t)>& rank;
  size_t budget;
  size_t nodes = 0;
  HittingSet best;
  std::vector<uint32_t> cur;

  bool hits(const std::vector<uint32_t>& core) const {
    for (uint32_t m : core)
      if (std::find(cur.begin(), cur.end(), m) != cur.end()) return true;
    return false;
  }

  void dfs(int cur_cost) {
    if (++nodes > budget) {
      best.optimal = false;
      return;
    }
    // The missed cores, the least each member adds, and the core to branch on.
    int lower = 0;
    const std::vector<uint32_t>* branch = nullptr;
    std::vector<std::pair<int, uint32_t>> branch_members;
    for (const auto& core : cores) {
      if (hits(core)) continue;
      std::vector<std::pair<int, uint32_t>> adds;
      int least = INT_MAX;
      for (uint32_t m : core) {
        cur.push_back(m);
        const int c = cost(cur) - cur_cost;
        cur.pop_back();
        adds.push_back({c, m});
        least = std::min(least, c);
      }
      if (least == INT_MAX) return;  // an empty core: nothing meets it
      if (!branch || least > lower || (least == lower && core.size() < branch->size())) {
        branch = &core;
        branch_members = std::move(adds);
      }
      lower = std::max(lower, least);
    }
    if (!branch) {
      if (!best.found || cur_cost < best.cost) {
        best.found = true;
        best.cost = cur_cost;
        best.members = cur;
      }
      return;
    }
    if (best.found && cur_cost + lower >= best.cost) return;
    std::sort(branch_members.begin(), branch_members.end(), [&](const auto& x, const auto& y) {
      if (x.first != y.first) return x.first < y.first;
      const int rx = rank(x.second), ry = rank(y.second);
      if (rx != ry) return rx < ry;
      return x.second < y.second;
    });
    for (const auto& [add, m] : branch_members) {
      if (best.found && cur_cost + add >= best.cost) break;
      cur.push_back(m);
      dfs(cur_cost + add);
      cur.pop_back();
      if (nodes > budget) return;
    }
  }
};

}  // namespace

HittingSet cheapest_hitting_set(const std::vector<std::vector<uint32_t>>& cores,
                                const std::function<int(const std::vector<uint32_t>&)>& cost,
                                const std::function<int(uint32_t)>& rank, size_t node_budget) {
  for (const auto& core : cores)
    if (core.empty()) return {};
  HittingSearch s{cores, cost, rank, node_budget, 0, {}, {}};
  s.dfs(cost({}));
  std::sort(s.best.members.begin(), s.best.members.end());
  return s.best;
}

}  // namespace syncproof::synth
