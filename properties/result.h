#pragma once
// What an engine returns for one case: a verdict per property, with timings. Both engines (the
// SMT engine, encode/check.h, and the executor, exec/check.h) return this type, so
// `syncproof check --engine both` compares like with like.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "properties/verdict.h"

namespace syncproof::properties {

struct PropertyResult {
  size_t property;  // index into Case::properties
  Verdict verdict;
  double ms = 0;
  bool as_expected = false;
};

struct CaseResult {
  model::ModelConfig config;
  std::vector<PropertyResult> results;
  double ms = 0;
  size_t events = 0, constraints = 0;
  uint64_t states = 0;                 // the executor: states explored (the SMT engine leaves it 0)
  double prepare_ms = 0, base_ms = 0;  // SMT engine: lowering+encoding, the vacuity check
  size_t sliced = 0;  // SMT engine: counterexamples found in a slice (properties/slice.h)
  // SMT engine, --no-order-proofs: minimization re-checks whose violation a slice found
  size_t sliced_rechecks = 0;
  // The executor: obligations proved in their proof cone (exec/cone.h), and those whose cone found
  // a violation or gave up, which the whole program then decided.
  size_t cone_proofs = 0, cone_misses = 0;
};

// Milliseconds since t0: the timings both engines put in their results.
inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Whether a verdict is what the property line asked for (prove: proved; refute: violated and
// the explanation names every `missing` flag; check: any verdict but an error).
bool as_expected(const model::Property& p, const Verdict& v);

// "visible produce -> consume on grid", "no-hazards", ...
std::string property_text(const model::Case& c, const model::Property& p);

// The names of the assumptions in a mask (bit per AssumptionId), sorted as every proof lists them.
std::vector<std::string> assumption_names(uint32_t mask);

// A proof rests on these assumptions too (bit per AssumptionId; Obligations::relies): their names
// join its list, which stays sorted and without repeats. Other verdicts are left as they are.
void add_assumptions(Verdict& v, uint32_t bits);

}  // namespace syncproof::properties
