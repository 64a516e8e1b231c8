// The lowering's last pass: what each wait polls, and whether its writers land in one order
// (model/wait_value.h), once every command is lowered and every writer of each word is known.
#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <queue>

#include "model/lower_impl.h"
#include "util/csr.h"

namespace syncproof::model::detail {

// What each wait polls (model/wait_value.h): every write of its word — value writes, work
// writing its bytes (an unknown value from its arrival on), fence signals — and, under the
// configuration, the writes after which a poll may or must pass.
void Lowerer::resolve_waits() {
  const ValueConfig vcfg = value_config(cfg_.assumptions);
  // The waits on one word (an address and size, or a fence) share its list of writers, and what
  // depends on the writers alone: whether the parts have too many states, and the writers in
  // event order.
  struct WordFacts {
    util::SharedList<WaitWriter> writers;
    bool too_many_states = false;
    std::vector<uint32_t> by_event;
    bool in_order = false;  // by_event is 0, 1, 2, ...: the writers were made in event order
    // Whether the writers land in event order in every execution, and the guards of the
    // orders that say so: worked out for the first wait on the word that asks.
    std::optional<std::optional<uint32_t>> chain_guards;
  };
  std::map<std::pair<uint64_t, unsigned>, WordFacts> words;
  std::map<uint32_t, WordFacts> fences;
  for (const PendingWait& pw : pending_waits_) {
    WaitRule& w = out_.waits[pw.rule_index];
    PolledWord& word = w.word;
    word.cmp = w.cmp;
    word.ref = w.value;
    std::vector<WaitWriter> writers;
    bool fresh = false;
    WordFacts* facts = nullptr;
    if (pw.address) {
      const uint64_t a = *pw.address;
      word.parts = static_cast<uint8_t>(pw.bytes / 4), word.part_bits = 32;
      auto it = words.try_emplace({a, pw.bytes});
      facts = &it.first->second, fresh = it.second;
      if (fresh) {
        for (const ValueWriteRec& v : value_writes_)
          if (auto wr = value_writer(a, pw.bytes, v.address, v.bytes, v.value, v.source, v.ev))
            writers.push_back(*wr);
        for (const MemAccess& m : out_.accesses)
          if (m.write && m.kind != AccessKind::Label && m.plane == Plane::Data)
            if (uint8_t parts = parts_touched(a, pw.bytes, m.blo, m.bhi))
              writers.push_back({m.arrive, WaitWriter::Kind::Work, parts, {}, false});
      }
    } else {
      word.parts = 1, word.part_bits = 64;
      auto it = fences.try_emplace(w.object);
      facts = &it.first->second, fresh = it.second;
      if (fresh)
        for (const SignalRec& s : signals_)
          if (s.fence == w.object)
            writers.push_back({s.ev, WaitWriter::Kind::Value, 1, {s.value, 0}, false});
    }
    if (fresh) {
      word.writers = std::move(writers);
      facts->writers = word.writers;
      facts->too_many_states = too_many_poll_states(word);
      facts->by_event = writers_by_event(word);
      facts->in_order = true;
      for (uint32_t k = 0; k < facts->by_event.size(); ++k)
        facts->in_order = facts->in_order && facts->by_event[k] == k;
    }
    word.writers = facts->writers;
    word.too_many_states = facts->too_many_states;
    const WaitValues vals = analyze(word, vcfg);
    // The analysis with each value assumption flipped (A-INITIAL-ZERO, A-TIMESTAMP-NONZERO).
    // Where only the first poll depends on them, the lists and trivially_monotone are vals'
    // (analyze_again), and only those are compared here: not copied for each wait.
    const bool same_lists = only_first_poll_depends(word, &vals);
    std::array<WaitValues, 2> flipped_vals;
    std::array<ValueConfig, 2> flipped_cfg;
    for (int i = 0; i < 2; ++i) {
      const AssumptionId a = i == 0 ? AssumptionId::InitialZero : AssumptionId::TimestampNonzero;
      ValueConfig flipped = vcfg;
      (a == AssumptionId::InitialZero ? flipped.initial_zero : flipped.timestamp_nonzero) ^= true;
      flipped_cfg[i] = flipped;
      if (same_lists) continue;
      flipped_vals[i] = analyze(word, flipped);
      const WaitValues& other = flipped_vals[i];
      if (other.may != vals.may || other.must != vals.must ||
          other.trivially_monotone != vals.trivially_monotone)
        w.value_depends |= 1u << static_cast<int>(a);
    }
    // Writers on one queue that land in event order in every execution (a fence signalled 1, 2,
    // 3): the wait may be monotone along that chain although some writer fails it.
    const std::vector<uint32_t>& chain = facts->by_event;
    if (!vals.trivially_monotone && !facts->chain_guards) {
      std::optional<uint32_t>& guards = facts->chain_guards.emplace();
      if (!chain.empty() && std::all_of(chain.begin(), chain.end(), [&](uint32_t k) {
            return out_.events[word.writers[k].ev].queue == out_.events[word.writers[0].ev].queue;
          })) {
        guards = 0;
        for (size_t i = 0; i + 1 < chain.size() && guards; ++i) {
          auto g = path_guards(word.writers[chain[i]].ev, word.writers[chain[i + 1]].ev);
          guards = g ? std::optional<uint32_t>(*guards | *g) : std::nullopt;
        }
      }
    }
    uint32_t chain_guard_bits = 0;
    bool chained = false;
    if (!vals.trivially_monotone && *facts->chain_guards)
      chained = true, chain_guard_bits = **facts->chain_guards;
    std::optional<ChainMonotone> along_chain;  // walked once, for the first configuration asked
    auto monotone_under = [&](ValueConfig c, const WaitValues& v) {
      if (v.trivially_monotone || !chained) return v.trivially_monotone;
      if (!along_chain) along_chain.emplace(word, chain, facts->in_order ? &vals : nullptr);
      return (*along_chain)(c);
    };
    w.monotone = monotone_under(vcfg, vals);
    w.determinate = determinate(vals);
    w.chained = chained;
    if (chained) w.chain_guards = chain_guard_bits;
    const std::array<int, 2> initial{kInitialPart, kInitialPart};
    const std::span<const int> at_start(initial.data(), word.parts);
    for (int i = 0; i < 2; ++i) {
      const uint32_t bit = 1u << static_cast<int>(i == 0 ? AssumptionId::InitialZero
                                                         : AssumptionId::TimestampNonzero);
      const WaitValues& other = same_lists ? vals : flipped_vals[i];
      const bool monotone = monotone_under(flipped_cfg[i], other);
      if (monotone != w.monotone) w.value_depends |= bit;
      // The first poll under the flipped configuration (same_lists: `other` is vals, whose
      // first poll is under vcfg; as analyze_again would make it).
      const PollOutcome first = same_lists && !vals.overflow
                                    ? poll_outcome(word, at_start, flipped_cfg[i])
                                    : other.initial;
      if ((monotone && determinate(other, first)) != w.deadlock_monotone()) w.deadlock_flips |= bit;
    }
    // Exact sizes: a frame's waits on one fence each list most of its signals.
    w.candidates.reserve(vals.may.size());
    for (uint32_t k : vals.may) w.candidates.push_back(word.writers[k].ev);
    if (vals.known) {
      w.must_same = true;  // the same list (WaitValues::known)
    } else {
      w.must_list.reserve(vals.must.size());
      for (uint32_t k : vals.must) w.must_list.push_back(word.writers[k].ev);
    }
    w.zero_satisfies = poll_outcome(word, at_start, {true, vcfg.timestamp_nonzero}).can_sat;
    w.initial = poll_outcome(word, at_start, vcfg);
    w.initial_unknown_may = poll_outcome(word, at_start, {false, vcfg.timestamp_nonzero}).can_sat;
  }
}

std::optional<uint32_t> Lowerer::path_guards(EventId a, EventId b) {
  if (auto it = path_memo_.find({a, b}); it != path_memo_.end()) return it->second;
  if (topo_.empty()) {
    const size_t n = out_.events.size();
    std::vector<uint32_t> preds(n, 0);
    for (const Order& o : out_.orders) ++preds[o.after];
    util::csr_of(
        n, out_.orders.size(), [&](size_t i) { return out_.orders[i].before; },
        [](size_t i) { return static_cast<uint32_t>(i); }, &order_start_, &order_out_);
    // Kahn's algorithm taking the least event first, so that a queue's events stay close.
    topo_.assign(n, UINT32_MAX);
    std::priority_queue<EventId, std::vector<EventId>, std::greater<>> ready;
    for (EventId e = 0; e < n; ++e)
      if (!preds[e]) ready.push(e);
    for (uint32_t next = 0; !ready.empty(); ++next) {
      const EventId e = ready.top();
      ready.pop();
      topo_[e] = next;
      for (uint32_t i = order_start_[e]; i < order_start_[e + 1]; ++i)
        if (--preds[out_.orders[order_out_[i]].after] == 0)
          ready.push(out_.orders[order_out_[i]].after);
    }
  }
  const uint32_t bound = topo_[b];
  // 0-1 breadth-first search: guarded orders cost 1 (the orders kept are those active under the
  // configuration; their guards name the assumptions the path rests on). Only the events it
  // touches are reset afterwards, so a search near `a` costs what it visits.
  if (path_cost_.empty()) path_cost_.assign(out_.events.size(), UINT32_MAX);
  if (path_via_.empty()) path_via_.assign(out_.events.size(), UINT32_MAX);
  std::vector<EventId> touched{a};
  std::deque<EventId> q{a};
  path_cost_[a] = 0;
  while (!q.empty()) {
    const EventId u = q.front();
    q.pop_front();
    if (u == b) break;
    for (uint32_t i = order_start_[u]; i < order_start_[u + 1]; ++i) {
      const uint32_t oi = order_out_[i];
      const Order& o = out_.orders[oi];
      const uint32_t c = path_cost_[u] + (o.guard.id ? 1u : 0u);
      if (c >= path_cost_[o.after] || (bound != UINT32_MAX && topo_[o.after] > bound)) continue;
      if (path_cost_[o.after] == UINT32_MAX) touched.push_back(o.after);
      path_cost_[o.after] = c, path_via_[o.after] = oi;
      if (o.guard.id)
        q.push_back(o.after);
      else
        q.push_front(o.after);
    }
  }
  std::optional<uint32_t> guards;
  if (path_cost_[b] != UINT32_MAX) {
    guards = 0;
    for (EventId v = b; v != a; v = out_.orders[path_via_[v]].before)
      if (const auto& g = out_.orders[path_via_[v]].guard; g.id)
        *guards |= 1u << static_cast<int>(*g.id);
  }
  for (EventId e : touched) path_cost_[e] = UINT32_MAX, path_via_[e] = UINT32_MAX;
  path_memo_.emplace(std::pair{a, b}, guards);
  return guards;
}

}  // namespace syncproof::model::detail
