#pragma once
// The exact rule for a wait that is not monotone (model/wait_value.h): it completes at a poll
// whose value passes, and it may stay blocked while the value it sees can fail. The value a part
// holds is the latest write of it that landed, so each combination of part states is a formula
// over the landing times; the combinations whose poll may pass (or fail) are joined, each under
// the assumption literals (A-INITIAL-ZERO, A-TIMESTAMP-NONZERO) that make it so, so an unsat core
// still names the assumptions a proof used. Shared by the safety encoding (encoding.cpp) and the
// deadlock encoding (deadlock.cpp), which differ only in what "landed before" means.
#include <functional>
#include <vector>

#include "model/events.h"
#include "solver/solver.h"

namespace syncproof::encode {

struct WaitTerms {
  solver::Context& ctx;
  const model::WaitRule& w;
  // "writer k landed (before the poll)" and "writer a landed after writer b" for this question.
  std::function<solver::Term(uint32_t k)> landed;
  std::function<solver::Term(uint32_t a, uint32_t b)> later;
  // The literal that stands for an assumption (Encoding::guard).
  std::function<solver::Term(model::AssumptionId)> literal;

  // Some combination of part states holds whose poll may pass / may fail.
  solver::Term may_pass();
  solver::Term may_fail();

 private:
  solver::Term join(bool pass);
  solver::Term part_state(size_t part, int state);
};

}  // namespace syncproof::encode
