// The concrete form of the properties: obligations built from a lowered case, decided on
// hand-made executions.
#include <doctest/doctest.h>

#include <algorithm>

#include "properties/api_order.h"
#include "properties/monitor.h"
#include "tests/case_fixture.h"

using namespace syncproof;
using namespace syncproof::model;
using namespace syncproof::properties;

namespace {

struct Fixture : syncproof::testing::LoweredCase {
  using LoweredCase::LoweredCase;
  Property prop(PropertyKind k, std::string from = "", std::string to = "") {
    Property pr;
    pr.kind = k;
    pr.from = std::move(from);
    pr.to = std::move(to);
    return pr;
  }
  uint32_t op_at(Level l) const {
    for (uint32_t i = 0; i < p.cache_ops.size(); ++i)
      if (p.cache_ops[i].level == l) return i;
    FAIL("no cache operation at that level");
    return 0;
  }
};

const std::string& kUavSrv = testing::kUavSrvCommands;

}  // namespace

TEST_CASE("visible: one freshness obligation, up through GL1 then GL0") {
  Fixture f(kUavSrv);
  auto obs = obligations_for(f.p, f.prop(PropertyKind::Visible, "produce", "consume"));
  REQUIRE(obs.error.empty());
  REQUIRE(obs.list.size() == 1);
  const auto& fr = obs.list[0].fresh;
  REQUIRE(fr.steps.size() == 2);
  CHECK(fr.steps[0].level == Level::Gl1);
  CHECK(fr.steps[1].level == Level::Gl0);
  CHECK_FALSE(fr.steps[0].down);
  CHECK(fr.lo == 0x10000 / 64);
  CHECK(fr.hi == 0x13FFF / 64);
}

TEST_CASE("the monitor: fresh when each level is invalidated after the level below, else blamed") {
  Fixture f(kUavSrv);
  auto o = obligations_for(f.p, f.prop(PropertyKind::Visible, "produce", "consume")).list.at(0);
  Times t(f.p.events.size(), 0);
  const MemAccess& w = f.p.accesses[o.fresh.write];
  const MemAccess& r = f.p.accesses[o.fresh.read];
  EventId gl1 = f.p.cache_ops[f.op_at(Level::Gl1)].ev, gl0 = f.p.cache_ops[f.op_at(Level::Gl0)].ev;
  t[w.arrive] = 10, t[gl1] = 20, t[gl0] = 30, t[r.ev] = 40;
  uint64_t line = o.fresh.lo + 3;
  CHECK_FALSE(monitor(f.p, o, t, line).violated);

  t[gl1] = 5;  // GL1 invalidated before the store reached GL2: the producer was not waited for
  auto m = monitor(f.p, o, t, line);
  CHECK(m.violated);
  // The sync after the dispatch already has CS_PARTIAL_FLUSH: the explanation never names it for
  // that command, but where a new one would go; IDLE would do as well, on the sync that lacks it.
  CHECK(m.blamed == std::vector<std::string>{
                        "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH in a new SyncBottomOfPipeX after "
                        "t.sync:4",
                        "D3D12XBOX_SYNC_FLAG_IDLE on SyncBottomOfPipeX at t.sync:5"});

  t[gl1] = 35;  // GL0 refilled from GL1 before GL1 was invalidated
  m = monitor(f.p, o, t, line);
  CHECK(m.violated);
  // Again, on the reader's side of that one.
  CHECK(m.blamed.at(0) ==
        "D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE in a new SyncTopOfPipeX before t.sync:7 (the one "
        "at t.sync:6 ran before the data reached GL0)");

  t[gl1] = 20, t[gl0] = 45;  // the read overtook the GL0 invalidation
  m = monitor(f.p, o, t, line);
  CHECK(m.violated);
  CHECK(m.why.find("after the read") != std::string::npos);

  t[gl0] = 30, t[w.arrive] = 50;  // the read happened before the data arrived at all
  CHECK(monitor(f.p, o, t, line).violated);
}

TEST_CASE("follow_chain stops at the first step nothing covers") {
  Fixture f(kUavSrv);
  auto o = obligations_for(f.p, f.prop(PropertyKind::Visible, "produce", "consume")).list.at(0);
  Times t(f.p.events.size(), 0);
  EventId gl1 = f.p.cache_ops[f.op_at(Level::Gl1)].ev, gl0 = f.p.cache_ops[f.op_at(Level::Gl0)].ev;
  t[gl1] = 20, t[gl0] = 30;
  auto c = follow_chain(f.p, o.fresh.steps, 10, o.fresh.lo, t);
  REQUIRE(c.time);
  CHECK(*c.time == 30);
  CHECK(c.failed_step == 2);
  c = follow_chain(f.p, o.fresh.steps, 25, o.fresh.lo, t);
  CHECK_FALSE(c.time);
  CHECK(c.failed_step == 0);
}

TEST_CASE("no-hazards: API order through fences, races without it") {
  Fixture f(R"(queue a compute
queue b compute
buffer x 0x10000 0x1000
fence done
on a:
  w: Dispatch writes x as uav
  Signal(done, 1)
on b:
  Wait(done, 1)
  r: Dispatch reads x as srv
  w2: Dispatch writes x as uav
)");
  ApiOrder hb(f.p);
  CHECK(hb.before(0, 0, 1, 1));  // w before r through the fence
  CHECK_FALSE(hb.before(1, 1, 0, 0));
  CHECK(hb.before(1, 1, 1, 2));  // queue order
  auto obs = obligations_for(f.p, f.prop(PropertyKind::NoHazards));
  int fresh = 0, war = 0, waw = 0, race = 0;
  for (const auto& o : obs.list) {
    fresh += o.kind == Obligation::Kind::Fresh;
    war += o.kind == Obligation::Kind::ReadFirst;
    waw += o.kind == Obligation::Kind::WriteOrder;
    race += o.kind == Obligation::Kind::Race;
  }
  CHECK(fresh == 1);  // w -> r
  CHECK(war == 1);    // r -> w2
  CHECK(waw == 1);    // w -> w2
  CHECK(race == 0);

  Fixture racy(R"(queue a compute
queue b compute
buffer x 0x10000 0x1000
on a:
  Dispatch writes x as uav
on b:
  Dispatch reads x as srv
)");
  auto robs = obligations_for(racy.p, racy.prop(PropertyKind::NoHazards));
  REQUIRE(robs.list.size() == 1);
  CHECK(robs.list[0].kind == Obligation::Kind::Race);
  CHECK(monitor(racy.p, robs.list[0], Times(racy.p.events.size(), 0), 0).violated);
}

TEST_CASE("a wait that two queues' signals can satisfy orders only what precedes both") {
  Fixture f(R"(queue a compute
queue b compute
queue c compute
buffer x 0x10000 0x1000
fence g
on a:
  Dispatch writes x as uav
  Signal(g, 1)
on b:
  Signal(g, 1)
on c:
  Wait(g, 1)
  Dispatch reads x as srv
)");
  ApiOrder hb(f.p);
  CHECK_FALSE(hb.before(0, 0, 2, 1));  // b's signal alone can release the wait
}

TEST_CASE("visible with nothing to check is an error, not a proof") {
  Fixture f(R"(queue a compute
buffer x 0x10000 0x1000
buffer y 0x20000 0x1000
on a:
  p: Dispatch writes x as uav
  q: Dispatch reads y as srv
)");
  auto obs = obligations_for(f.p, f.prop(PropertyKind::Visible, "p", "q"));
  CHECK(obs.list.empty());
  CHECK(obs.error.find("vacuous") != std::string::npos);
}

TEST_CASE(
    "write order: colour data that arrives late with no write-back between the writes blames "
    "the write-back (every fix needs it), and the wait when the write-back is there") {
  // The render's data reaches CB only after the UAV data reached GL2. Without a CB write-back
  // between the two writes, a wait for the render alone would still leave its dirty line to be
  // evicted after the UAV data (the other executions of the same case), so the explanation names
  // the write-back; once the sync between has one, what is missing is the wait.
  auto blamed_when_late = [](const std::string& text) {
    Fixture f(text);
    auto obs = obligations_for(f.p, f.prop(PropertyKind::NoHazards));
    REQUIRE(obs.error.empty());
    const Obligation* waw = nullptr;
    for (const Obligation& o : obs.list)
      if (o.kind == Obligation::Kind::WriteOrder) waw = &o;
    REQUIRE(waw != nullptr);
    REQUIRE_FALSE(waw->waw.first_steps.empty());
    CHECK(waw->waw.first_steps[0].level == Level::Cb);
    Times t(f.p.events.size(), 0);
    t[f.p.accesses[waw->waw.second].arrive] = 10;
    t[f.p.accesses[waw->waw.first].arrive] = 20;
    auto m = monitor(f.p, *waw, t, waw->waw.lo);
    CHECK(m.violated);
    return m;
  };
  auto one_queue = [](const std::string& between_flags) {
    return "queue gfx graphics\ntexture lut 0x420000000 0x1000\non gfx:\n"
           "  render: Draw writes lut as rt\n"
           "  SyncBottomOfPipeX(" +
           between_flags +
           ", NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
           "  overwrite: Dispatch writes lut as uav\n"
           "  SyncBottomOfPipeX(COLOR_BLOCK_DATA_FLUSH | IDLE, NONE, 0, "
           "D3D12XBOX_FLUSH_RANGE_ALL)\n";
  };
  auto m = blamed_when_late(one_queue("PS_PARTIAL_FLUSH"));
  CHECK(m.blamed == std::vector<std::string>{
                        "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH on SyncBottomOfPipeX at "
                        "t.sync:5",
                        "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE in a new SyncTopOfPipeX after "
                        "t.sync:4"});
  CHECK(m.why.find("and nothing between the two writes writes back CB") != std::string::npos);
  m = blamed_when_late(one_queue("PS_PARTIAL_FLUSH | COLOR_BLOCK_DATA_FLUSH"));
  CHECK(m.blamed ==
        std::vector<std::string>{"D3D12XBOX_SYNC_FLAG_IDLE on SyncBottomOfPipeX at t.sync:5",
                                 "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY in a new "
                                 "SyncTopOfPipeX after t.sync:4"});
  CHECK(m.why.find("writes back") == std::string::npos);
  // The graphics queue flushes CB only after its signal, so not between the writes: the write-back
  // goes on the signal, as when the data arrived in time (the "nothing wrote back" explanation).
  m = blamed_when_late(R"(queue gfx graphics
queue acs compute
texture lut 0x420000000 0x1000
fence f
on gfx:
  render: Draw writes lut as rt
  Signal2X(f, 1)
  SyncBottomOfPipeX(COLOR_BLOCK_DATA_FLUSH | IDLE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
on acs:
  WaitX(f, 1)
  overwrite: Dispatch writes lut as uav
)");
  CHECK(m.blamed == std::vector<std::string>{
                        "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH on Signal2X at t.sync:7",
                        "D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE in a new SyncTopOfPipeX "
                        "after t.sync:6"});
}

namespace {

// A host upload into the second half of a 128-byte GL2 line whose first half a dispatch wrote
// (R-GL2-INV-KEEPS-DIRTY): the read's GL2 step has that write as its line mate.
const std::string kUploadBesideDirty = R"(queue gfx graphics
queue cpu host
buffer a 0x100000 0x40
buffer b 0x100040 0x40
fence up
on gfx:
  dirty: Dispatch writes a as uav
  WaitX(up, 1)
  SyncTopOfPipeX(GL2_INVALIDATE | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  read: Dispatch reads b as srv
on cpu:
  upload: Host writes b as host
  Signal(up, 1)
)";

}  // namespace

TEST_CASE("visible: a bare GL2 invalidation is held shut by a line mate still dirty in GL2") {
  Fixture f(kUploadBesideDirty);
  auto obs = obligations_for(f.p, f.prop(PropertyKind::Visible, "upload", "read"));
  REQUIRE(obs.list.size() == 1);
  const Obligation& o = obs.list[0];
  REQUIRE(o.fresh.gl2_up == 0);
  REQUIRE(o.fresh.mates.size() == 1);
  const LineMate& mate = o.fresh.mates[0];
  CHECK(mate.lo == 0x100000 / 64);  // both halves of the line
  CHECK(mate.hi == 0x100000 / 64 + 1);
  REQUIRE(mate.steps.size() == 1);  // GL2, down to memory
  const MemAccess& w = f.p.accesses[o.fresh.write];
  const MemAccess& r = f.p.accesses[o.fresh.read];
  const MemAccess& x = f.p.accesses[mate.access];
  Times t(f.p.events.size(), 0);
  const EventId gl2 = f.p.cache_ops[f.op_at(Level::Gl2)].ev;
  const EventId gl1 = f.p.cache_ops[f.op_at(Level::Gl1)].ev;
  const EventId gl0 = f.p.cache_ops[f.op_at(Level::Gl0)].ev;
  t[x.arrive] = 5, t[w.arrive] = 10, t[gl2] = 20, t[gl1] = 21, t[gl0] = 22, t[r.ev] = 30;
  const uint64_t unit = 0x100040 / 64;
  auto m = monitor(f.p, o, t, unit);
  CHECK(m.violated);
  CHECK(m.why.find("kept the GL2 line at 0x100000") != std::string::npos);
  CHECK(m.why.find("was never written back") != std::string::npos);
  // The dirty line written back between the dispatch and the invalidation (WaitX runs its flags
  // after the wait, before the next command), or on the invalidation itself.
  CHECK(m.blamed == std::vector<std::string>{
                        "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK on WaitX at t.sync:8",
                        "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK on SyncTopOfPipeX at t.sync:9"});
  CHECK(std::find(m.events.begin(), m.events.end(), x.arrive) != m.events.end());
  t[x.arrive] = 25;  // the mate reaches GL2 only after the invalidation: the line was clean
  CHECK_FALSE(monitor(f.p, o, t, unit).violated);
  t[x.arrive] = 20;  // at the same time: taken as already there
  CHECK(monitor(f.p, o, t, unit).violated);
}

TEST_CASE("visible: a line mate written back before the invalidation leaves the line clean") {
  Fixture f(R"(queue gfx graphics
queue cpu host
buffer a 0x100000 0x40
buffer b 0x100040 0x40
fence up
on gfx:
  dirty: Dispatch writes a as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | GL2_WRITEBACK, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  WaitX(up, 1)
  SyncTopOfPipeX(GL2_INVALIDATE | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  read: Dispatch reads b as srv
on cpu:
  upload: Host writes b as host
  Signal(up, 1)
)");
  const Obligation o =
      obligations_for(f.p, f.prop(PropertyKind::Visible, "upload", "read")).list.at(0);
  REQUIRE(o.fresh.mates.size() == 1);
  const MemAccess& w = f.p.accesses[o.fresh.write];
  const MemAccess& r = f.p.accesses[o.fresh.read];
  const MemAccess& x = f.p.accesses[o.fresh.mates[0].access];
  uint32_t wb = UINT32_MAX, inv = UINT32_MAX;
  for (uint32_t i = 0; i < f.p.cache_ops.size(); ++i) {
    const CacheOp& op = f.p.cache_ops[i];
    if (op.level != Level::Gl2) continue;
    (op.writeback ? wb : inv) = i;
  }
  REQUIRE(wb != UINT32_MAX);
  REQUIRE(inv != UINT32_MAX);
  Times t(f.p.events.size(), 0);
  t[x.arrive] = 5, t[f.p.cache_ops[wb].ev] = 8, t[w.arrive] = 10;
  t[f.p.cache_ops[inv].ev] = 20, t[f.p.cache_ops[f.op_at(Level::Gl1)].ev] = 21;
  t[f.p.cache_ops[f.op_at(Level::Gl0)].ev] = 22, t[r.ev] = 30;
  CHECK_FALSE(monitor(f.p, o, t, 0x100040 / 64).violated);
  t[f.p.cache_ops[wb].ev] = 24;  // written back only after the invalidation ran
  CHECK(monitor(f.p, o, t, 0x100040 / 64).violated);
}

TEST_CASE("visible: under A-RB-FILL-ON-ACCESS the CB step is open unless a fill is stale") {
  const std::string text = R"(target gl2-rb-coherent yes
queue gfx graphics
texture img 0x800000 0x10000
on gfx:
  prior: Draw reads img as rt
  produce: Dispatch writes img as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(COLOR_BLOCK_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  blend: Draw reads img as rt, writes img as rt
)";
  Fixture f(text);
  const Obligation o =
      obligations_for(f.p, f.prop(PropertyKind::Visible, "produce", "blend")).list.at(0);
  REQUIRE(o.fresh.steps.size() == 1);  // GL2 is coherent: up through CB only
  REQUIRE(o.fresh.rb_up == 0);
  REQUIRE(o.fresh.fills.size() == 2);  // the prior draw's read, and the blend's own write
  const MemAccess& w = f.p.accesses[o.fresh.write];
  const MemAccess& r = f.p.accesses[o.fresh.read];
  const EventId prior = f.p.accesses[f.p.command(0, 0).accesses.at(0)].ev;
  const EventId cb = f.p.cache_ops[f.op_at(Level::Cb)].ev;
  Times t(f.p.events.size(), 0);
  for (const RbFill& fill : o.fresh.fills) t[fill.ev] = 40;  // the blend's write: after the read
  t[prior] = 5, t[w.arrive] = 10, t[cb] = 3, t[r.ev] = 30;
  const uint64_t unit = 0x800000 / 64;
  auto m = monitor(f.p, o, t, unit);  // filled at 5, invalidated only before that
  CHECK(m.violated);
  CHECK(m.why.find("the render back-ends filled CB") != std::string::npos);
  CHECK(std::find(m.events.begin(), m.events.end(), prior) != m.events.end());
  t[cb] = 7;  // invalidated after the fill, before the data was below: nothing stale
  CHECK_FALSE(monitor(f.p, o, t, unit).violated);
  t[cb] = 3, t[prior] = 12;  // the fill came after the data was in GL2: it fetched fresh data
  CHECK_FALSE(monitor(f.p, o, t, unit).violated);
  // Without the assumption CB may hold the line from any time: an invalidation after the data is
  // needed.
  Fixture strict("assume -A-RB-FILL-ON-ACCESS\n" + text);
  const Obligation so =
      obligations_for(strict.p, strict.prop(PropertyKind::Visible, "produce", "blend")).list.at(0);
  CHECK(monitor(strict.p, so, t, unit).violated);
}

TEST_CASE(
    "a bottom-of-pipe value write is lowered on both paths, the second under its assumption") {
  Fixture f(R"(queue gfx graphics
label l 0x700000
on gfx:
  Write64BitValueBottomOfPipe2X(l, 1, NONE, NONE, NONE)
)");
  REQUIRE(f.p.accesses.size() == 2);
  const MemAccess& gl2 = f.p.accesses[0];
  const MemAccess& mem = f.p.accesses[1];
  CHECK(gl2.ev == mem.ev);
  CHECK(gl2.path.size == 2);
  CHECK(gl2.path[0] == Level::Gl2);
  CHECK_FALSE(gl2.only_without);
  CHECK(mem.path.size == 1);
  CHECK(mem.path[0] == Level::Mem);
  CHECK(mem.only_without == AssumptionId::BopValueThroughGl2);
}
