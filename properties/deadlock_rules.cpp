#include "properties/deadlock_rules.h"

#include <algorithm>
#include <optional>

namespace syncproof::properties {

using namespace model;

namespace {

// The assumptions that can matter to deadlock freedom: the value assumptions of the waits, and,
// when some wait is not monotone (then the order of the writes matters), every assumption that
// guards an order.
std::vector<AssumptionId> relevant(const LoweredProgram& p) {
  std::vector<AssumptionId> out;
  const auto& on = p.config.assumptions;
  bool timestamps = false, monotone = true;
  for (const WaitRule& w : p.waits) {
    monotone = monotone && w.deadlock_monotone();
    for (const WaitWriter& x : w.word.writers)
      timestamps = timestamps || x.kind == WaitWriter::Kind::Timestamp;
  }
  if (!p.waits.empty() && on.enabled(AssumptionId::InitialZero))
    out.push_back(AssumptionId::InitialZero);
  if (timestamps && on.enabled(AssumptionId::TimestampNonzero))
    out.push_back(AssumptionId::TimestampNonzero);
  auto add = [&](AssumptionId a) {
    if (on.enabled(a) && std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  // The orders that chain a wait's writers (model::chain_monotone) keep it monotone.
  for (const WaitRule& w : p.waits)
    for (int a = 0; a < kAssumptionCount; ++a)
      if (w.chain_guards & (1u << a)) add(static_cast<AssumptionId>(a));
  if (!monotone)
    for (const Order& o : p.orders)
      if (o.guard.id && o.guard.when) add(*o.guard.id);
  std::sort(out.begin(), out.end());
  return out;
}

// The assumptions about values (model/wait_value.h, ValueConfig): they reach the lowering only
// through its waits.
bool value_assumption(AssumptionId a) {
  return a == AssumptionId::InitialZero || a == AssumptionId::TimestampNonzero;
}

}  // namespace

std::vector<std::string> deadlock_assumptions(
    const Case& c, const LoweredProgram& p,
    const std::function<std::optional<bool>(const LoweredProgram&)>& proved) {
  std::vector<std::string> needed;
  std::vector<AssumptionId> tried;
  ModelConfig cfg = p.config;
  std::optional<LoweredProgram> current;  // the case under cfg, once an assumption is off
  auto hidden = [](const LoweredProgram& x) {
    return std::count_if(x.waits.begin(), x.waits.end(),
                         [](const WaitRule& w) { return !w.deadlock_monotone(); });
  };
  // What is relevant is asked of the program as it is now: with one assumption off, a wait's
  // writers may be chained through orders another one guards (A-BOP-FIFO off, the chain goes
  // through A-STD-FENCE-COHERENT), and that one must be tried too, or the list would leave out
  // what the proof rests on.
  for (;;) {
    const LoweredProgram& now = current ? *current : p;
    const std::vector<AssumptionId> rel = relevant(now);
    const auto next = std::find_if(rel.begin(), rel.end(), [&](AssumptionId a) {
      return std::find(tried.begin(), tried.end(), a) == tried.end();
    });
    if (next == rel.end()) break;
    const AssumptionId a = *next;
    tried.push_back(a);
    ModelConfig without = cfg;
    without.assumptions.set(a, false);
    // Without it some wait would no longer be monotone: deciding that explores the orders its
    // writers land in, exponential in their number. Keep the assumption (never under-reports).
    // A value assumption changes only the waits (WaitRule::deadlock_flips): their count is read
    // off without lowering again (a frame's lowering is a tenth of its SMT check).
    if (const uint32_t b = assumption_bit(a); value_assumption(a)) {
      const auto after = std::count_if(now.waits.begin(), now.waits.end(), [&](const WaitRule& w) {
        return w.deadlock_monotone() == !(w.deadlock_flips & b);
      });
      if (static_cast<long>(now.waits.size()) - after > hidden(now)) {
        needed.emplace_back(assumption(a).name);
        continue;
      }
    }
    LoweredProgram q = lower(c, without);
    if (hidden(q) > hidden(now)) {
      needed.emplace_back(assumption(a).name);
      continue;
    }
    if (proved(q) == std::optional<bool>(true)) {
      cfg = without;  // not needed: leave it off for the next ones
      current.emplace(std::move(q));
    } else {
      needed.emplace_back(assumption(a).name);  // needed, or undecided: never under-report
    }
  }
  std::sort(needed.begin(), needed.end());
  return needed;
}

namespace {
constexpr const char* kMayHang =
    "proved for the executions that complete, but the case may hang (a wait can miss the value it "
    "waits for: see deadlock-free), and executions that hang are not covered";
}  // namespace

Verdict unless_it_hangs(const Verdict& safety, const Verdict& deadlock) {
  if (!std::holds_alternative<Proved>(safety) || std::holds_alternative<Proved>(deadlock))
    return safety;
  return Unknown{kMayHang};
}

bool may_hang(const Verdict& v) {
  const auto* u = std::get_if<Unknown>(&v);
  return u && u->reason == kMayHang;
}

}  // namespace syncproof::properties
