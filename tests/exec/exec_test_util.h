#pragma once
// Helpers for the executor's tests: cases from text, random tiny synthetic programs, and a naive
// enumerator of every complete interleaving that shares no code with exec/ (it reads the
// lowering's orders and wait rules directly) to check the reduced searches against.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "lang/parse.h"
#include "model/events.h"
#include "properties/monitor.h"
#include "properties/obligation.h"
#include "tests/case_fixture.h"

namespace syncproof::exec::testing {

using Fixture = syncproof::testing::LoweredCase;

// A random program of a few events on two queues: random strict orders (acyclic), wait rules,
// cache operations with random coverage, two writes and a read; and random obligations of every
// kind over them. `p.source` points into the object, so it is not copyable.
struct Synthetic {
  model::Case c;
  model::LoweredProgram p;
  std::vector<properties::Obligation> obligations;
  Synthetic(uint64_t seed, int events);
  Synthetic(const Synthetic&) = delete;
};

// Every complete interleaving (orders, and wait rules constraining as `deadlock` says), depth
// first; visit returns true to stop. Returns false when it stopped early.
bool for_each_interleaving(const model::LoweredProgram& p,
                           const std::function<bool(const std::vector<model::EventId>&)>& visit);

// Naive answers: does some interleaving and some line in the obligation's range violate it?
bool naive_violated(const model::LoweredProgram& p, const properties::Obligation& o);
// Is some state reachable (deadlock semantics) where nothing can fire and something has not?
bool naive_deadlock(const model::LoweredProgram& p);

}  // namespace syncproof::exec::testing
