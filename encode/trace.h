#pragma once
#include <string>
#include <utility>
#include <vector>

#include "model/events.h"
#include "properties/monitor.h"
#include "properties/verdict.h"

namespace syncproof::encode {

// "Dispatch (produce)", "SyncTopOfPipeX", ...
std::string command_text(const model::Case& c, uint32_t q, uint32_t i);

// The trace of one execution: the focus events, the cache operations the explanation mentions,
// and every sync/wait/signal step of the queues the commands are on, in time order.
properties::Trace build_trace(const model::LoweredProgram& p, const properties::Times& t,
                              const std::vector<model::EventId>& focus,
                              const std::vector<uint32_t>& ops,
                              const std::vector<std::pair<uint32_t, uint32_t>>& commands);

}  // namespace syncproof::encode
