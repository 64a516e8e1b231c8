// One poll of a wait: which values its word may hold, given which write each part holds, and
// whether the comparison can hold or fail on them (see wait_value.h).
#include "model/wait_value.h"

#include <algorithm>

namespace syncproof::model {

ValueConfig value_config(const AssumptionSet& a, uint32_t dropped) {
  auto on = [&](AssumptionId id) {
    return a.enabled(id) && !(dropped & (1u << static_cast<int>(id)));
  };
  return {on(AssumptionId::InitialZero), on(AssumptionId::TimestampNonzero)};
}

namespace {

// The set of values the polled word may hold: per part a known value or "any", and whether 0 is
// excluded (a whole 64-bit timestamp under A-TIMESTAMP-NONZERO).
struct ValueSet {
  uint8_t parts, bits;
  std::array<bool, 2> known{};
  std::array<uint64_t, 2> val{};
  bool nonzero = false;

  uint64_t part_max() const { return bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1; }
  uint64_t compose(uint64_t p0, uint64_t p1) const { return parts == 1 ? p0 : (p0 | (p1 << bits)); }
  uint64_t min() const {
    uint64_t m = compose(known[0] ? val[0] : 0, known[1] ? val[1] : 0);
    return nonzero && m == 0 ? 1 : m;
  }
  uint64_t max() const {
    return compose(known[0] ? val[0] : part_max(), known[1] ? val[1] : part_max());
  }
  bool many() const { return !known[0] || (parts == 2 && !known[1]); }
  bool contains(uint64_t x) const {
    if (nonzero && x == 0) return false;
    const uint64_t p0 = parts == 1 ? x : x & part_max(), p1 = parts == 1 ? 0 : x >> bits;
    if (parts == 2 && (x >> bits) > part_max()) return false;  // wider than the word
    return (!known[0] || val[0] == p0) && (parts == 1 || !known[1] || val[1] == p1);
  }
};

PollOutcome outcome(Comparison c, uint64_t ref, const ValueSet& s) {
  switch (c) {
    case Comparison::Never:
      return {false, true};
    case Comparison::Always:
      return {true, false};
    case Comparison::Less:
      return {s.min() < ref, s.max() >= ref};
    case Comparison::LessEqual:
      return {s.min() <= ref, s.max() > ref};
    case Comparison::Greater:
      return {s.max() > ref, s.min() <= ref};
    case Comparison::GreaterEqual:
      return {s.max() >= ref, s.min() < ref};
    case Comparison::Equal:
      return {s.contains(ref), s.many() || !s.contains(ref)};
    case Comparison::NotEqual:
      return {s.many() || !s.contains(ref), s.contains(ref)};
  }
  return {true, true};
}

bool covers(const WaitWriter& w, size_t part) {
  return (w.parts >> part) & 1u;
}

// A word every writer of which gives every part a known value (fence signals, label value writes
// of the whole word), with few enough states to walk: every state but the initial one is one
// writer's value in all parts (possible() rules out mixing two writers, or a writer and the
// initial value), so a poll there is one comparison with a known value (known_passes). The
// analyses below take this path for what would otherwise be a ValueSet per writer per wait.
bool plain(const PolledWord& w) {
  if (w.too_many_states) return false;
  const uint8_t whole = static_cast<uint8_t>((1u << w.parts) - 1u);
  for (const WaitWriter& x : w.writers)
    if (x.kind != WaitWriter::Kind::Value || x.parts != whole) return false;
  size_t total = 1;  // part_options' count: the initial value and every writer, per part
  for (size_t i = 0; i < w.parts; ++i) total *= w.writers.size() + 1;
  return total <= kMaxPollStates;
}

// For a plain word: f(k, pass) for writers order[0], order[1], ... in turn (every writer in index
// order when `all`), `pass` whether a poll of the word holding writer k's value passes: what
// outcome() gives for a ValueSet that knows every part (min() == max() == the value, no
// timestamp), a pass or a fail for certain. The comparison is chosen once, not per writer: a
// frame's waits on one fence each look at most of its signals, in every lowering and in the
// executor's rules.
template <class F>
void known_passes(const PolledWord& w, std::span<const uint32_t> order, bool all, F f) {
  const WaitWriter* x = w.writers.items().data();
  const size_t n = all ? w.writers.size() : order.size();
  const uint64_t ref = w.ref;
  auto walk = [&](auto pass) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t k = all ? static_cast<uint32_t>(i) : order[i];
      const uint64_t v =
          w.parts == 1 ? x[k].value[0] : x[k].value[0] | (x[k].value[1] << w.part_bits);
      f(k, pass(v));
    }
  };
  switch (w.cmp) {
    case Comparison::Never:
      return walk([](uint64_t) { return false; });
    case Comparison::Always:
      return walk([](uint64_t) { return true; });
    case Comparison::Less:
      return walk([ref](uint64_t v) { return v < ref; });
    case Comparison::LessEqual:
      return walk([ref](uint64_t v) { return v <= ref; });
    case Comparison::Greater:
      return walk([ref](uint64_t v) { return v > ref; });
    case Comparison::GreaterEqual:
      return walk([ref](uint64_t v) { return v >= ref; });
    case Comparison::Equal:
      return walk([ref](uint64_t v) { return v == ref; });
    case Comparison::NotEqual:
      return walk([ref](uint64_t v) { return v != ref; });
  }
}

// Whether a combination of part states can occur: a writer of several parts gives them all its
// value at once, so no other part it wrote can still be initial, nor hold another writer of both.
bool possible(const PolledWord& w, std::span<const int> st) {
  for (size_t i = 0; i < st.size(); ++i)
    for (size_t j = 0; j < st.size(); ++j) {
      if (i == j) continue;
      if (st[i] >= 0) {
        const WaitWriter& a = w.writers[static_cast<size_t>(st[i])];
        if (!covers(a, j)) continue;
        if (st[j] == kInitialPart) return false;
        if (st[j] >= 0 && st[j] != st[i] && covers(w.writers[static_cast<size_t>(st[j])], i))
          return false;
      } else if (st[i] == kUnknownPart && st[j] == kInitialPart) {
        const bool some = std::any_of(w.writers.begin(), w.writers.end(), [&](const WaitWriter& x) {
          return x.kind == WaitWriter::Kind::Work && covers(x, i) && !covers(x, j);
        });
        if (!some) return false;
      }
    }
  return true;
}

}  // namespace

uint8_t parts_touched(uint64_t wait, unsigned wait_bytes, uint64_t lo, uint64_t hi) {
  uint8_t parts = 0;
  for (unsigned i = 0; i < wait_bytes / 4; ++i) {
    const uint64_t a = wait + 4 * i, b = a + 3;
    if (lo <= b && a <= hi) parts |= static_cast<uint8_t>(1u << i);
  }
  return parts;
}

std::optional<WaitWriter> value_writer(uint64_t wait, unsigned wait_bytes, uint64_t dest,
                                       unsigned dest_bytes, uint64_t value, WriteValueSource source,
                                       EventId ev) {
  const uint8_t parts = parts_touched(wait, wait_bytes, dest, dest + dest_bytes - 1);
  if (!parts) return std::nullopt;
  WaitWriter w{ev, WaitWriter::Kind::Value, parts, {}, false};
  // A misaligned word (the linter's error: both APIs need 4-byte alignment, and it still asks
  // about the waits of such a case) shares only some bytes of a dword: what it leaves there is
  // not one of the write's dwords, so take it as unknown.
  if (wait % 4 != 0 || dest % 4 != 0) {
    w.kind = WaitWriter::Kind::Work;
    return w;
  }
  if (source != WriteValueSource::Value) {
    w.kind = WaitWriter::Kind::Timestamp;
    w.whole64 = dest == wait && dest_bytes == 8 && wait_bytes == 8;
    return w;
  }
  // Part i of the polled word is the write's dword at byte offset wait + 4i - dest.
  for (unsigned i = 0; i < wait_bytes / 4; ++i)
    if (parts >> i & 1u) {
      const uint64_t off = (wait + 4 * i - dest) / 4;
      w.value[i] = (value >> (32 * off)) & 0xFFFFFFFFu;
    }
  return w;
}

PollOutcome poll_outcome(const PolledWord& w, std::span<const int> state, ValueConfig cfg) {
  if (w.too_many_states) return {true, true};
  ValueSet s{w.parts, w.part_bits};
  for (size_t i = 0; i < w.parts; ++i) {
    const int st = state[i];
    if (st == kInitialPart) {
      s.known[i] = cfg.initial_zero, s.val[i] = 0;
    } else if (st >= 0) {
      const WaitWriter& wr = w.writers[static_cast<size_t>(st)];
      s.known[i] = wr.kind == WaitWriter::Kind::Value;
      s.val[i] = wr.value[i];
    }  // kUnknownPart: any value
  }
  // A whole 64-bit timestamp is not 0 (A-TIMESTAMP-NONZERO): one writer gave the word all of it.
  if (cfg.timestamp_nonzero && state[0] >= 0) {
    const WaitWriter& wr = w.writers[static_cast<size_t>(state[0])];
    const bool whole =
        wr.kind == WaitWriter::Kind::Timestamp && wr.whole64 &&
        std::all_of(state.begin(), state.begin() + w.parts, [&](int x) { return x == state[0]; });
    s.nonzero = whole;
  }
  return outcome(w.cmp, w.ref, s);
}

namespace {

// The options of each part: initial, every value writer of it, and "unknown" when work writes it.
struct PartOptions {
  std::array<std::vector<int>, 2> options;
  size_t total = 1;  // their product, counted up to the first part that passes kMaxPollStates
};
PartOptions part_options(const PolledWord& w) {
  PartOptions out;
  for (size_t i = 0; i < w.parts; ++i) {
    std::vector<int>& o = out.options[i];
    o.push_back(kInitialPart);
    bool work = false;
    for (size_t k = 0; k < w.writers.size(); ++k) {
      if (!covers(w.writers[k], i)) continue;
      if (w.writers[k].kind == WaitWriter::Kind::Work)
        work = true;
      else
        o.push_back(static_cast<int>(k));
    }
    if (work) o.push_back(kUnknownPart);
    out.total *= o.size();
    if (out.total > kMaxPollStates) return out;
  }
  return out;
}

// Calls f on every possible state (all parts initial first) while it returns true. False when
// there are too many states (then f is never called).
template <class F>
bool walk_states(const PolledWord& w, F&& f) {
  const PartOptions po = part_options(w);
  if (po.total > kMaxPollStates) return false;
  std::array<int, 2> st{};
  if (w.parts == 1) {  // every option is a state: possible() has no pair of parts to compare
    for (int o : po.options[0])
      if (st[0] = o; !f(std::span<const int>(st.data(), 1))) break;
    return true;
  }
  for (int a : po.options[0])
    for (int b : po.options[1]) {
      st = {a, b};
      const std::span<const int> span(st.data(), 2);
      if (possible(w, span) && !f(span)) return true;
    }
  return true;
}

}  // namespace

bool too_many_poll_states(const PolledWord& w) {
  return part_options(w).total > kMaxPollStates;
}

bool for_each_poll_state(const PolledWord& w, const std::function<void(std::span<const int>)>& f) {
  return walk_states(w, [&](std::span<const int> st) {
    f(st);
    return true;
  });
}

bool may_pass_after_a_write(const PolledWord& w, ValueConfig cfg) {
  bool may = false;
  if (plain(w)) {
    // Each state but the initial one is one writer's known value (analyze's shortcut): the
    // linter asks this of every label wait, and a frame's label is written once a block
    // (150,000 instructions a wait through the states at 50,000 commands).
    known_passes(w, {}, true, [&](uint32_t, bool pass) { may = may || pass; });
    return may;
  }
  const bool ok = walk_states(w, [&](std::span<const int> st) {
    const bool initial = std::all_of(st.begin(), st.end(), [](int x) { return x == kInitialPart; });
    may = !initial && poll_outcome(w, st, cfg).can_sat;
    return !may;
  });
  return !ok || may;
}

WaitValues analyze(const PolledWord& w, ValueConfig cfg) {
  WaitValues out;
  if (plain(w)) {  // the states in walk_states' order: the initial one, then each writer's
    const std::array<int, 2> initial{kInitialPart, kInitialPart};
    out.initial = poll_outcome(w, std::span<const int>(initial.data(), w.parts), cfg);
    // A known value passes or fails for certain, so a writer may pass exactly when it must.
    out.may.reserve(w.writers.size());
    known_passes(w, {}, true, [&](uint32_t k, bool pass) {
      if (pass) out.may.push_back(k);
    });
    out.trivially_monotone = out.may.size() == w.writers.size();
    out.must = out.may;
    out.known = true;
    return out;
  }
  // Membership by writer, so that a word with many writers (a fence signalled at every frame)
  // costs linear time rather than a search of the list per state.
  std::vector<uint8_t> may(w.writers.size(), 0), must(w.writers.size(), 0);
  const bool ok = walk_states(w, [&](std::span<const int> st) {
    const PollOutcome o = poll_outcome(w, st, cfg);
    if (std::all_of(st.begin(), st.end(), [](int x) { return x == kInitialPart; })) {
      out.initial = o;
      return true;
    }
    if (o.can_fail) out.trivially_monotone = false;
    for (int k : st) {
      if (k < 0) continue;
      if (o.can_sat) may[static_cast<size_t>(k)] = 1;
      if (!o.can_fail) must[static_cast<size_t>(k)] = 1;
    }
    // A part that work wrote: every work writer of it may have put it there.
    for (size_t i = 0; i < st.size(); ++i)
      if (st[i] == kUnknownPart)
        for (size_t k = 0; k < w.writers.size(); ++k)
          if (w.writers[k].kind == WaitWriter::Kind::Work && covers(w.writers[k], i)) {
            if (o.can_sat) may[k] = 1;
            if (!o.can_fail) must[k] = 1;
          }
    return true;
  });
  if (!ok) {
    out = {};
    out.overflow = true;
    out.trivially_monotone = false;
    out.initial = {true, true};
    for (uint32_t k = 0; k < w.writers.size(); ++k) out.may.push_back(k);
    return out;
  }
  for (uint32_t k = 0; k < w.writers.size(); ++k) {
    if (may[k]) out.may.push_back(k);
    if (must[k]) out.must.push_back(k);
  }
  return out;
}

bool only_first_poll_depends(const PolledWord& w, const WaitValues* v) {
  // With one part, a state other than the first is one writer's value (or unknown), which no
  // value assumption touches unless it is a timestamp (A-TIMESTAMP-NONZERO); with known values,
  // one writer's known value.
  if (v ? v->known : plain(w)) return true;
  return w.parts == 1 && std::none_of(w.writers.begin(), w.writers.end(), [](const WaitWriter& x) {
           return x.kind == WaitWriter::Kind::Timestamp;
         });
}

WaitValues analyze_again(const PolledWord& w, const WaitValues& v, ValueConfig cfg) {
  if (!only_first_poll_depends(w, &v)) return analyze(w, cfg);
  WaitValues out = v;
  if (!out.overflow) {
    const std::array<int, 2> initial{kInitialPart, kInitialPart};
    out.initial = poll_outcome(w, std::span<const int>(initial.data(), w.parts), cfg);
  }
  return out;
}

bool determinate(const WaitValues& v) {
  return determinate(v, v.initial);
}

bool determinate(const WaitValues& v, const PollOutcome& first) {
  return first.can_sat != first.can_fail && v.may == v.must;
}

bool chain_monotone(const PolledWord& w, std::span<const uint32_t> chain, ValueConfig cfg) {
  return ChainMonotone(w, chain)(cfg);
}

ChainMonotone::ChainMonotone(const PolledWord& w, std::span<const uint32_t> chain,
                             const WaitValues* in_order)
    : w_(w),
      chain_(chain),
      known_((in_order ? in_order->known : plain(w)) && chain.size() == w.writers.size()) {
  // Each poll after the first passes or fails for certain (known_passes), whatever the
  // configuration.
  if (known_ && in_order) {
    // Along 0, 1, 2, ...: no writer fails after one passes when the passing ones are a suffix.
    const std::vector<uint32_t>& pass = in_order->may;
    const size_t n = w.writers.size();
    all_pass_ = pass.size() == n;
    closed_ = pass.empty() || (pass.back() == n - 1 && pass.size() == n - pass.front());
    return;
  }
  bool passed = false;
  closed_ = all_pass_ = true;
  if (known_)
    known_passes(w, chain, false, [&](uint32_t, bool pass) {
      if (!pass) closed_ = closed_ && !passed, all_pass_ = false;
      passed = passed || pass;
    });
}

bool ChainMonotone::operator()(ValueConfig cfg) const {
  const PolledWord& w = w_;
  const std::array<int, 2> initial{kInitialPart, kInitialPart};
  if (known_) {
    // The walk below on known values: a poll that fails after one that may or must pass breaks
    // it, and the first poll counts when it may pass or must pass.
    const PollOutcome o = poll_outcome(w, std::span<const int>(initial.data(), w.parts), cfg);
    return closed_ && (all_pass_ || (!o.can_sat && o.can_fail));
  }
  if (w.too_many_states || chain_.size() != w.writers.size()) return false;
  const uint8_t whole = static_cast<uint8_t>((1u << w.parts) - 1u);
  for (const WaitWriter& x : w.writers)
    if (x.kind == WaitWriter::Kind::Work || x.parts != whole) return false;
  std::array<int, 2> st = initial;
  bool may = false, must = false;  // some earlier state may pass / must pass
  for (size_t i = 0; i <= chain_.size(); ++i) {
    if (i > 0) st = {static_cast<int>(chain_[i - 1]), static_cast<int>(chain_[i - 1])};
    const PollOutcome o = poll_outcome(w, std::span<const int>(st.data(), w.parts), cfg);
    if ((may && !o.can_sat) || (must && o.can_fail)) return false;
    may = may || o.can_sat;
    must = must || !o.can_fail;
  }
  return true;
}

std::vector<uint32_t> writers_by_event(const PolledWord& w) {
  std::vector<uint32_t> order(w.writers.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return w.writers[a].ev < w.writers[b].ev; });
  return order;
}

std::vector<int> state_after(const PolledWord& w, std::span<const uint32_t> landed_order) {
  std::vector<int> st(w.parts, kInitialPart);
  for (uint32_t k : landed_order)
    for (size_t i = 0; i < w.parts; ++i)
      if (covers(w.writers[k], i) && st[i] != kUnknownPart)
        st[i] = w.writers[k].kind == WaitWriter::Kind::Work ? kUnknownPart : static_cast<int>(k);
  return st;
}

}  // namespace syncproof::model
