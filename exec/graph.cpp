#include "exec/graph.h"

namespace syncproof::exec {

using namespace model;

namespace {

bool rule_constrains(const LoweredProgram& p, const WaitRule& w, WaitMode mode, uint32_t dropped) {
  const bool zero_known = p.config.assumptions.enabled(AssumptionId::InitialZero);
  if (mode == WaitMode::Deadlock) return !(zero_known && w.zero_satisfies);
  const bool iz_dropped = dropped & (1u << static_cast<int>(AssumptionId::InitialZero));
  return !(w.zero_satisfies || !zero_known || iz_dropped);
}

void csr(uint32_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges,
         std::vector<uint32_t>* start, std::vector<uint32_t>* out) {
  start->assign(n + 1, 0);
  for (auto [a, b] : edges) ++(*start)[a + 1];
  for (uint32_t i = 0; i < n; ++i) (*start)[i + 1] += (*start)[i];
  out->assign(edges.size(), 0);
  std::vector<uint32_t> pos(start->begin(), start->end() - 1);
  for (auto [a, b] : edges) (*out)[pos[a]++] = b;
}

}  // namespace

Graph build_graph(const LoweredProgram& p, WaitMode mode, uint32_t dropped) {
  Graph g;
  g.program = &p;
  g.n = static_cast<uint32_t>(p.events.size());
  g.preds.assign(g.n, 0);
  g.rules.assign(g.n, 0);
  std::vector<std::pair<uint32_t, uint32_t>> orders, feeds;
  for (const Order& o : p.orders) {
    if (o.guard.id && (dropped & (1u << static_cast<int>(*o.guard.id)))) continue;
    orders.push_back({o.before, o.after});
    ++g.preds[o.after];
  }
  for (uint32_t i = 0; i < p.waits.size(); ++i) {
    const WaitRule& w = p.waits[i];
    if (!rule_constrains(p, w, mode, dropped)) continue;
    auto r = static_cast<uint32_t>(g.rule_wait.size());
    g.rule_wait.push_back(w.wait);
    g.rule_source.push_back(i);
    ++g.rules[w.wait];
    for (EventId c : w.candidates) feeds.push_back({c, r});
  }
  csr(g.n, orders, &g.succ_start, &g.succ);
  for (auto& [a, b] : orders) std::swap(a, b);
  csr(g.n, orders, &g.pred_start, &g.pred);
  csr(g.n, feeds, &g.feed_start, &g.feed);
  return g;
}

uint32_t assumptions_present(const LoweredProgram& p, const Bitset* within) {
  uint32_t m = 0;
  for (const Order& o : p.orders)
    if (o.guard.id && (!within || within->test(o.after))) m |= 1u << static_cast<int>(*o.guard.id);
  for (const WaitRule& w : p.waits)
    if (rule_constrains(p, w, WaitMode::Safety, 0) && (!within || within->test(w.wait)))
      m |= 1u << static_cast<int>(AssumptionId::InitialZero);
  return m;
}

Bitset ancestors(const Graph& g, const std::vector<EventId>& targets) {
  const LoweredProgram& p = *g.program;
  std::vector<std::vector<uint32_t>> rules_on(g.n);
  for (uint32_t r = 0; r < g.rule_wait.size(); ++r) rules_on[g.rule_wait[r]].push_back(r);
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
    for (uint32_t r : rules_on[e])
      for (EventId c : p.waits[g.rule_source[r]].candidates) visit(c);
  }
  return seen;
}

std::vector<char> descendants(const Graph& g, EventId e) {
  std::vector<char> seen(g.n, 0);
  std::vector<EventId> todo{e};
  while (!todo.empty()) {
    EventId x = todo.back();
    todo.pop_back();
    for (uint32_t i = g.succ_start[x]; i < g.succ_start[x + 1]; ++i)
      if (!seen[g.succ[i]]) seen[g.succ[i]] = 1, todo.push_back(g.succ[i]);
  }
  return seen;
}

Runner::Runner(const Graph& g)
    : g_(g), fired_(g.n), enabled_(g.n), missing_(g.n), unsat_(g.n), hits_(g.rule_wait.size()) {
  reset();
}

void Runner::reset() {
  fired_.clear();
  enabled_.clear();
  missing_ = g_.preds;
  unsat_ = g_.rules;
  std::fill(hits_.begin(), hits_.end(), 0);
  trail_.clear();
  newly_.clear();
  for (EventId e = 0; e < g_.n; ++e)
    if (missing_[e] == 0 && unsat_[e] == 0) enabled_.set(e), newly_.push_back(e);
}

void Runner::fire(EventId e) {
  ++transitions;
  enabled_.reset(e);
  fired_.set(e);
  trail_.push_back(e);
  for (uint32_t i = g_.succ_start[e]; i < g_.succ_start[e + 1]; ++i) {
    EventId s = g_.succ[i];
    if (--missing_[s] == 0 && unsat_[s] == 0) enabled_.set(s), newly_.push_back(s);
  }
  for (uint32_t i = g_.feed_start[e]; i < g_.feed_start[e + 1]; ++i) {
    uint32_t r = g_.feed[i];
    if (hits_[r]++ != 0) continue;
    EventId w = g_.rule_wait[r];
    if (--unsat_[w] == 0 && missing_[w] == 0) enabled_.set(w), newly_.push_back(w);
  }
}

void Runner::undo_to(size_t size) {
  while (trail_.size() > size) {
    EventId e = trail_.back();
    trail_.pop_back();
    for (uint32_t i = g_.feed_start[e]; i < g_.feed_start[e + 1]; ++i) {
      uint32_t r = g_.feed[i];
      if (--hits_[r] != 0) continue;
      EventId w = g_.rule_wait[r];
      if (unsat_[w]++ == 0 && missing_[w] == 0) enabled_.reset(w);
    }
    for (uint32_t i = g_.succ_start[e]; i < g_.succ_start[e + 1]; ++i) {
      EventId s = g_.succ[i];
      if (missing_[s]++ == 0 && unsat_[s] == 0) enabled_.reset(s);
    }
    fired_.reset(e);
    enabled_.set(e);
  }
  newly_.clear();
}

void Runner::saturate(const Bitset* blocked, const Bitset* only) {
  std::vector<EventId> work;
  work.swap(newly_);
  enabled_.for_each([&](size_t e) { work.push_back(static_cast<EventId>(e)); });
  while (!work.empty()) {
    EventId e = work.back();
    work.pop_back();
    if (!enabled_.test(e) || (blocked && blocked->test(e)) || (only && !only->test(e))) continue;
    fire(e);
    work.insert(work.end(), newly_.begin(), newly_.end());
    newly_.clear();
  }
}

}  // namespace syncproof::exec
