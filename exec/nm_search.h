#pragma once
// A depth-first search over the orders in which a graph's non-monotone events (the waits and
// writers of its value rules, exec/graph.h) fire. Every other event is fired as soon as it is
// enabled: its firing disables nothing and changes no value, so moving it earlier in any
// execution keeps that execution valid and every event of it enabled where it was — no
// execution is lost. A state is then identified by its fired set and its value state, which is
// what is hashed.
//
// Used where the one-run arguments of search.cpp need monotonicity: completing an execution,
// deadlock freedom, the P-ORDERED search and the vacuity check.
#include <functional>
#include <string>
#include <vector>

#include "exec/graph.h"
#include "exec/search.h"
#include "exec/state_set.h"

namespace syncproof::exec {

enum class Goal : uint8_t { Found, Open };

class NmSearch {
 public:
  // `blocked`: events never fired; `only` (may be null): the only events fired.
  NmSearch(Runner& r, const Graph& g, const Budget& b, const Bitset* blocked = nullptr,
           const Bitset* only = nullptr);
  // Explores from the runner's current state. On Violated (= the goal was found) the runner is
  // left in that state; otherwise it is back where it started.
  Status run(const std::function<Goal(Runner&)>& goal);
  const std::string& reason() const { return reason_; }
  size_t stored() const { return seen_.size(); }

 private:
  Status dfs(const std::function<Goal(Runner&)>& goal);
  Runner& r_;
  const Graph& g_;
  const Budget& b_;
  const Bitset* blocked_;
  const Bitset* only_;
  StateSet seen_;
  uint64_t start_, calls_ = 0;
  std::vector<uint64_t> key_;
  std::string reason_;
};

// Whether the runner's state extends to a complete execution; if so the runner is left in one.
// Unknown when the budget runs out (then the runner is back where it was).
Status complete_execution(Runner& r, const Graph& g, const Budget& b, SearchStats& st);

}  // namespace syncproof::exec
