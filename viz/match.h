#pragma once
// Internal to viz/: which event of the lowered program each trace step is, and on which engine
// unit it happens.
#include <string>
#include <vector>

#include "model/events.h"
#include "properties/verdict.h"

namespace syncproof::viz {

// The event of each trace line (kNoEvent when none matches: a deadlock trace's steps are
// commands, not events). A trace line is the event of its queue and command line whose
// description it starts with, at its time when the witness keeps the execution's times.
std::vector<model::EventId> match_events(const model::LoweredProgram& p,
                                         const properties::Violated& v);

// "PFP", "ME", "MEC", "CS waves", "render back-ends", "CP DMA", "cache operations", ...
std::string unit_of(const model::LoweredProgram& p, model::EventId e);

// The two pictures (perfetto.cpp, dot.cpp).
std::string perfetto_json(const model::LoweredProgram& p, const properties::Violated& v,
                          const std::string& title);
std::string dot_graph(const model::LoweredProgram& p, const properties::Violated& v,
                      size_t property, const std::string& title);

}  // namespace syncproof::viz
