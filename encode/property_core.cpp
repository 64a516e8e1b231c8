#include "encode/property_core.h"

#include <algorithm>
#include <utility>

namespace syncproof::encode {

std::vector<solver::Term> property_core(const Encoding& enc, std::vector<SolverProof>& proofs,
                                        const std::set<std::string>& kept, const Recheck& cheap,
                                        const Recheck& whole) {
  const std::vector<solver::Term>& all = enc.assumption_literals();
  auto has = [](const std::vector<solver::Term>& v, solver::Term t) {
    return std::find(v.begin(), v.end(), t) != v.end();
  };
  std::vector<solver::Term> in;  // the current set, in the encoding's order
  for (solver::Term t : all)
    if (std::any_of(proofs.begin(), proofs.end(),
                    [&](const SolverProof& p) { return has(p.core, t); }))
      in.push_back(t);
  for (solver::Term lit : std::vector<solver::Term>(in)) {
    if (kept.contains(enc.assumption_name(lit))) continue;
    std::vector<solver::Term> trial;
    for (solver::Term t : in)
      if (t != lit) trial.push_back(t);
    std::vector<std::pair<size_t, std::vector<solver::Term>>> cores;
    std::vector<size_t> undecided;
    bool needed = false;
    for (size_t k = 0; k < proofs.size() && !needed; ++k) {
      if (!has(proofs[k].core, lit)) continue;
      PartAnswer a = cheap(*proofs[k].o, proofs[k].by_cone, trial);
      if (a.status == solver::Status::Unsat)
        cores.push_back({k, std::move(a.core)});
      else if (a.status == solver::Status::Sat)
        needed = true;
      else
        undecided.push_back(k);
    }
    for (size_t i = 0; i < undecided.size() && !needed; ++i) {
      const size_t k = undecided[i];
      PartAnswer a = whole(*proofs[k].o, proofs[k].by_cone, trial);
      if (a.status == solver::Status::Unsat)
        cores.push_back({k, std::move(a.core)});
      else
        needed = true;
    }
    if (needed) continue;
    in = std::move(trial);
    for (auto& [k, core] : cores) proofs[k].core = std::move(core);
  }
  return in;
}

}  // namespace syncproof::encode
