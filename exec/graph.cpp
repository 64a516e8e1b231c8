#include "exec/graph.h"

#include <algorithm>
#include <optional>
#include <span>

#include "util/csr.h"

namespace syncproof::exec {

using namespace model;

namespace {

using util::csr;
using util::csr_of;

// What build_graph and build_subgraph collect before the CSR arrays are made. A rule's
// candidates (writers) go straight to its list: the rules come one after another.
struct Edges {
  std::vector<std::pair<uint32_t, uint32_t>> feeds, vfeeds;  // (event, rule)
  std::vector<uint32_t> vwriter_of;                          // parallel to vfeeds: the writer

  void init(Graph& g, const LoweredProgram& p, uint32_t n) {
    g.program = &p;
    g.n = n;
    g.preds.assign(n, 0);
    g.rules.assign(n, 0);
    g.vrule_of.assign(n, UINT32_MAX);
    g.nm = Bitset(n);
    g.rule_wait.clear(), g.rule_source.clear(), g.vrules.clear();  // a graph made again
    g.cand_start.assign(1, 0), g.cand.clear(), g.vw_start.assign(1, 0), g.vw.clear();
  }
  // A monotone rule on wait `w` (local event) of program wait `source`.
  void monotone_rule(Graph& g, uint32_t source, uint32_t w, std::span<const uint32_t> cs) {
    auto r = static_cast<uint32_t>(g.rule_wait.size());
    g.rule_wait.push_back(w);
    g.rule_source.push_back(source);
    ++g.rules[w];
    for (uint32_t c : cs) feeds.push_back({c, r}), g.cand.push_back(c);
    g.cand_start.push_back(static_cast<uint32_t>(g.cand.size()));
  }
  // A value rule: `writers` are the local events of the word's writers, in writer order.
  void value_rule(Graph& g, uint32_t source, uint32_t w, std::span<const uint32_t> writers) {
    const auto r = static_cast<uint32_t>(g.vrules.size());
    g.vrules.push_back({w, source});
    g.vrule_of[w] = r;
    g.nm.set(w);
    for (uint32_t k = 0; k < writers.size(); ++k) {
      vfeeds.push_back({writers[k], r});
      vwriter_of.push_back(k);
      g.vw.push_back(writers[k]);
      g.nm.set(writers[k]);
    }
    g.vw_start.push_back(static_cast<uint32_t>(g.vw.size()));
  }
  // `orders`: (before, after), each counted in g.preds already.
  void finish(Graph& g, const std::vector<std::pair<uint32_t, uint32_t>>& orders) {
    const size_t n = orders.size();
    csr_of(
        g.n, n, [&](size_t i) { return orders[i].first; },
        [&](size_t i) { return orders[i].second; }, &g.succ_start, &g.succ);
    csr_of(
        g.n, n, [&](size_t i) { return orders[i].second; },
        [&](size_t i) { return orders[i].first; }, &g.pred_start, &g.pred);
    csr(g.n, feeds, &g.feed_start, &g.feed);
    // Value feeds: by writer event, the entry, then its rule and the writer index.
    csr_of(
        g.n, vfeeds.size(), [&](size_t i) { return vfeeds[i].first; },
        [](size_t i) { return static_cast<uint32_t>(i); }, &g.vfeed_start, &g.vfeed_rule);
    g.vfeed_writer.resize(g.vfeed_rule.size());
    for (size_t i = 0; i < g.vfeed_rule.size(); ++i) {
      const uint32_t entry = g.vfeed_rule[i];
      g.vfeed_writer[i] = vwriter_of[entry];
      g.vfeed_rule[i] = vfeeds[entry].second;
    }
  }
};

}  // namespace

WaitRules::WaitRules(const LoweredProgram& p, WaitMode mode)
    : p_(p), mode_(mode), seen_(p.events.size(), 0) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  out.reserve(p.orders.size());
  for (uint32_t i = 0; i < p.orders.size(); ++i) out.push_back({p.orders[i].before, i});
  out_ = util::Csr<uint32_t>(p.events.size(), out);
}

ValueConfig WaitRules::values(uint32_t dropped) const {
  return value_config(p_.config.assumptions, dropped);
}

const WaitRules::Analysis& WaitRules::analysis(uint32_t wait, ValueConfig v) {
  auto [it, fresh] = analyses_.try_emplace(uint64_t{wait} * 4 + value_bits(v));
  if (fresh) {
    Analysis& a = it->second;
    a.values = analyze(p_.waits[wait].word, v);
    a.determinate = determinate(a.values);
    // Only the list this mode's rules use is kept, once for all value configurations that give
    // it: a frame's waits each list most writers of their word.
    std::vector<uint32_t> used =
        std::move(mode_ == WaitMode::Safety ? a.values.may : a.values.must);
    std::vector<uint32_t>().swap(a.values.may), std::vector<uint32_t>().swap(a.values.must);
    for (uint64_t bits = 0; bits < 4 && !a.cands; ++bits) {
      auto other = analyses_.find(uint64_t{wait} * 4 + bits);
      if (other != analyses_.end() && other != it && *other->second.cands == used)
        a.cands = other->second.cands;
    }
    if (!a.cands) a.cands = std::make_shared<const std::vector<uint32_t>>(std::move(used));
  }
  return it->second;
}

const std::vector<uint32_t>& WaitRules::by_event(uint32_t wait) {
  const PolledWord& w = p_.waits[wait].word;
  auto [it, fresh] = by_event_.try_emplace(w.writers.id());
  if (fresh) it->second = writers_by_event(w);
  return it->second;
}

bool WaitRules::chain_monotone(uint32_t wait, ValueConfig v) {
  auto [it, fresh] = chain_monotone_.try_emplace(uint64_t{wait} * 4 + value_bits(v), false);
  if (fresh) it->second = model::chain_monotone(p_.waits[wait].word, by_event(wait), v);
  return it->second;
}

bool WaitRules::chained(uint32_t wait, uint32_t dropped) {
  const PolledWord& w = p_.waits[wait].word;
  auto [it, fresh] = chained_.try_emplace({w.writers.id(), dropped}, true);
  if (fresh) {
    const std::vector<uint32_t>& order = by_event(wait);
    for (size_t k = 0; it->second && k + 1 < order.size(); ++k)
      it->second = reach(w.writers[order[k]].ev, w.writers[order[k + 1]].ev, dropped);
  }
  return it->second;
}

// Is there a path of orders a ~> b without the dropped assumptions' orders? Breadth first from a,
// resetting only what it touched (writers are usually a few orders apart).
bool WaitRules::reach(EventId a, EventId b, uint32_t dropped) {
  if (topo_.empty()) topo_ = order_positions(p_);
  // When b has a place, every path to it goes up through events placed below it.
  const uint32_t bound = topo_[b];
  std::vector<EventId> touched{a}, todo{a};
  seen_[a] = 1;
  bool found = false;
  for (size_t i = 0; i < todo.size() && !found; ++i)
    for (uint32_t oi : out_[todo[i]]) {
      const Order& o = p_.orders[oi];
      if ((o.guard.id && (dropped & assumption_bit(*o.guard.id))) || seen_[o.after]) continue;
      if (bound != UINT32_MAX && topo_[o.after] > bound) continue;
      if (o.after == b) found = true;
      seen_[o.after] = 1, touched.push_back(o.after), todo.push_back(o.after);
    }
  for (EventId e : touched) seen_[e] = 0;
  return found;
}

WaitRules::Rule WaitRules::rule(uint32_t i, uint32_t dropped) {
  std::vector<Known>& known = rules_[dropped];
  if (known.empty()) known.resize(p_.waits.size());
  Known& k = known[i];
  if (!k.known) k = {decide(i, dropped), true};
  return k.rule;
}

WaitRules::Rule WaitRules::decide(uint32_t i, uint32_t dropped) {
  const WaitRule& w = p_.waits[i];
  const ValueConfig v = values(dropped);
  const Analysis& an = analysis(i, v);
  const WaitValues& vals = an.values;
  // Monotone along the chain the lowering found, if this graph's orders still chain the writers
  // (another assumption's orders may, where the lowering's path used a dropped one).
  const bool chain =
      !vals.trivially_monotone && w.chained && chain_monotone(i, v) && chained(i, dropped);
  if ((!vals.trivially_monotone && !chain) || (mode_ == WaitMode::Deadlock && !an.determinate))
    return {Kind::Value, nullptr};
  // Monotone: unconstrained when the initial poll may (safety) or must (deadlock) pass.
  const bool initial_ok = mode_ == WaitMode::Safety ? vals.initial.can_sat : !vals.initial.can_fail;
  if (initial_ok) return {Kind::Free, nullptr};
  return {Kind::Monotone, an.cands.get()};
}

uint32_t WaitRules::value_rules(uint32_t dropped) {
  auto [it, fresh] = value_rules_.try_emplace(dropped, 0);
  if (fresh)
    for (uint32_t i = 0; i < p_.waits.size(); ++i)
      it->second += rule(i, dropped).kind == Kind::Value;
  return it->second;
}

Graph build_graph(const LoweredProgram& p, WaitMode mode, uint32_t dropped, WaitRules* rules) {
  std::optional<WaitRules> own;
  if (!rules) rules = &own.emplace(p, mode);
  Graph g;
  Edges ed;
  ed.init(g, p, static_cast<uint32_t>(p.events.size()));
  g.mode = mode;
  g.values = rules->values(dropped);
  std::vector<std::pair<uint32_t, uint32_t>> orders;
  for (const Order& o : p.orders) {
    if (o.guard.id && (dropped & assumption_bit(*o.guard.id))) continue;
    orders.push_back({o.before, o.after});
    ++g.preds[o.after];
  }
  std::vector<uint32_t> evs;
  for (uint32_t i = 0; i < p.waits.size(); ++i) {
    const WaitRule& w = p.waits[i];
    const WaitRules::Rule r = rules->rule(i, dropped);
    evs.clear();
    if (r.kind == WaitRules::Kind::Value) {
      for (const WaitWriter& x : w.word.writers) evs.push_back(x.ev);
      ed.value_rule(g, i, w.wait, evs);
    } else if (r.kind == WaitRules::Kind::Monotone) {
      // Writers that orders land in event order: the first candidate lands before every other
      // in every execution, so the rule on it alone allows the same executions, and a frame's
      // waits on one fence (each with most of its signals as candidates) stay linear.
      if (r.cands->size() > 1 && rules->chained(i, dropped)) {
        evs.push_back(w.word.writers[r.cands->front()].ev);
        for (uint32_t k : *r.cands) evs[0] = std::min(evs[0], w.word.writers[k].ev);
      } else {
        for (uint32_t k : *r.cands) evs.push_back(w.word.writers[k].ev);
      }
      ed.monotone_rule(g, i, w.wait, evs);
    }
  }
  ed.finish(g, orders);
  return g;
}

void build_subgraph(const LoweredProgram& p, const ValueConfig& values, const SubGraph& s,
                    Graph& g) {
  Edges ed;
  ed.init(g, p, static_cast<uint32_t>(s.events.size()));
  g.mode = WaitMode::Safety;
  g.values = values;
  for (const auto& o : s.orders) ++g.preds[o.second];
  std::vector<uint32_t> local_wait;
  for (const SubGraph::Rule& r : s.rules) {
    const EventId w = p.waits[r.wait].wait;
    const auto it = std::lower_bound(s.events.begin(), s.events.end(), w);
    const auto lw = static_cast<uint32_t>(it - s.events.begin());
    const std::span<const uint32_t> cands(s.cands.data() + r.begin, r.end - r.begin);
    if (r.value)
      ed.value_rule(g, r.wait, lw, cands);
    else
      ed.monotone_rule(g, r.wait, lw, cands);
  }
  ed.finish(g, s.orders);
}

uint32_t assumptions_present(const LoweredProgram& p, const Bitset* within) {
  uint32_t m = 0;
  for (const Order& o : p.orders)
    if (o.guard.id && (!within || within->test(o.after))) m |= assumption_bit(*o.guard.id);
  for (const WaitRule& w : p.waits)
    if (!within || within->test(w.wait)) m |= value_assumptions(p, w);
  return m;
}

uint32_t value_assumptions(const LoweredProgram& p, const WaitRule& w) {
  uint32_t m = 0;
  if (p.config.assumptions.enabled(AssumptionId::InitialZero) &&
      (!w.zero_satisfies || (w.value_depends & assumption_bit(AssumptionId::InitialZero))))
    m |= assumption_bit(AssumptionId::InitialZero);
  return m | (w.value_depends & assumption_bit(AssumptionId::TimestampNonzero));
}

Bitset ancestors(const Graph& g, const std::vector<EventId>& targets) {
  // By wait event: the monotone rules on it (CSR: a list per event cost a block each).
  std::vector<uint32_t> on_start, rules_on;
  csr_of(
      g.n, g.rule_wait.size(), [&](size_t r) { return g.rule_wait[r]; },
      [](size_t r) { return static_cast<uint32_t>(r); }, &on_start, &rules_on);
  Bitset seen(g.n);
  std::vector<EventId> todo;
  auto visit = [&](EventId e) {
    if (!seen.test(e)) seen.set(e), todo.push_back(e);
  };
  for (EventId t : targets) visit(t);
  while (!todo.empty()) {
    EventId e = todo.back();
    todo.pop_back();
    for (uint32_t i = g.pred_start[e]; i < g.pred_start[e + 1]; ++i) visit(g.pred[i]);
    for (uint32_t k = on_start[e]; k < on_start[e + 1]; ++k)
      for (uint32_t r = rules_on[k], i = g.cand_start[r]; i < g.cand_start[r + 1]; ++i)
        visit(g.cand[i]);
    if (const uint32_t v = g.vrule_of[e]; v != UINT32_MAX)
      for (uint32_t i = g.vw_start[v]; i < g.vw_start[v + 1]; ++i) visit(g.vw[i]);
  }
  return seen;
}

namespace {

std::vector<char> reached(size_t n, const std::vector<uint32_t>& succ_start,
                          const std::vector<uint32_t>& succ, EventId e) {
  std::vector<char> seen(n, 0);
  std::vector<EventId> todo{e};
  while (!todo.empty()) {
    EventId x = todo.back();
    todo.pop_back();
    for (uint32_t i = succ_start[x]; i < succ_start[x + 1]; ++i)
      if (!seen[succ[i]]) seen[succ[i]] = 1, todo.push_back(succ[i]);
  }
  return seen;
}

}  // namespace

std::vector<char> descendants(const Graph& g, EventId e) {
  return reached(g.n, g.succ_start, g.succ, e);
}

OrderGraph order_graph(const LoweredProgram& p, uint32_t dropped) {
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  for (const Order& o : p.orders)
    if (!(o.guard.id && (dropped & assumption_bit(*o.guard.id))))
      edges.push_back({o.before, o.after});
  OrderGraph g;
  csr(static_cast<uint32_t>(p.events.size()), edges, &g.succ_start, &g.succ);
  return g;
}

std::vector<char> descendants(const OrderGraph& g, EventId e) {
  return reached(g.succ_start.size() - 1, g.succ_start, g.succ, e);
}

Runner::Runner(const Graph& g)
    : g_(g),
      fired_(g.n),
      enabled_(g.n),
      missing_(g.n),
      unsat_(g.n),
      hits_(g.rule_wait.size()),
      vblock_(g.n),
      vstate_(g.vrules.size()),
      vpass_(g.vrules.size()) {
  reset();
}

bool Runner::poll_passes(uint32_t rule) const {
  const PolledWord& w = g_.program->waits[g_.vrules[rule].source].word;
  return poll_outcome(w, std::span<const int>(vstate_[rule].data(), w.parts), g_.values).can_sat;
}

bool Runner::poll_may_fail(uint32_t rule) const {
  const PolledWord& w = g_.program->waits[g_.vrules[rule].source].word;
  return poll_outcome(w, std::span<const int>(vstate_[rule].data(), w.parts), g_.values).can_fail;
}

void Runner::update_enabled(EventId e) {
  const bool on = !fired_.test(e) && missing_[e] == 0 && unsat_[e] == 0 && vblock_[e] == 0;
  if (on == enabled_.test(e)) return;
  if (on)
    enabled_.set(e), newly_.push_back(e);
  else
    enabled_.reset(e);
}

void Runner::set_pass(uint32_t rule, bool pass) {
  if (vpass_[rule] == pass) return;
  vpass_[rule] = pass;
  const EventId w = g_.vrules[rule].wait;
  if (pass)
    --vblock_[w];
  else
    ++vblock_[w];
  update_enabled(w);
}

void Runner::reset() {
  fired_.clear();
  enabled_.clear();
  missing_ = g_.preds;
  unsat_ = g_.rules;
  std::fill(hits_.begin(), hits_.end(), 0);
  std::fill(vblock_.begin(), vblock_.end(), 0);
  trail_.clear();
  newly_.clear();
  vtrail_.clear();
  vmark_.clear();
  for (uint32_t r = 0; r < g_.vrules.size(); ++r) {
    vstate_[r] = {kInitialPart, kInitialPart};
    vpass_[r] = poll_passes(r);
    if (!vpass_[r]) ++vblock_[g_.vrules[r].wait];
  }
  for (EventId e = 0; e < g_.n; ++e)
    if (missing_[e] == 0 && unsat_[e] == 0 && vblock_[e] == 0) enabled_.set(e), newly_.push_back(e);
}

void Runner::fire(EventId e) {
  ++transitions;
  enabled_.reset(e);
  fired_.set(e);
  trail_.push_back(e);
  vmark_.push_back(vtrail_.size());
  for (uint32_t i = g_.succ_start[e]; i < g_.succ_start[e + 1]; ++i) {
    EventId s = g_.succ[i];
    --missing_[s];
    update_enabled(s);
  }
  for (uint32_t i = g_.feed_start[e]; i < g_.feed_start[e + 1]; ++i) {
    uint32_t r = g_.feed[i];
    if (hits_[r]++ != 0) continue;
    EventId w = g_.rule_wait[r];
    --unsat_[w];
    update_enabled(w);
  }
  // The write lands in every part of the words it writes (model::state_after's rule).
  for (uint32_t i = g_.vfeed_start[e]; i < g_.vfeed_start[e + 1]; ++i) {
    const uint32_t r = g_.vfeed_rule[i], k = g_.vfeed_writer[i];
    const PolledWord& w = g_.program->waits[g_.vrules[r].source].word;
    const WaitWriter& wr = w.writers[k];
    vtrail_.push_back({r, vstate_[r]});
    for (size_t part = 0; part < w.parts; ++part)
      if ((wr.parts >> part & 1u) && vstate_[r][part] != kUnknownPart)
        vstate_[r][part] = wr.kind == WaitWriter::Kind::Work ? kUnknownPart : static_cast<int>(k);
    set_pass(r, poll_passes(r));
  }
}

void Runner::undo_to(size_t size) {
  while (trail_.size() > size) {
    EventId e = trail_.back();
    trail_.pop_back();
    const size_t mark = vmark_.back();
    vmark_.pop_back();
    while (vtrail_.size() > mark) {
      const VUndo u = vtrail_.back();
      vtrail_.pop_back();
      vstate_[u.rule] = u.state;
      set_pass(u.rule, poll_passes(u.rule));
    }
    fired_.reset(e);
    for (uint32_t i = g_.feed_start[e]; i < g_.feed_start[e + 1]; ++i) {
      uint32_t r = g_.feed[i];
      if (--hits_[r] != 0) continue;
      ++unsat_[g_.rule_wait[r]];
      update_enabled(g_.rule_wait[r]);
    }
    for (uint32_t i = g_.succ_start[e]; i < g_.succ_start[e + 1]; ++i) {
      ++missing_[g_.succ[i]];
      update_enabled(g_.succ[i]);
    }
    update_enabled(e);
  }
  newly_.clear();
}

void Runner::saturate(const Bitset* blocked, const Bitset* only, bool skip_nm) {
  std::vector<EventId> work;
  work.swap(newly_);
  enabled_.for_each([&](size_t e) { work.push_back(static_cast<EventId>(e)); });
  while (!work.empty()) {
    EventId e = work.back();
    work.pop_back();
    if (!enabled_.test(e) || (blocked && blocked->test(e)) || (only && !only->test(e)) ||
        (skip_nm && g_.nm.test(e)))
      continue;
    fire(e);
    work.insert(work.end(), newly_.begin(), newly_.end());
    newly_.clear();
  }
}

void Runner::value_key(std::vector<uint64_t>& out) const {
  for (const auto& st : vstate_)
    out.push_back(static_cast<uint64_t>(static_cast<uint32_t>(st[0])) |
                  (static_cast<uint64_t>(static_cast<uint32_t>(st[1])) << 32));
}

bool Runner::may_stay_stuck() const {
  if (complete()) return false;
  bool stuck = true;
  enabled_.for_each([&](size_t e) {
    if (!stuck) return;
    // Anything but a value-rule wait whose poll may fail will fire.
    const uint32_t r = g_.vrule_of[e];
    if (r == UINT32_MAX || !poll_may_fail(r)) stuck = false;
  });
  return stuck;
}

}  // namespace syncproof::exec
