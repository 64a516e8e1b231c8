#pragma once
// Cheap unsat-core shrinking, independent of Z3: drop each literal once and keep the drop when
// the rest is still unsat. The result is minimal only with respect to single deletions tried in
// order, at the cost of at most one check per literal.
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "solver/term.h"

namespace syncproof::solver {

// Checks the assumptions; if unsat, returns its core (a subsequence of the input), else nullopt.
using CoreOracle = std::function<std::optional<std::vector<Term>>(std::span<const Term>)>;

std::vector<Term> minimize_core(std::vector<Term> core, const CoreOracle& unsat_core_of);

}  // namespace syncproof::solver
