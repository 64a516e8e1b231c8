#include "encode/wait_values.h"

namespace syncproof::encode {

using namespace model;
using solver::Term;

namespace {
bool writes(const WaitWriter& w, size_t part) {
  return (w.parts >> part) & 1u;
}
}  // namespace

// Part `part` holds `state`: the initial value (nothing of it landed), "any value" (work wrote
// it), or writer k's value (k landed, no other value write of the part landed after it, no work
// wrote it).
Term WaitTerms::part_state(size_t part, int state) {
  const auto& ws = w.word.writers;
  std::vector<Term> all;
  if (state == kInitialPart) {
    for (uint32_t k = 0; k < ws.size(); ++k)
      if (writes(ws[k], part)) all.push_back(ctx.lnot(landed(k)));
    return ctx.land(all);
  }
  if (state == kUnknownPart) {
    std::vector<Term> any;
    for (uint32_t k = 0; k < ws.size(); ++k)
      if (writes(ws[k], part) && ws[k].kind == WaitWriter::Kind::Work) any.push_back(landed(k));
    return ctx.lor(any);
  }
  const auto k = static_cast<uint32_t>(state);
  all.push_back(landed(k));
  for (uint32_t j = 0; j < ws.size(); ++j) {
    if (j == k || !writes(ws[j], part)) continue;
    if (ws[j].kind == WaitWriter::Kind::Work)
      all.push_back(ctx.lnot(landed(j)));
    else
      all.push_back(ctx.lnot(ctx.land({landed(j), later(j, k)})));
  }
  return ctx.land(all);
}

// The combinations whose poll may pass (or fail), each under the assumption literals for which it
// does: one disjunct per value configuration (A-INITIAL-ZERO x A-TIMESTAMP-NONZERO).
Term WaitTerms::join(bool pass) {
  std::vector<Term> any;
  for_each_poll_state(w.word, [&](std::span<const int> st) {
    std::vector<Term> when;
    for (int iz = 0; iz < 2; ++iz)
      for (int ts = 0; ts < 2; ++ts) {
        const PollOutcome o = poll_outcome(w.word, st, {iz == 1, ts == 1});
        if (pass ? !o.can_sat : !o.can_fail) continue;
        Term a = literal(AssumptionId::InitialZero), b = literal(AssumptionId::TimestampNonzero);
        when.push_back(ctx.land({iz ? a : ctx.lnot(a), ts ? b : ctx.lnot(b)}));
      }
    if (when.empty()) return;
    std::vector<Term> parts = {ctx.lor(when)};
    for (size_t i = 0; i < st.size(); ++i) parts.push_back(part_state(i, st[i]));
    any.push_back(ctx.land(parts));
  });
  // More states than the model enumerates: every poll may pass and may fail.
  if (w.word.too_many_states) return ctx.bool_val(true);
  return ctx.lor(any);
}

Term WaitTerms::may_pass() {
  return join(true);
}
Term WaitTerms::may_fail() {
  return join(false);
}

}  // namespace syncproof::encode
