#include "encode/contraction.h"

#include <deque>
#include <unordered_map>

#include "properties/proof_cone.h"

namespace syncproof::encode {

using namespace model;

namespace {

// An assumption both holding and not: the bound is never active.
bool contradicts(uint64_t g) {
  return (g & (g >> 32) & 0xffffffffu) != 0;
}

// `a` says at least as much as `b` between the same events: as large a weight, under no more
// guards.
bool dominates(const Bound& a, const Bound& b) {
  return a.weight >= b.weight && (a.guards & ~b.guards) == 0;
}

class Graph {
 public:
  explicit Graph(size_t n) : in_(n), out_(n) {}

  // Adds the bound between local events unless one already there says as much; drops those it
  // says more than.
  void add(uint32_t from, uint32_t to, int64_t weight, uint64_t guards) {
    if (contradicts(guards)) return;
    const Bound b{from, to, weight, guards};
    for (uint32_t k : out_[from]) {
      Bound& old = bounds_[k];
      if (!alive_[k] || old.to != to) continue;
      if (dominates(old, b)) return;
      if (dominates(b, old)) alive_[k] = 0;
    }
    bounds_.push_back(b), alive_.push_back(1);
    out_[from].push_back(static_cast<uint32_t>(bounds_.size() - 1));
    in_[to].push_back(static_cast<uint32_t>(bounds_.size() - 1));
  }

  // Takes event x out when that adds no more than two bounds. Returns its neighbours then.
  bool eliminate(uint32_t x, std::vector<uint64_t>* never, std::vector<uint32_t>* touched) {
    compact(in_[x]), compact(out_[x]);
    const size_t p = in_[x].size(), q = out_[x].size();
    if (p * q > p + q + 2) return false;
    const std::vector<uint32_t> ins = std::move(in_[x]), outs = std::move(out_[x]);
    in_[x].clear(), out_[x].clear();
    for (uint32_t k : ins) alive_[k] = 0;
    for (uint32_t k : outs) alive_[k] = 0;
    for (uint32_t i : ins) {
      const Bound lo = bounds_[i];
      touched->push_back(lo.from);
      for (uint32_t j : outs) {
        const Bound hi = bounds_[j];
        const uint64_t g = lo.guards | hi.guards;
        if (lo.from == hi.to) {
          if (!contradicts(g)) never->push_back(g);
        } else {
          add(lo.from, hi.to, lo.weight + hi.weight, g);
        }
      }
    }
    for (uint32_t j : outs) touched->push_back(bounds_[j].to);
    return true;
  }

  template <class F>
  void each(F&& f) const {
    for (size_t k = 0; k < bounds_.size(); ++k)
      if (alive_[k]) f(bounds_[k]);
  }

 private:
  void compact(std::vector<uint32_t>& v) {
    std::erase_if(v, [&](uint32_t k) { return !alive_[k]; });
  }

  std::vector<Bound> bounds_;  // over local indices
  std::vector<uint8_t> alive_;
  std::vector<std::vector<uint32_t>> in_, out_;
};

}  // namespace

Contracted contract(const LoweredProgram& p, const std::vector<EventId>& events,
                    const std::vector<uint8_t>& in, const std::vector<uint8_t>& keep) {
  std::unordered_map<EventId, uint32_t> local;
  local.reserve(events.size());
  for (uint32_t i = 0; i < events.size(); ++i) local.emplace(events[i], i);
  Graph g(events.size());
  Contracted out;
  for (const Order& o : p.orders) {
    if (!in[o.before] || !in[o.after]) continue;
    const uint32_t a = local.at(o.before), b = local.at(o.after);
    const uint64_t guards = properties::guard_bit(o.guard);
    if (a == b) {
      if (!contradicts(guards)) out.never.push_back(guards);  // t(a) < t(a)
      continue;
    }
    g.add(a, b, 1, guards);
  }
  std::deque<uint32_t> todo;
  std::vector<uint8_t> queued(events.size(), 0);
  for (uint32_t i = 0; i < events.size(); ++i)
    if (!keep[events[i]]) todo.push_back(i), queued[i] = 1;
  std::vector<uint32_t> touched;
  while (!todo.empty()) {
    const uint32_t x = todo.front();
    todo.pop_front();
    queued[x] = 0;
    touched.clear();
    if (!g.eliminate(x, &out.never, &touched)) continue;
    queued[x] = 2;  // out for good
    for (uint32_t y : touched)
      if (!queued[y] && !keep[events[y]]) todo.push_back(y), queued[y] = 1;
  }
  g.each([&](const Bound& b) {
    out.bounds.push_back({events[b.from], events[b.to], b.weight, b.guards});
  });
  return out;
}

}  // namespace syncproof::encode
