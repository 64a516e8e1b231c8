#pragma once
// The executor's searches over interleavings of one lowered program (exec/graph.h), each with a
// state/time budget: running out gives Unknown, never a proof.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/graph.h"
#include "exec/watch.h"

namespace syncproof::exec {

struct Budget {
  uint64_t max_states = 0;  // states entered (events fired) per search; 0 = unlimited
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

struct SearchStats {
  uint64_t stored = 0;                        // distinct states put in a visited set
  uint64_t transitions = 0;                   // states entered (events fired), revisits included
  uint64_t cone_proofs = 0, cone_misses = 0;  // obligations (exec/check.cpp, exec/cone.h)
};

enum class Status : uint8_t { Safe, Violated, Unknown };

struct SearchResult {
  Status status = Status::Safe;
  // Violated: a complete interleaving (every event, in order) in which the obligation fails;
  // for deadlock, the events fired before the execution got stuck.
  std::vector<model::EventId> order;
  std::string reason;  // Unknown: which budget ran out
};

// Every event in some valid order; shorter than the program when no complete execution exists
// (or the budget ran out looking for one, with non-monotone events).
std::vector<model::EventId> any_execution(const Graph& g, const Budget& b = {});

// A two-chain obligation (Fresh, WriteOrder, ReadFirst) on one line unit. reduce: the priority
// reduction of search.cpp; otherwise every interleaving state is visited (tests, benchmarks).
// cone (reduced search only; may be null): a superset of ancestors(g, the watched events); the
// search fires nothing else until it has decided.
SearchResult search_chain(const Graph& g, const ChainWatch& w, bool reduce, const Budget& b,
                          SearchStats& st, const Bitset* cone = nullptr);

// P-ORDERED obligation: can some `after` event fire while some `before` event has not?
SearchResult search_ordered(const Graph& g, const properties::Ordering& o, bool reduce,
                            const Budget& b, SearchStats& st, const Bitset* cone = nullptr);

// P-DEADLOCK-FREE on a Deadlock-mode graph: a reachable state where nothing can fire although
// some event has not.
SearchResult search_deadlock(const Graph& g, bool reduce, const Budget& b, SearchStats& st);

}  // namespace syncproof::exec
