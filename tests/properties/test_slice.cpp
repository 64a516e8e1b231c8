// Counterexample slices (properties/slice.h): which events fall Before, In and After, and the
// whole execution Slicer::extend() builds from times for the In events, or refuses to.
#include <doctest/doctest.h>

#include <algorithm>

#include "properties/api_order.h"
#include "properties/slice.h"
#include "tests/case_fixture.h"
#include "tests/completion_times.h"

using namespace syncproof;
using properties::Part;

namespace {

// gfx writes `a` and signals; acs waits and reads it. `early` (gfx) and `other` (acs) need
// neither access; `later` (gfx) comes after the write but before no key event.
const std::string kCase = R"(queue gfx graphics
queue acs compute
buffer a 0x10000 0x1000
buffer b 0x20000 0x1000
fence f
on gfx:
  early: Dispatch writes b as uav
  produce: Dispatch writes a as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  Signal(f, 1)
  later: Dispatch writes b as uav
on acs:
  other: Dispatch reads b as srv
  Wait(f, 1)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads a as srv
prove visible produce -> consume
)";

// The parts of every event of one command.
std::vector<Part> parts_of(const model::LoweredProgram& p, const properties::Slice& s, uint32_t q,
                           uint32_t cmd) {
  std::vector<Part> out;
  for (model::EventId e = 0; e < p.events.size(); ++e)
    if (p.events[e].queue == q && p.events[e].cmd == cmd) out.push_back(s.part[e]);
  return out;
}

// One execution: every event once everything ordered before it and a candidate of each of its
// wait rules are done, in the order they became ready, as times (1, 2, ...).
properties::Times some_execution(const model::LoweredProgram& p) {
  const properties::Times t = testing::completion_times(p, [](size_t) { return size_t{0}; });
  REQUIRE(std::count(t.begin(), t.end(), 0) == 0);
  return t;
}

}  // namespace

TEST_CASE("a slice holds the events between the write and the read, and no others") {
  testing::LoweredCase lc(kCase);
  const auto& p = lc.p;
  auto obs = properties::obligations_for(p, lc.c.properties[0]);
  REQUIRE(!obs.list.empty());
  const properties::Obligation& o = obs.list[0];
  REQUIRE(o.kind == properties::Obligation::Kind::Fresh);
  properties::ApiOrder hb(p);
  const properties::Slicer slicer(p);
  auto s = slicer.slice(o, hb);
  REQUIRE(s);
  const model::MemAccess& w = p.accesses[o.fresh.write];
  const model::MemAccess& r = p.accesses[o.fresh.read];
  CHECK(s->part[w.ev] == Part::In);
  CHECK(s->part[w.arrive] == Part::In);
  CHECK(s->part[r.ev] == Part::In);
  // gfx `early` and acs `other` complete without either access. The read needs nothing of gfx
  // `later`; its waves wait for the write's (CS_PARTIAL_FLUSH), although the CP may process the
  // command before.
  for (Part x : parts_of(p, *s, 0, 0)) CHECK(x == Part::Before);
  for (Part x : parts_of(p, *s, 1, 0)) CHECK(x == Part::Before);
  for (Part x : parts_of(p, *s, 0, 4)) CHECK(x != Part::In);
  CHECK(s->part[p.accesses[p.command(0, 4).accesses.at(0)].ev] == Part::After);
  // The acs wait's completion needs the signal, which needs the write: In.
  for (const model::WaitRule& wr : p.waits)
    if (p.events[wr.wait].queue == 1) CHECK(s->part[wr.wait] == Part::In);
  CHECK(s->in == static_cast<size_t>(std::count(s->part.begin(), s->part.end(), Part::In)));
  CHECK(s->in < p.events.size());
}

TEST_CASE("extend() makes a whole execution from the In events' times, or refuses") {
  testing::LoweredCase lc(kCase);
  const auto& p = lc.p;
  auto obs = properties::obligations_for(p, lc.c.properties[0]);
  properties::ApiOrder hb(p);
  const properties::Slicer slicer(p);
  auto s = slicer.slice(obs.list[0], hb);
  REQUIRE(s);
  const properties::Times run = some_execution(p);
  auto t = slicer.extend(*s, run);
  REQUIRE(t);
  // Every order and every wait rule of the whole program holds on it, and the parts come in
  // order: Before, then In (in the given order), then After.
  for (const model::Order& o : p.orders) CHECK((*t)[o.before] < (*t)[o.after]);
  for (const model::WaitRule& wr : p.waits)
    if (!wr.initial.can_sat && !wr.candidates.empty())
      CHECK(std::any_of(wr.candidates.begin(), wr.candidates.end(),
                        [&](model::EventId c) { return (*t)[c] < (*t)[wr.wait]; }));
  for (model::EventId a = 0; a < p.events.size(); ++a)
    for (model::EventId b = 0; b < p.events.size(); ++b) {
      if (s->part[a] < s->part[b]) CHECK((*t)[a] < (*t)[b]);
      if (s->part[a] == Part::In && s->part[b] == Part::In && run[a] < run[b])
        CHECK((*t)[a] < (*t)[b]);
    }
  // In times that break an order between two In events: no execution.
  properties::Times reversed = run;
  for (long long& x : reversed) x = -x;
  CHECK_FALSE(slicer.extend(*s, reversed));
}
