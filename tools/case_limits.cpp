#include "tools/case_limits.h"

#include <fmt/format.h>

#include <chrono>

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
                                     CaseSize& size, std::optional<model::LoweredProgram>* lowered,
                                     double* lowering_ms) {
  size = {};
  size.queues = c.queues.size();
  for (const auto& q : c.queues) size.commands += q.commands.size();
  if (size.commands > caps.commands)
    return fmt::format(
        "the case has {} commands, over the cap of {} per case (--max-commands): not checked",
        size.commands, caps.commands);
  const auto t0 = std::chrono::steady_clock::now();
  model::StagedLowering staged(c, model::config_for(c, profile, assume, target));
  size.events = staged.events();
  if (size.events > caps.events)
    return fmt::format(
        "the case lowers to {} hardware events ({} commands), over the cap of {} per case "
        "(--max-events): not checked",
        size.events, size.commands, caps.events);
  if (lowered) {
    lowered->emplace(staged.finish());
    if (lowering_ms)
      *lowering_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return std::nullopt;
}

}  // namespace syncproof::cli
