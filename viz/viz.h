#pragma once
// Pictures of a counterexample (`syncproof check --trace-out DIR`):
//  - Chrome/Perfetto trace-event JSON (opens in ui.perfetto.dev or chrome://tracing): one process
//    per queue, one track per engine unit the model has (PFP, ME or MEC, VS/PS/CS waves, render
//    back-ends, CP DMA, cache operations, bottom of pipe, the CPU), each trace step a slice at its
//    model time with the command's line and flags;
//  - a Graphviz DOT graph of the happens-before chain that breaks: the trace's steps, the
//    must-happen-before orders between them (through the steps the trace leaves out), the waits
//    that signals may satisfy, and in red the order the property needed and did not get.
// Both are built from the trace (properties::Trace) and the lowered program, which says which
// event each step is and which unit it happened on.
#include <string>

#include "model/assumptions.h"
#include "model/case.h"
#include "properties/verdict.h"

namespace syncproof::viz {

struct Pictures {
  std::string perfetto;  // trace-event JSON
  std::string dot;       // Graphviz
};

Pictures draw(const model::Case& c, const model::ModelConfig& config, size_t property,
              const properties::Violated& v);

// "cases/a/b.sync", property at line 13, visible -> "cases_a_b-L13-visible"
std::string picture_stem(const model::Case& c, size_t property);

}  // namespace syncproof::viz
