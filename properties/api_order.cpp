#include "properties/api_order.h"

#include <algorithm>
#include <deque>

namespace syncproof::properties {

using namespace model;

ApiOrder::ApiOrder(const LoweredProgram& p, bool value_assumptions)
    : nq_(static_cast<uint32_t>(p.commands.size())) {
  uint32_t n = 0;
  std::vector<uint32_t> queue_of;
  for (uint32_t q = 0; q < nq_; ++q) {
    base_.push_back(n), len_.push_back(static_cast<uint32_t>(p.commands[q].size()));
    n += static_cast<uint32_t>(p.commands[q].size());
    queue_of.resize(n, q);
  }
  vc_.assign(static_cast<size_t>(n) * nq_, 0);
  for (uint32_t q = 0; q < nq_; ++q)
    for (uint32_t c = 0; c < p.commands[q].size(); ++c) vc_[(base_[q] + c) * nq_ + q] = c;
  // The waits each command performs: per wait, its earliest candidate command on each queue.
  struct Group {
    uint32_t node, first, count;  // candidates: cand[first, first + count)
  };
  std::vector<Group> groups;
  std::vector<uint32_t> cand;
  std::vector<uint32_t> earliest(nq_);
  for (const WaitRule& w : p.waits) {
    if (w.initial.can_sat || w.candidates.empty()) continue;
    // The first poll fails only because the word is taken to start at 0 (it would pass on some
    // unknown value), or the candidates depend on a value assumption.
    const uint32_t rests_on =
        (w.initial_unknown_may ? 1u << static_cast<int>(AssumptionId::InitialZero) : 0u) |
        w.value_depends;
    if (!value_assumptions && rests_on) continue;
    relies_ |= rests_on;
    std::fill(earliest.begin(), earliest.end(), UINT32_MAX);
    for (EventId c : w.candidates) {
      const Event& e = p.events[c];
      earliest[e.queue] = std::min(earliest[e.queue], e.cmd);
    }
    const Event& we = p.events[w.wait];
    Group g{base_[we.queue] + we.cmd, static_cast<uint32_t>(cand.size()), 0};
    for (uint32_t q = 0; q < nq_; ++q)
      if (earliest[q] != UINT32_MAX) cand.push_back(base_[q] + earliest[q]), ++g.count;
    groups.push_back(g);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.node < b.node; });
  std::vector<uint32_t> group_start(n + 1, 0);
  for (const Group& g : groups) ++group_start[g.node + 1];
  for (uint32_t i = 0; i < n; ++i) group_start[i + 1] += group_start[i];
  // Who depends on a command: the next command of its queue and the waits it is a candidate of.
  std::vector<uint32_t> rev_start(n + 1, 0), rev;
  for (const Group& g : groups)
    for (uint32_t k = 0; k < g.count; ++k) ++rev_start[cand[g.first + k] + 1];
  for (uint32_t i = 0; i < n; ++i) rev_start[i + 1] += rev_start[i];
  rev.resize(rev_start[n]);
  {
    std::vector<uint32_t> pos(rev_start.begin(), rev_start.end() - 1);
    for (const Group& g : groups)
      for (uint32_t k = 0; k < g.count; ++k) rev[pos[cand[g.first + k]]++] = g.node;
  }
  auto is_first = [&](uint32_t node) { return node == base_[queue_of[node]]; };
  std::vector<uint32_t> acc(nq_), meet(nq_);
  // F at one command from the current clocks; true when its clock grew.
  auto evaluate = [&](uint32_t node) {
    uint32_t* vc = &vc_[static_cast<size_t>(node) * nq_];
    std::copy(vc, vc + nq_, acc.begin());
    if (!is_first(node)) {
      const uint32_t* prev = &vc_[static_cast<size_t>(node - 1) * nq_];
      for (uint32_t q = 0; q < nq_; ++q) acc[q] = std::max(acc[q], prev[q]);
      const uint32_t own = queue_of[node];
      acc[own] = std::max(acc[own], node - base_[own]);
    }
    for (uint32_t gi = group_start[node]; gi < group_start[node + 1]; ++gi) {
      const Group& g = groups[gi];
      std::fill(meet.begin(), meet.end(), UINT32_MAX);
      for (uint32_t k = 0; k < g.count; ++k) {
        const uint32_t c = cand[g.first + k];
        const uint32_t* cv = &vc_[static_cast<size_t>(c) * nq_];
        for (uint32_t q = 0; q < nq_; ++q) {
          uint32_t x = cv[q];
          if (q == queue_of[c]) x = std::max(x, c - base_[q] + 1);  // c itself
          meet[q] = std::min(meet[q], x);
        }
      }
      for (uint32_t q = 0; q < nq_; ++q) acc[q] = std::max(acc[q], meet[q]);
    }
    if (std::equal(acc.begin(), acc.end(), vc)) return false;
    std::copy(acc.begin(), acc.end(), vc);
    return true;
  };
  // One pass in dependency order (Kahn); what a cycle of waits leaves undone is finished by a
  // worklist from the values so far, which only grow towards the least fixpoint.
  std::vector<uint32_t> indeg(n, 0);
  for (uint32_t node = 0; node < n; ++node) {
    indeg[node] = is_first(node) ? 0 : 1;
    for (uint32_t gi = group_start[node]; gi < group_start[node + 1]; ++gi)
      indeg[node] += groups[gi].count;
  }
  std::vector<uint32_t> ready;
  for (uint32_t node = 0; node < n; ++node)
    if (indeg[node] == 0) ready.push_back(node);
  std::vector<uint8_t> done(n, 0);
  auto release = [&](uint32_t d) {
    if (--indeg[d] == 0) ready.push_back(d);
  };
  while (!ready.empty()) {
    const uint32_t node = ready.back();
    ready.pop_back();
    evaluate(node);
    done[node] = 1;
    if (node + 1 < n && !is_first(node + 1)) release(node + 1);
    for (uint32_t i = rev_start[node]; i < rev_start[node + 1]; ++i) release(rev[i]);
  }
  std::deque<uint32_t> work;
  std::vector<uint8_t> queued(n, 0);
  for (uint32_t node = 0; node < n; ++node)
    if (!done[node]) work.push_back(node), queued[node] = 1;
  while (!work.empty()) {
    const uint32_t node = work.front();
    work.pop_front();
    queued[node] = 0;
    if (!evaluate(node)) continue;
    auto push = [&](uint32_t d) {
      if (!queued[d]) queued[d] = 1, work.push_back(d);
    };
    if (node + 1 < n && !is_first(node + 1)) push(node + 1);
    for (uint32_t i = rev_start[node]; i < rev_start[node + 1]; ++i) push(rev[i]);
  }
}

uint32_t ApiOrder::first_after(uint32_t qa, uint32_t a, uint32_t q) const {
  uint32_t lo = 0, hi = len_[q];
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (clock(q, mid)[qa] > a)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

}  // namespace syncproof::properties
