#pragma once
// What the monitor's explanations (properties/monitor.cpp) say of a missing operation or order:
// the flags that move data across a cache level, what holds a consumer back until a producer's
// write is done, what makes a queue wait for earlier work, and names for accesses and times.
// For monitor.cpp only.
#include <optional>
#include <string>
#include <vector>

#include "model/events.h"
#include "properties/explain.h"
#include "properties/monitor.h"

namespace syncproof::properties::detail {

// The standard barrier a cache operation belongs to, if any.
const model::BarrierCmd* barrier_of(const model::LoweredProgram& p, const model::CacheOp& op);
// "PIXEL_SHADING in SYNC_AFTER of the barrier at f.sync:6": what holds reader r until the
// barrier's work has run.
std::string barrier_hold_text(const model::LoweredProgram& p, const model::MemAccess& r,
                              At barrier);
// The flags that move data across a level (write it back, invalidate it), as alternatives
// (bottom-of-pipe and top-of-pipe forms).
std::vector<std::string> writeback_flags(model::Level l);
std::vector<std::string> invalidate_flags(model::Level l);
// Reads the PFP performs: index and indirect-argument fetch, and copies on the PFP's CP DMA.
bool pfp_side(const model::LoweredProgram& p, const model::MemAccess& r);
// The flags that hold a PFP-side read until the ME has caught up with earlier work.
const std::vector<std::string>& pfp_holds();
// Adds what `to` does not have yet, in order.
void append(std::vector<std::string>& to, const std::vector<std::string>& more);
// What holds a consumer back until a producer's write is done, by where the write comes from.
std::vector<std::string> producer_wait(const model::LoweredProgram& p, const model::MemAccess& w,
                                       const model::MemAccess& r);
// What makes a queue wait for event `e` of earlier work: the partial flush of its stage,
// SYNC_CPDMA for CP DMA, IDLE for the render back-ends and for writes still landing.
std::string completion_wait(const model::LoweredProgram& p, model::EventId e);
At at_of(const model::MemAccess& m);
// "t=12 (gfx line 7)": an event's time and command.
std::string at(const model::LoweredProgram& p, model::EventId e, const Times& t);
// "the write of grid (line 12)": an access for explanations.
std::string access_name_of(const model::LoweredProgram& p, const model::MemAccess& m);
// ", and CB and GL2 are write-back: an eviction can move it on to memory at once" — the levels
// a write's data may cross at any moment, down to the `steps`-th level of its path.
std::string evicts_to(const model::MemAccess& w, size_t steps);

}  // namespace syncproof::properties::detail
