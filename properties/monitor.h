#pragma once
// The concrete form of each obligation: decide it on one execution (an integer time per event,
// and the line the question is about). The SMT encoding in encode/obligations.cpp asks for an
// execution where exactly this check fails; replaying a solver model through it is how every
// SMT counterexample is confirmed and explained.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "properties/obligation.h"

namespace syncproof::properties {

using Times = std::vector<long long>;  // indexed by EventId

struct MonitorResult {
  bool violated = false;
  std::string why;                  // one line: the failing step in the user's vocabulary
  std::vector<std::string> blamed;  // flags or waits whose absence explains it
  std::vector<uint32_t> cache_ops;  // operations worth showing in the trace
  // Other events worth showing: a line mate's arrival, a render back-end fill.
  std::vector<model::EventId> events;
};

// Time at which the data has moved through the steps (nullopt: never), and the first step at
// which it stopped (steps.size() when all completed).
struct ChainResult {
  std::optional<long long> time;
  size_t failed_step;
};
// Only operations before `until` count.
ChainResult follow_chain(const model::LoweredProgram& p, const std::vector<Step>& steps,
                         long long start, uint64_t line, const Times& t,
                         long long until = std::numeric_limits<long long>::max());

MonitorResult monitor(const model::LoweredProgram& p, const Obligation& o, const Times& t,
                      uint64_t line);

}  // namespace syncproof::properties
