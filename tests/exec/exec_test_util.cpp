#include "exec_test_util.h"

#include <algorithm>
#include <numeric>

namespace syncproof::exec::testing {

using namespace model;
using properties::Obligation;

namespace {

// The value each wait's word holds after the writes in `seq` (its own bookkeeping, not the
// executor's), and whether a poll of it may pass or may fail.
PollOutcome poll(const LoweredProgram& p, const WaitRule& w, const std::vector<EventId>& seq) {
  std::vector<uint32_t> landed;
  for (EventId e : seq)
    for (uint32_t k = 0; k < w.word.writers.size(); ++k)
      if (w.word.writers[k].ev == e) landed.push_back(k);
  const std::vector<int> st = state_after(w.word, landed);
  return poll_outcome(w.word, st, value_config(p.config.assumptions));
}

// A wait fires only at a poll that may pass (safety and deadlock alike: the exact rule).
bool can_fire(const LoweredProgram& p, EventId e, const std::vector<char>& done,
              const std::vector<EventId>& seq) {
  if (done[e]) return false;
  for (const Order& o : p.orders)
    if (o.after == e && !done[o.before]) return false;
  for (const WaitRule& w : p.waits)
    if (w.wait == e && !poll(p, w, seq).can_sat) return false;
  return true;
}

// A state may last although events are left: every event that can fire is a wait whose poll may
// also fail (it may keep missing).
bool may_stay_stuck(const LoweredProgram& p, const std::vector<char>& done,
                    const std::vector<EventId>& seq) {
  if (seq.size() == p.events.size()) return false;
  for (EventId e = 0; e < p.events.size(); ++e) {
    if (!can_fire(p, e, done, seq)) continue;
    bool waits = false, may_fail = true;
    for (const WaitRule& w : p.waits)
      if (w.wait == e) waits = true, may_fail = may_fail && poll(p, w, seq).can_fail;
    if (!waits || !may_fail) return false;
  }
  return true;
}

bool rec(const LoweredProgram& p, std::vector<char>& done, std::vector<EventId>& seq,
         const std::function<bool(const std::vector<EventId>&)>& visit) {
  if (seq.size() == p.events.size()) return !visit(seq);
  for (EventId e = 0; e < p.events.size(); ++e) {
    if (!can_fire(p, e, done, seq)) continue;
    done[e] = 1, seq.push_back(e);
    bool go_on = rec(p, done, seq, visit);
    done[e] = 0, seq.pop_back();
    if (!go_on) return false;
  }
  return true;
}

std::pair<uint64_t, uint64_t> lines_of(const Obligation& o) {
  switch (o.kind) {
    case Obligation::Kind::Fresh:
      return {o.fresh.lo, o.fresh.hi};
    case Obligation::Kind::WriteOrder:
      return {o.waw.lo, o.waw.hi};
    case Obligation::Kind::ReadFirst:
      return {o.war.lo, o.war.hi};
    default:
      return {0, 0};
  }
}

Coverage random_coverage(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0:
      return {Coverage::Kind::Nothing, 0, 0};
    case 1: {
      uint64_t lo = rng() % 4;
      return {Coverage::Kind::Range, lo, lo + rng() % 3};
    }
    case 2: {
      uint64_t lo = rng() % 3;
      Coverage m{Coverage::Kind::Margin, lo, lo + rng() % 3};
      m.span = static_cast<uint8_t>(1 + rng() % 2);  // 64-byte (I$) or 128-byte lines
      return m;
    }
    default:
      return {};
  }
}

}  // namespace

bool for_each_interleaving(const LoweredProgram& p,
                           const std::function<bool(const std::vector<EventId>&)>& visit) {
  std::vector<char> done(p.events.size(), 0);
  std::vector<EventId> seq;
  return rec(p, done, seq, visit);
}

bool naive_violated(const LoweredProgram& p, const Obligation& o) {
  const auto lines = lines_of(o);  // (not a structured binding: clang 14 cannot capture one)
  const auto lo = lines.first, hi = lines.second;
  bool found = false;
  for_each_interleaving(p, [&](const std::vector<EventId>& seq) {
    properties::Times t(p.events.size());
    for (size_t i = 0; i < seq.size(); ++i) t[seq[i]] = static_cast<long long>(i + 1);
    for (uint64_t u = lo; u <= hi && !found; ++u) found = properties::monitor(p, o, t, u).violated;
    return found;
  });
  return found;
}

bool naive_deadlock(const LoweredProgram& p) {
  std::vector<char> done(p.events.size(), 0);
  std::vector<EventId> seq;
  std::function<bool()> go = [&]() {
    if (may_stay_stuck(p, done, seq)) return true;
    for (EventId e = 0; e < p.events.size(); ++e) {
      if (!can_fire(p, e, done, seq)) continue;
      done[e] = 1, seq.push_back(e);
      bool stuck = go();
      done[e] = 0, seq.pop_back();
      if (stuck) return true;
    }
    return false;
  };
  return go();
}

Synthetic::Synthetic(uint64_t seed, int n) {
  std::mt19937_64 rng(seed);
  auto coin = [&](int percent) { return static_cast<int>(rng() % 100) < percent; };
  const int density = 15 + static_cast<int>(seed % 6) * 15;  // percent of event pairs ordered
  c.file = "synthetic.sync";
  c.resources.push_back({"x", ResourceKind::Buffer, 0, 0x100, false, {}});
  for (int q = 0; q < 2; ++q) {
    Queue queue{q == 0 ? "a" : "b", QueueType::Compute, {}, {}};
    for (int i = 0; i < 3; ++i)
      queue.commands.push_back({"", WorkCmd{}, {static_cast<uint32_t>(10 * q + i + 1), 1}});
    c.queues.push_back(queue);
  }
  p.source = &c;
  p.commands.resize(2);
  for (uint32_t q = 0; q < 2; ++q)
    for (uint32_t i = 0; i < 3; ++i) p.commands[q].push_back({q, i, kNoEvent, kNoEvent, {}, {}});
  // Events in a hidden topological order `topo`: orders only go forwards in it.
  std::vector<EventId> topo(n);
  std::iota(topo.begin(), topo.end(), 0);
  std::shuffle(topo.begin(), topo.end(), rng);
  for (int e = 0; e < n; ++e) {
    uint32_t q = rng() % 2, cmd = rng() % 3;
    p.events.push_back({EventKind::SyncStep, q, cmd, "event " + std::to_string(e)});
    p.commands[q][cmd].events.push_back(static_cast<EventId>(e));
  }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (coin(density)) {
        // A quarter of the orders rest on an assumption (all on in the default profile).
        static const AssumptionId kIds[] = {AssumptionId::WaveEndStoresInGl2,
                                            AssumptionId::GcrOuterFirst, AssumptionId::BopFifo};
        Guard g;
        if (coin(25)) g.id = kIds[rng() % 3];
        p.orders.push_back({topo[i], topo[j], g, Rule::CpOrder});
      }
  // Waits on one 64-bit word each, written by one to three events with small values: with
  // EQUAL, and with values below the reference, a later write can hide an earlier one (value
  // rules); otherwise they are monotone.
  for (int k = rng() % 3; k > 0; --k) {
    WaitRule w;
    w.wait = static_cast<EventId>(rng() % n);
    w.word.cmp = coin(50) ? Comparison::GreaterEqual : Comparison::Equal;
    w.word.ref = coin(20) ? 0 : 1 + rng() % 2;
    for (int m = 1 + rng() % 3; m > 0; --m) {
      auto ev = static_cast<EventId>(rng() % n);
      if (ev == w.wait) continue;
      w.word.writers.push_back({ev, WaitWriter::Kind::Value, 1, {rng() % 4, 0}, false});
    }
    w.cmp = w.word.cmp, w.value = w.word.ref;
    const WaitValues vals = analyze(w.word, value_config(p.config.assumptions));
    for (uint32_t i : vals.may) w.candidates.push_back(w.word.writers[i].ev);
    for (uint32_t i : vals.must) w.must_list.push_back(w.word.writers[i].ev);
    w.zero_satisfies = vals.initial.can_sat;
    w.monotone = vals.trivially_monotone;
    p.waits.push_back(w);
  }
  for (int k = 3 + rng() % 5; k > 0; --k) {
    auto ev = static_cast<EventId>(rng() % n);
    p.cache_ops.push_back({ev, Level::Gl2, true, true, random_coverage(rng), "OP", std::nullopt});
  }
  auto access = [&](bool write) {
    MemAccess m{};
    m.ev = static_cast<EventId>(rng() % n);
    m.arrive = write ? static_cast<EventId>(rng() % n) : kNoEvent;
    if (m.arrive == m.ev) m.arrive = (m.ev + 1) % n;
    m.queue = p.events[m.ev].queue, m.cmd = p.events[m.ev].cmd;
    m.lo = 0, m.hi = 3, m.write = write;
    m.kind = write ? AccessKind::Uav : AccessKind::Srv;
    m.stage = Stage::Cs;
    m.path.push(Level::Gl2), m.path.push(Level::Mem);
    p.accesses.push_back(m);
  };
  access(true), access(true), access(false);  // accesses 0, 1: writes; 2: read
  if (p.accesses[2].ev == p.accesses[0].arrive) p.accesses[2].ev = p.accesses[0].ev;
  auto steps = [&](int k) {
    std::vector<properties::Step> s;
    for (int j = 0; j < k; ++j) {
      properties::Step st{Level::Gl2, j % 2 == 0, {}};
      for (uint32_t oi = 0; oi < p.cache_ops.size(); ++oi)
        if (coin(45)) st.ops.push_back(oi);
      s.push_back(st);
    }
    return s;
  };
  Obligation fresh{
      Obligation::Kind::Fresh, "fresh", {0, 2, 0, 3, steps(rng() % 4)}, {}, {}, {}, {}};
  Obligation waw{Obligation::Kind::WriteOrder,
                 "waw",
                 {},
                 {},
                 {0, 1, 0, 3, steps(rng() % 3), steps(rng() % 3)},
                 {},
                 {}};
  Obligation war{Obligation::Kind::ReadFirst,    "war", {}, {}, {},
                 {2, 1, 0, 3, steps(rng() % 3)}, {}};
  Obligation ord{Obligation::Kind::Ordered, "ordered", {}, {}, {}, {}, {}};
  for (int k = 1 + rng() % 3; k > 0; --k)
    ord.ordering.before.push_back(static_cast<EventId>(rng() % n));
  for (int k = 1 + rng() % 2; k > 0; --k)
    ord.ordering.after.push_back(static_cast<EventId>(rng() % n));
  obligations = {fresh, waw, war, ord};
}

}  // namespace syncproof::exec::testing
