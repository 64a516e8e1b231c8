#include "tools/synth_engines.h"

namespace syncproof::cli {

std::optional<std::string> apply_costs(model::CostModel& m, const std::vector<std::string>& sets) {
  for (const std::string& s : sets)
    if (auto err = m.set(s)) return err;
  return std::nullopt;
}

}  // namespace syncproof::cli
