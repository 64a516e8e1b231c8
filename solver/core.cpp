#include "solver/core.h"

#include <algorithm>

namespace syncproof::solver {

std::vector<Term> minimize_core(std::vector<Term> core, const CoreOracle& unsat_core_of) {
  for (size_t i = 0; i < core.size();) {  // core[0, i) were needed when tried
    std::vector<Term> trial = core;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
    std::optional<std::vector<Term>> smaller = unsat_core_of(trial);
    if (!smaller) {
      ++i;
      continue;
    }
    // The oracle keeps trial's order, so survivors of core[0, i) come first.
    auto tried_end = core.begin() + static_cast<std::ptrdiff_t>(i);
    size_t tried = 0;
    while (tried < smaller->size() &&
           std::find(core.begin(), tried_end, (*smaller)[tried]) != tried_end) {
      ++tried;
    }
    core = std::move(*smaller);
    i = tried;
  }
  return core;
}

}  // namespace syncproof::solver
