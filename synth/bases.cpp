#include "synth/bases.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "model/events.h"
#include "properties/api_order.h"
#include "properties/obligation.h"
#include "synth/candidates.h"
#include "synth/flag_ops.h"

namespace syncproof::synth {

using namespace model;

namespace {

// Where a wait before command b of queue q can go: right before b, and before the run of syncs
// right before b (so that an acquire already there comes after the wait, as it must to help).
std::vector<uint32_t> wait_points(const Case& c, uint32_t q, uint32_t b) {
  uint32_t k = b;
  while (k > 0 && std::holds_alternative<SyncCmd>(c.queues[q].commands[k - 1].body)) --k;
  if (k == b) return {b};
  return {k, b};
}

// The waits that order (qa, a) before (qb, b): one per signal or label value write of queue qa
// at or after a, inserted at each wait point before b.
std::vector<Edit> waits_for(const Case& c, uint32_t qa, uint32_t a, uint32_t qb, uint32_t b) {
  std::vector<Edit> out;
  const QueueType consumer = c.queues[qb].type;
  const std::vector<uint32_t> points = wait_points(c, qb, b);
  for (uint32_t k = a; k < c.queues[qa].commands.size() && out.size() < 4 * points.size(); ++k) {
    const Command& s = c.queues[qa].commands[k];
    auto wait = [&](const CommandBody& body) {
      for (uint32_t at : points) {
        Edit e;
        e.kind = EditKind::NewWait, e.queue = qb, e.cmd = at, e.wait = body;
        out.push_back(std::move(e));
      }
    };
    if (const auto* sig = std::get_if<SignalCmd>(&s.body); sig && sig->value > 0) {
      if (consumer != QueueType::Host) wait(WaitFenceCmd{true, sig->fence, sig->value, 0});
      wait(WaitFenceCmd{false, sig->fence, sig->value, 0});
    } else if (const auto* w = std::get_if<BopWriteCmd>(&s.body);
               w && w->label && w->source == WriteValueSource::Value && w->value > 0 &&
               consumer != QueueType::Host) {
      const bool is64 = w->api == SyncApi::Write64BitValueBottomOfPipe2X;
      const uint64_t v = is64 ? w->value : (w->value & 0xFFFFFFFFu);
      if (v > 0) wait(WaitValueCmd{is64, w->label, w->address, Comparison::GreaterEqual, v});
    }
  }
  return out;
}

// Where original command (q, i) is in a case edited from it.
uint32_t variant_index(const Origins& o, uint32_t q, uint32_t i) {
  for (uint32_t k = 0; k < o[q].size(); ++k)
    if (!o[q][k].fresh && o[q][k].index == i) return k;
  return i;
}

struct Need {
  Pair pair;
  std::vector<Edit> waits;  // forward (and, for a race, backward) candidates
};

bool ordered(const Case& c, const ModelConfig& cfg, const std::vector<Edit>& waits, const Pair& p) {
  Origins o;
  const Case v = apply(c, waits, &o);
  const LoweredProgram lp = lower(v, cfg);
  const properties::ApiOrder order(lp);
  const uint32_t a = variant_index(o, p.qa, p.a), b = variant_index(o, p.qb, p.b);
  return order.before(p.qa, a, p.qb, b) || (p.race && order.before(p.qb, b, p.qa, a));
}

void choose(const Case& c, const ModelConfig& cfg, const std::vector<Need>& needs, size_t at,
            std::vector<Edit>& chosen, std::vector<std::vector<Edit>>& out, size_t cap,
            size_t& nodes) {
  if (out.size() >= cap || ++nodes > 64) return;
  if (at == needs.size()) {
    out.push_back(chosen);
    return;
  }
  if (ordered(c, cfg, chosen, needs[at].pair)) {
    choose(c, cfg, needs, at + 1, chosen, out, cap, nodes);
    return;
  }
  for (const Edit& w : needs[at].waits) {
    chosen.push_back(w);
    choose(c, cfg, needs, at + 1, chosen, out, cap, nodes);
    chosen.pop_back();
  }
}

std::string where_line(const Case& c, uint32_t q, uint32_t i) {
  return fmt::format("line {}", c.queues[q].commands[i].loc.line);
}

}  // namespace

Bases make_bases(const Case& c, const ModelConfig& cfg, const std::vector<size_t>& props,
                 size_t cap) {
  Bases res;
  const LoweredProgram lp = lower(c, cfg);
  const properties::ApiOrder order(lp);
  std::vector<Need> needs;
  std::vector<Pair> all_pairs;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>> seen;
  for (size_t pi : props) {
    const properties::Obligations obs = properties::obligations_for(lp, c.properties[pi]);
    for (const properties::Obligation& ob : obs.list)
      for (const Pair& p : obligation_pairs(lp, ob)) {
        all_pairs.push_back(p);
        if (p.qa == p.qb || !seen.insert({p.qa, p.a, p.qb, p.b}).second) continue;
        if (order.before(p.qa, p.a, p.qb, p.b) || (p.race && order.before(p.qb, p.b, p.qa, p.a)))
          continue;
        Need n{p, waits_for(c, p.qa, p.a, p.qb, p.b)};
        if (p.race)
          for (Edit& w : waits_for(c, p.qb, p.b, p.qa, p.a)) n.waits.push_back(std::move(w));
        if (n.waits.empty())
          res.unorderable.push_back(fmt::format(
              "nothing on queue {} after {} signals a fence or writes a label value that queue {} "
              "could wait for before {}",
              c.queues[p.qa].name, where_line(c, p.qa, p.a), c.queues[p.qb].name,
              where_line(c, p.qb, p.b)));
        else
          needs.push_back(std::move(n));
      }
  }
  std::vector<std::vector<Edit>> wait_sets;
  if (needs.empty()) {
    wait_sets.push_back({});
  } else {
    std::vector<Edit> chosen;
    size_t nodes = 0;
    choose(c, cfg, needs, 0, chosen, wait_sets, cap, nodes);
    if (wait_sets.empty()) wait_sets.push_back({});
  }
  // Redirections inside the obligations' spans.
  std::vector<Edit> toggles;
  for (uint32_t q = 0; q < c.queues.size(); ++q)
    for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
      const auto car = carrier(c.queues[q].commands[i]);
      if (!car) continue;
      const bool inside = std::any_of(all_pairs.begin(), all_pairs.end(), [&](const Pair& p) {
        const bool after = (q == p.qa && i >= p.a) || order.before(p.qa, p.a, q, i);
        const bool before = (q == p.qb && i <= p.b) || order.before(q, i, p.qb, p.b);
        return after && before;
      });
      if (!inside) continue;
      Edit e;
      e.kind = EditKind::SetControl, e.queue = q, e.cmd = i;
      const bool sync =
          car->api == SyncApi::SyncTopOfPipeX || car->api == SyncApi::SyncBottomOfPipeX;
      if (sync && (car->flags & sync::kSyncCpdma) && c.queues[q].type == QueueType::Graphics) {
        (car->control.has(ControlFlag::CpdmaSelectEnginePfp) ? e.clear : e.control)
            .set(ControlFlag::CpdmaSelectEnginePfp);
        toggles.push_back(e);
      } else if (is_bop_write(car->api) && (car->control.has(ControlFlag::GcrSequenceForward) ||
                                            car->control.has(ControlFlag::GcrSequenceReverse))) {
        const bool fwd = car->control.has(ControlFlag::GcrSequenceForward);
        e.clear.set(fwd ? ControlFlag::GcrSequenceForward : ControlFlag::GcrSequenceReverse);
        e.control.set(fwd ? ControlFlag::GcrSequenceReverse : ControlFlag::GcrSequenceForward);
        toggles.push_back(e);
      }
    }
  std::vector<std::vector<Edit>> toggle_sets{{}};
  for (const Edit& t : toggles) toggle_sets.push_back({t});
  if (toggles.size() >= 2 && toggles.size() <= 3)
    for (size_t i = 0; i < toggles.size(); ++i)
      for (size_t j = i + 1; j < toggles.size(); ++j)
        toggle_sets.push_back({toggles[i], toggles[j]});
  for (const auto& t : toggle_sets)
    for (const auto& w : wait_sets) {
      if (res.list.size() >= cap) return res;
      Base b;
      b.edits = w;
      b.edits.insert(b.edits.end(), t.begin(), t.end());
      res.list.push_back(std::move(b));
    }
  return res;
}

}  // namespace syncproof::synth
