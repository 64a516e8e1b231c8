#include "properties/api_order.h"

namespace syncproof::properties {

using namespace model;

ApiOrder::ApiOrder(const LoweredProgram& p) {
  uint32_t n = 0;
  for (const auto& q : p.commands) base_.push_back(n), n += static_cast<uint32_t>(q.size());
  const size_t words = (n + 63) / 64;
  pred_.assign(n, std::vector<uint64_t>(words, 0));
  // The waits each command performs, as (candidate command nodes).
  std::vector<std::vector<std::vector<uint32_t>>> waits(n);
  for (const WaitRule& w : p.waits) {
    if (w.initial.can_sat || w.candidates.empty()) continue;
    const Event& we = p.events[w.wait];
    std::vector<uint32_t> cands;
    for (EventId c : w.candidates) cands.push_back(index(p.events[c].queue, p.events[c].cmd));
    waits[index(we.queue, we.cmd)].push_back(std::move(cands));
  }
  std::vector<uint64_t> acc(words), meet(words);
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t q = 0; q < p.commands.size(); ++q)
      for (uint32_t c = 0; c < p.commands[q].size(); ++c) {
        uint32_t node = index(q, c);
        acc = pred_[node];
        if (c > 0) {
          uint32_t prev = node - 1;
          for (size_t i = 0; i < words; ++i) acc[i] |= pred_[prev][i];
          acc[prev / 64] |= uint64_t{1} << (prev % 64);
        }
        for (const auto& cands : waits[node]) {
          for (size_t i = 0; i < words; ++i) meet[i] = ~uint64_t{0};
          for (uint32_t cn : cands) {
            for (size_t i = 0; i < words; ++i) {
              uint64_t s = pred_[cn][i];
              if (i == cn / 64) s |= uint64_t{1} << (cn % 64);
              meet[i] &= s;
            }
          }
          for (size_t i = 0; i < words; ++i) acc[i] |= meet[i];
        }
        acc[node / 64] &= ~(uint64_t{1} << (node % 64));
        if (acc != pred_[node]) pred_[node] = acc, changed = true;
      }
  }
}

bool ApiOrder::before(uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) const {
  return test(index(qb, b), index(qa, a));
}

}  // namespace syncproof::properties
