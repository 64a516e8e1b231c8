#pragma once
// Turning one execution (a time per event) into the numbered, time-ordered trace a graphics
// engineer reads. Shared by both engines (encode/ and exec/) so their counterexamples print alike.
#include <string>
#include <utility>
#include <vector>

#include "model/events.h"
#include "properties/monitor.h"
#include "properties/obligation.h"
#include "properties/verdict.h"

namespace syncproof::properties {

// "Dispatch (produce)", "SyncTopOfPipeX", ...
std::string command_text(const model::Case& c, uint32_t q, uint32_t i);

// The trace of one execution: the focus events, the cache operations the explanation mentions,
// and every sync/wait/signal step of the queues the commands are on, in time order.
Trace build_trace(const model::LoweredProgram& p, const Times& t,
                  const std::vector<model::EventId>& focus, const std::vector<uint32_t>& ops,
                  const std::vector<std::pair<uint32_t, uint32_t>>& commands);

// What a trace of obligation `o` shows: the commands (queue, index) it is about and the events
// to show in any case (the accesses and write arrivals, or the ordered events).
std::vector<std::pair<uint32_t, uint32_t>> trace_commands(const model::LoweredProgram& p,
                                                          const Obligation& o);
std::vector<model::EventId> focus_events(const model::LoweredProgram& p, const Obligation& o);

// The trace of a violation of `o` in execution `t`, with the monitor's explanation: what the
// engines put in properties::Violated.
Trace violation_trace(const model::LoweredProgram& p, const Obligation& o, const Times& t,
                      const MonitorResult& m);

// The trace of a deadlock: for each queue that did not finish, the first command that did not
// complete (queue index, command index), and which events happened (`done`, by event). Both
// engines report deadlocks through it.
Trace deadlock_trace(const model::LoweredProgram& p,
                     const std::vector<std::pair<uint32_t, uint32_t>>& stuck,
                     const std::vector<char>& done);

}  // namespace syncproof::properties
