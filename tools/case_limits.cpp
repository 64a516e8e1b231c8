#include "tools/case_limits.h"

#include <fmt/format.h>

#include "model/events.h"

namespace syncproof::cli {

std::string CaseSize::describe() const {
  std::string s = fmt::format("{} commands on {} queues", commands, queues);
  if (events) s += fmt::format(", {} events", events);
  return s;
}

std::optional<std::string> over_caps(const model::Case& c, std::optional<model::Profile> profile,
                                     const std::vector<std::pair<bool, std::string>>& assume,
                                     const std::vector<std::string>& target, const CaseCaps& caps,
                                     CaseSize& size) {
  size = {};
  size.queues = c.queues.size();
  for (const auto& q : c.queues) size.commands += q.commands.size();
  if (size.commands > caps.commands)
    return fmt::format(
        "the case has {} commands, over the cap of {} per case (--max-commands): not checked",
        size.commands, caps.commands);
  size.events = model::lowered_events(c, model::config_for(c, profile, assume, target));
  if (size.events > caps.events)
    return fmt::format(
        "the case lowers to {} hardware events ({} commands), over the cap of {} per case "
        "(--max-events): not checked",
        size.events, size.commands, caps.events);
  return std::nullopt;
}

}  // namespace syncproof::cli
