// What a value write leaves in the word a wait polls (model/wait_value.h).
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "model/wait_value.h"

using namespace syncproof::model;

TEST_CASE("value_writer: a 64-bit write gives each dword of the word it covers its half") {
  // Little-endian: the low dword lands at the destination, the high one 4 bytes on.
  auto w = value_writer(0x1004, 4, 0x1000, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Value);
  CHECK(w->parts == 1);
  CHECK(w->value[0] == 2);
  w = value_writer(0x1000, 8, 0x1000, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->parts == 3);
  CHECK(w->value[0] == 1);
  CHECK(w->value[1] == 2);
  CHECK_FALSE(value_writer(0x1008, 4, 0x1000, 8, 1, WriteValueSource::Value, 7));
}

// Found by the libFuzzer target: the linter asks about the waits of a case whose label is not
// 4-byte aligned (its own error), and the dword offset went negative (a shift by 2^64 - 32).
TEST_CASE("value_writer: a misaligned word shares part of a dword, and its value is unknown") {
  auto w = value_writer(0x1000, 8, 0x1007, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Work);
  CHECK(w->parts == 2);  // bytes 0x1007.. touch only the dword at 0x1004
  w = value_writer(0x1002, 4, 0x1000, 8, 5, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Work);
  CHECK(w->parts == 1);
}

namespace {

bool same(const WaitValues& a, const WaitValues& b) {
  return a.may == b.may && a.must == b.must && a.initial.can_sat == b.initial.can_sat &&
         a.initial.can_fail == b.initial.can_fail && a.trivially_monotone == b.trivially_monotone &&
         a.overflow == b.overflow;
}

// A word of one or two parts with random writers: known values near the reference, timestamps,
// work; sometimes so many that the states overflow.
PolledWord random_word(std::mt19937_64& rng) {
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  PolledWord w;
  w.parts = static_cast<uint8_t>(1 + pick(2));
  w.part_bits = w.parts == 1 ? (pick(2) ? 64 : 32) : 32;
  w.cmp = static_cast<Comparison>(pick(8));
  w.ref = pick(5);
  std::vector<WaitWriter> writers;
  const uint32_t n = pick(10) == 0 ? 150 + pick(20) : pick(6);
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t kind = pick(10);
    WaitWriter x{k,
                 kind < 6   ? WaitWriter::Kind::Value
                 : kind < 8 ? WaitWriter::Kind::Timestamp
                            : WaitWriter::Kind::Work,
                 static_cast<uint8_t>(w.parts == 1 ? 1 : 1 + pick(3)),
                 {pick(5), pick(3)},
                 pick(2) == 0};
    if (x.kind == WaitWriter::Kind::Timestamp && w.parts == 1 && pick(2)) x.whole64 = true;
    writers.push_back(x);
  }
  w.writers = std::move(writers);
  w.too_many_states = too_many_poll_states(w);
  return w;
}

}  // namespace

TEST_CASE("analyze_again, may_pass_after_a_write, too_many_poll_states: as the full walk") {
  std::mt19937_64 rng(11);
  const ValueConfig configs[] = {{true, true}, {true, false}, {false, true}, {false, false}};
  size_t shortcuts = 0, overflows = 0;
  for (int i = 0; i < 4000; ++i) {
    const PolledWord w = random_word(rng);
    CHECK(w.too_many_states == !for_each_poll_state(w, [](std::span<const int>) {}));
    overflows += w.too_many_states;
    for (ValueConfig from : configs) {
      const WaitValues base = analyze(w, from);
      for (ValueConfig to : configs) {
        const WaitValues full = analyze(w, to);
        CHECK(same(analyze_again(w, base, to), full));
        if (!w.writers.empty()) CHECK(may_pass_after_a_write(w, to) == !full.may.empty());
      }
    }
    shortcuts += w.parts == 1 && std::none_of(w.writers.begin(), w.writers.end(), [](auto& x) {
                   return x.kind == WaitWriter::Kind::Timestamp;
                 });
  }
  // Both paths of analyze_again are taken, and some words overflow.
  CHECK(shortcuts > 500);
  CHECK(overflows > 20);
}

namespace {

// analyze() as wait_value.h defines it, from every state for_each_poll_state gives.
WaitValues reference_analyze(const PolledWord& w, ValueConfig cfg) {
  WaitValues out;
  std::vector<uint8_t> may(w.writers.size(), 0), must(w.writers.size(), 0);
  const bool walked = for_each_poll_state(w, [&](std::span<const int> st) {
    const PollOutcome o = poll_outcome(w, st, cfg);
    if (std::all_of(st.begin(), st.end(), [](int x) { return x == kInitialPart; })) {
      out.initial = o;
      return;
    }
    out.trivially_monotone = out.trivially_monotone && !o.can_fail;
    for (size_t i = 0; i < st.size(); ++i)
      for (size_t k = 0; k < w.writers.size(); ++k) {
        const bool work_there = st[i] == kUnknownPart &&
                                w.writers[k].kind == WaitWriter::Kind::Work &&
                                ((w.writers[k].parts >> i) & 1u);
        if (st[i] != static_cast<int>(k) && !work_there) continue;
        may[k] |= o.can_sat;
        must[k] |= !o.can_fail;
      }
  });
  if (!walked) {
    out = {};
    out.overflow = true, out.trivially_monotone = false, out.initial = {true, true};
    for (uint32_t k = 0; k < w.writers.size(); ++k) out.may.push_back(k);
    return out;
  }
  for (uint32_t k = 0; k < w.writers.size(); ++k) {
    if (may[k]) out.may.push_back(k);
    if (must[k]) out.must.push_back(k);
  }
  return out;
}

// chain_monotone() as wait_value.h defines it, from poll_outcome along the chain.
bool reference_chain_monotone(const PolledWord& w, std::span<const uint32_t> chain,
                              ValueConfig cfg) {
  if (w.too_many_states || chain.size() != w.writers.size()) return false;
  for (const WaitWriter& x : w.writers)
    if (x.kind == WaitWriter::Kind::Work || x.parts != (1u << w.parts) - 1u) return false;
  bool may = false, must = false;
  for (size_t i = 0; i <= chain.size(); ++i) {
    const int s = i == 0 ? kInitialPart : static_cast<int>(chain[i - 1]);
    const std::array<int, 2> st{s, s};
    const PollOutcome o = poll_outcome(w, std::span<const int>(st.data(), w.parts), cfg);
    if ((may && !o.can_sat) || (must && o.can_fail)) return false;
    may = may || o.can_sat, must = must || !o.can_fail;
  }
  return true;
}

// may_pass_after_a_write by its definition: some state after a write (not every part initial)
// may pass, or there are too many states to tell.
bool reference_may_pass(const PolledWord& w, ValueConfig c) {
  bool may = false;
  const bool ok = for_each_poll_state(w, [&](std::span<const int> st) {
    const bool initial = std::all_of(st.begin(), st.end(), [](int x) { return x == kInitialPart; });
    may = may || (!initial && poll_outcome(w, st, c).can_sat);
  });
  return !ok || may;
}

// A word whose writers all give every part a known value (fence signals, value writes of the
// whole word): the shape analyze() and chain_monotone() decide by one comparison per writer.
PolledWord random_known_word(std::mt19937_64& rng) {
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  PolledWord w;
  w.parts = static_cast<uint8_t>(1 + pick(2));
  w.part_bits = w.parts == 1 ? (pick(2) ? 64 : 32) : 32;
  w.cmp = static_cast<Comparison>(pick(8));
  // Part 1 of a two-part reference near the values too, so that Equal can hold there.
  w.ref = pick(6) | (w.parts == 2 && pick(2) ? uint64_t{pick(2)} << 32 : 0);
  std::vector<WaitWriter> writers;
  // Up to 63 writers of two parts stay within kMaxPollStates (64 * 64 states); 64 do not.
  const uint32_t n = pick(8) == 0 ? 60 + pick(8) : pick(7);
  const uint8_t whole = static_cast<uint8_t>((1u << w.parts) - 1u);
  for (uint32_t k = 0; k < n; ++k)
    writers.push_back({k, WaitWriter::Kind::Value, whole, {pick(6), pick(2)}, false});
  w.writers = std::move(writers);
  w.too_many_states = too_many_poll_states(w);
  return w;
}

}  // namespace

TEST_CASE("analyze, analyze_again, chain_monotone: as their definitions over every poll state") {
  std::mt19937_64 rng(12);
  const ValueConfig configs[] = {{true, true}, {true, false}, {false, true}, {false, false}};
  size_t known = 0, known_overflows = 0, monotone = 0, not_monotone = 0;
  for (int i = 0; i < 6000; ++i) {
    const bool all_known = i % 2 == 0;
    const PolledWord w = all_known ? random_known_word(rng) : random_word(rng);
    known += all_known, known_overflows += all_known && w.too_many_states;
    std::vector<uint32_t> chain(w.writers.size());
    for (uint32_t k = 0; k < chain.size(); ++k) chain[k] = k;
    const bool in_order = rng() % 2;
    if (!in_order) std::shuffle(chain.begin(), chain.end(), rng);
    // Along the writers' own order, ChainMonotone may read which writers pass from an analysis.
    const WaitValues first = analyze(w, configs[rng() % 4]);
    const ChainMonotone hinted(w, chain, in_order ? &first : nullptr);
    for (ValueConfig c : configs) {
      CAPTURE(i);
      CHECK(same(analyze(w, c), reference_analyze(w, c)));
      CHECK(may_pass_after_a_write(w, c) == reference_may_pass(w, c));
      const bool m = chain_monotone(w, chain, c);
      CHECK(m == reference_chain_monotone(w, chain, c));
      CHECK(hinted(c) == m);
      CHECK(same(analyze_again(w, first, c), reference_analyze(w, c)));
      (m ? monotone : not_monotone) += 1;
    }
  }
  // Both shapes, words of known values that overflow, and both answers of chain_monotone.
  CHECK(known == 3000);
  CHECK(known_overflows > 50);
  CHECK(monotone > 1000);
  CHECK(not_monotone > 1000);
}
