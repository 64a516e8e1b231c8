#include "properties/execution.h"

#include <algorithm>
#include <array>
#include <vector>

#include "model/wait_value.h"

namespace syncproof::properties {

using namespace model;

namespace {

// The assumptions that hold in the question (bit per AssumptionId): the configuration's, none
// that is dropped.
uint32_t held(const LoweredProgram& p, uint32_t dropped) {
  uint32_t bits = 0;
  for (int a = 0; a < kAssumptionCount; ++a)
    if (p.config.assumptions.enabled(static_cast<AssumptionId>(a))) bits |= 1u << a;
  return bits & ~dropped;
}

// The exact rule of a wait that is not monotone (encode/wait_values.h), on concrete times.
bool value_wait_passes(const LoweredProgram& p, const WaitRule& w, const Times& t,
                       uint32_t dropped) {
  const auto& ws = w.word.writers;
  const long long poll = t[w.wait];
  // An interleaving: no writer at the poll's time, no two writers of one part at one time.
  std::vector<uint32_t> by_time(ws.size());
  for (uint32_t k = 0; k < ws.size(); ++k) {
    if (t[ws[k].ev] == poll) return false;
    by_time[k] = k;
  }
  std::sort(by_time.begin(), by_time.end(),
            [&](uint32_t a, uint32_t b) { return t[ws[a].ev] < t[ws[b].ev]; });
  for (size_t i = 0; i < by_time.size(); ++i)
    for (size_t j = i + 1; j < by_time.size() && t[ws[by_time[j]].ev] == t[ws[by_time[i]].ev];
         ++j) {
      const WaitWriter& a = ws[by_time[i]];
      const WaitWriter& b = ws[by_time[j]];
      if ((a.parts & b.parts) && a.ev != b.ev) return false;
    }
  // Each part's possible states: work landed (any value), else the latest value writes that
  // landed (several only when one event writes the part twice), else the initial value.
  std::array<std::vector<int>, 2> states;
  for (size_t part = 0; part < w.word.parts; ++part) {
    bool work = false;
    long long latest = 0;
    std::vector<int> at_latest;
    for (uint32_t k = 0; k < ws.size(); ++k) {
      if (!(ws[k].parts >> part & 1u) || t[ws[k].ev] >= poll) continue;
      if (ws[k].kind == WaitWriter::Kind::Work) {
        work = true;
      } else if (at_latest.empty() || t[ws[k].ev] > latest) {
        latest = t[ws[k].ev], at_latest = {static_cast<int>(k)};
      } else if (t[ws[k].ev] == latest) {
        at_latest.push_back(static_cast<int>(k));
      }
    }
    states[part] = work                ? std::vector<int>{kUnknownPart}
                   : at_latest.empty() ? std::vector<int>{kInitialPart}
                                       : at_latest;
  }
  const ValueConfig cfg = value_config(p.config.assumptions, dropped);
  std::array<int, 2> st{kInitialPart, kInitialPart};
  for (int s0 : states[0]) {
    st[0] = s0;
    if (w.word.parts == 1) {
      if (poll_outcome(w.word, std::span<const int>(st.data(), 1), cfg).can_sat) return true;
      continue;
    }
    for (int s1 : states[1]) {
      st[1] = s1;
      if (poll_outcome(w.word, std::span<const int>(st.data(), 2), cfg).can_sat) return true;
    }
  }
  return false;
}

}  // namespace

bool is_execution(const LoweredProgram& p, const Times& t, uint32_t dropped) {
  const uint32_t holds = held(p, dropped);
  for (const Order& o : p.orders) {
    if (o.guard.id && (holds >> static_cast<int>(*o.guard.id) & 1u) != o.guard.when) continue;
    if (!(t[o.before] < t[o.after])) return false;
  }
  for (const WaitRule& w : p.waits) {
    if (!w.monotone) {
      if (!value_wait_passes(p, w, t, dropped)) return false;
      continue;
    }
    // The candidate rule, unless the first poll may pass or it rests on an assumption that does
    // not hold.
    if (w.initial.can_sat || (w.rests() & ~holds) != 0) continue;
    if (std::none_of(w.candidates.begin(), w.candidates.end(),
                     [&](EventId c) { return t[c] < t[w.wait]; }))
      return false;
  }
  return true;
}

}  // namespace syncproof::properties
