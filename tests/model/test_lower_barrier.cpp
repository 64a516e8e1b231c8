// The lowering of the standard barriers (model/lower_barrier.cpp): the contract's events for each
// form, ranged over the named resource, and A-BARRIER-PAL's whole-cache operations under rdna2,
// made only under that assumption and guarded on their way out.
#include <doctest/doctest.h>

#include <algorithm>

#include "model/events.h"
#include "tests/case_fixture.h"

using namespace syncproof::model;
using syncproof::testing::LoweredCase;

namespace {

std::string barrier_frame(const std::string& queue_type, const std::string& decls,
                          const std::string& body) {
  return "queue q " + queue_type + "\n" + decls + "on q:\n" + body;
}

std::vector<const CacheOp*> barrier_cache_ops(const LoweredProgram& p, bool pal) {
  std::vector<const CacheOp*> out;
  for (const CacheOp& o : p.cache_ops)
    if ((o.exists_under == AssumptionId::BarrierPal) == pal) out.push_back(&o);
  return out;
}

std::vector<Level> op_levels(const std::vector<const CacheOp*>& v) {
  std::vector<Level> out;
  for (const CacheOp* o : v) out.push_back(o->level);
  return out;
}

bool has_order(const LoweredProgram& p, EventId a, EventId b) {
  return std::any_of(p.orders.begin(), p.orders.end(),
                     [&](const Order& o) { return o.before == a && o.after == b; });
}

size_t count_barrier_rule(const LoweredProgram& p, Rule r) {
  return static_cast<size_t>(
      std::count_if(p.orders.begin(), p.orders.end(), [&](const Order& o) { return o.rule == r; }));
}

const std::string kGridBuffer = "buffer grid 0x10010 0x4000\n";

}  // namespace

TEST_CASE("a transition under strict: the contract's waits, ranged invalidations, held stages") {
  LoweredCase lc(
      barrier_frame("graphics", kGridBuffer,
                    "  Dispatch writes grid as uav\n"
                    "  ResourceBarrier(TRANSITION, grid, UNORDERED_ACCESS, PIXEL_SHADER_RESOURCE)\n"
                    "  Draw reads grid as srv in ps\n"),
      Profile::Strict);
  const LoweredProgram& p = lc.p;
  const auto contract = barrier_cache_ops(p, false);
  CHECK(op_levels(contract) == std::vector<Level>{Level::Gl1, Level::Gl0});
  CHECK(barrier_cache_ops(p, true).empty());
  for (const CacheOp* o : contract) {
    CHECK(o->cov.kind == Coverage::Kind::Range);
    // The buffer widened outward to 256 bytes: every unit it touches is covered.
    CHECK(o->cov.covers(0x10010 / 64));
    CHECK(o->cov.covers((0x10010 + 0x4000 - 1) / 64));
    CHECK_FALSE(o->cov.covers(0x20000 / 64));
  }
  CHECK(has_order(p, contract[0]->ev, contract[1]->ev));  // GL1 before GL0, unguarded
  CHECK(count_barrier_rule(p, Rule::BarrierWait) >= 2);   // the compute waves and their stores
  CHECK(count_barrier_rule(p, Rule::BarrierHold) == 1);   // the pixel shader's first waves
  CHECK(count_barrier_rule(p, Rule::BarrierPal) == 0);
}

TEST_CASE("the same transition under rdna2 adds PAL's whole-cache work under A-BARRIER-PAL") {
  LoweredCase lc(
      barrier_frame("graphics", kGridBuffer,
                    "  Dispatch writes grid as uav\n"
                    "  ResourceBarrier(TRANSITION, grid, UNORDERED_ACCESS, PIXEL_SHADER_RESOURCE)\n"
                    "  Draw reads grid as srv in ps\n"),
      Profile::Rdna2);
  const LoweredProgram& p = lc.p;
  CHECK(op_levels(barrier_cache_ops(p, false)) == std::vector<Level>{Level::Gl1, Level::Gl0});
  const auto pal = barrier_cache_ops(p, true);
  // K$, GL0, GL1, M$ invalidations (PAL's GlkInv | GlvInv | Gl1Inv | GlmInv), whole caches.
  CHECK(pal.size() == 4);
  for (const CacheOp* o : pal) {
    CHECK(o->cov.kind == Coverage::Kind::All);
    CHECK(o->invalidate);
  }
  // The ME resumes after them, through orders guarded by A-BARRIER-PAL only.
  const auto me = std::find_if(p.events.begin(), p.events.end(), [](const Event& e) {
    return e.what() == "ME resumes after the barrier (PAL)";
  });
  REQUIRE(me != p.events.end());
  const EventId m = static_cast<EventId>(me - p.events.begin());
  for (const CacheOp* o : pal) {
    bool guarded = false;
    for (const Order& x : p.orders)
      if (x.before == o->ev && x.after == m) guarded = x.guard.id == AssumptionId::BarrierPal;
    CHECK(guarded);
  }
  CHECK(count_barrier_rule(p, Rule::PartialFlush) >= 1);  // CS_PARTIAL_FLUSH for SYNC_BEFORE
}

TEST_CASE("a render target read as a texture on the split target: CB, GL2 down, GL2 up, L1, L0") {
  LoweredCase lc(
      barrier_frame("graphics", "texture color 0x200000 0x10000 compressed\n",
                    "  Draw writes color as rt\n"
                    "  ResourceBarrier(TRANSITION, color, RENDER_TARGET, PIXEL_SHADER_RESOURCE)\n"
                    "  Draw reads color as srv in ps\n"),
      Profile::Strict);
  const LoweredProgram& p = lc.p;
  const auto v = barrier_cache_ops(p, false);
  CHECK(op_levels(v) == std::vector<Level>{Level::Cb, Level::CbMeta, Level::Gl2, Level::Gl2,
                                           Level::Gl1, Level::Mcache, Level::Gl0});
  REQUIRE(v.size() == 7);
  CHECK(v[2]->writeback);
  CHECK_FALSE(v[2]->invalidate);
  CHECK(v[3]->invalidate);
  CHECK_FALSE(v[3]->writeback);
  CHECK(has_order(p, v[0]->ev, v[2]->ev));  // the CB flush before the GL2 write-back
  CHECK(has_order(p, v[2]->ev, v[3]->ev));  // the write-back before the invalidation
  CHECK(has_order(p, v[3]->ev, v[4]->ev));
}

TEST_CASE("UAV, aliasing and global barriers: NULL and GLOBAL cover the whole memory") {
  LoweredCase uav(barrier_frame("compute", kGridBuffer,
                                "  Dispatch writes grid as uav\n  ResourceBarrier(UAV, NULL)\n"
                                "  Dispatch reads grid as uav\n"),
                  Profile::Strict);
  for (const CacheOp* o : barrier_cache_ops(uav.p, false))
    CHECK(o->cov.kind == Coverage::Kind::All);
  CHECK(op_levels(barrier_cache_ops(uav.p, false)) == std::vector<Level>{Level::Gl1, Level::Gl0});
  // ALIASING is SYNC_ALL / ACCESS_COMMON: on a compute queue nothing of the render back-ends.
  LoweredCase alias(
      barrier_frame("compute", kGridBuffer + "buffer other 0x10000 0x4000\n",
                    "  Dispatch writes grid as uav\n  ResourceBarrier(ALIASING, grid, other)\n"
                    "  Dispatch reads other as srv\n"),
      Profile::Strict);
  for (const CacheOp* o : barrier_cache_ops(alias.p, false)) {
    CHECK(o->level != Level::Cb);
    CHECK(o->level != Level::Db);
    CHECK(o->cov.kind == Coverage::Kind::Range);
  }
  LoweredCase global(
      barrier_frame("graphics", kGridBuffer,
                    "  Dispatch writes grid as uav\n"
                    "  Barrier(GLOBAL, COMPUTE_SHADING, VERTEX_SHADING, UNORDERED_ACCESS, "
                    "SHADER_RESOURCE)\n  Draw reads grid as srv in vs\n"),
      Profile::Strict);
  for (const CacheOp* o : barrier_cache_ops(global.p, false))
    CHECK(o->cov.kind == Coverage::Kind::All);
}

TEST_CASE("a split barrier: work after BEGIN, completion at END, which alone holds later work") {
  LoweredCase lc(barrier_frame("graphics", kGridBuffer,
                               "  Dispatch writes grid as uav\n"
                               "  Barrier(BUFFER, grid, COMPUTE_SHADING, SPLIT, UNORDERED_ACCESS, "
                               "SHADER_RESOURCE)\n"
                               "  Draw reads grid as srv in ps\n"
                               "  Barrier(BUFFER, grid, SPLIT, PIXEL_SHADING, UNORDERED_ACCESS, "
                               "SHADER_RESOURCE)\n"
                               "  Draw reads grid as srv in ps\n"),
                 Profile::Strict);
  const LoweredProgram& p = lc.p;
  const auto v = barrier_cache_ops(p, false);
  REQUIRE(v.size() == 2);
  CHECK(p.events[v[0]->ev].cmd == 1);  // the BEGIN half's command
  const auto done = std::find_if(p.events.begin(), p.events.end(),
                                 [](const Event& e) { return e.what() == "split barrier done"; });
  REQUIRE(done != p.events.end());
  CHECK(done->cmd == 3);  // the END half's
  const EventId d = static_cast<EventId>(done - p.events.begin());
  for (const CacheOp* o : v) CHECK(has_order(p, o->ev, d));
  CHECK(count_barrier_rule(p, Rule::BarrierHold) == 1);  // the second draw's pixel shader only
  CHECK(count_barrier_rule(p, Rule::BarrierSplit) >= 3);
}

TEST_CASE("a standard Signal waits for the barriers before it") {
  LoweredCase lc(
      barrier_frame("graphics", kGridBuffer + "fence f\n",
                    "  Dispatch writes grid as uav\n"
                    "  Barrier(BUFFER, grid, COMPUTE_SHADING, NONE, UNORDERED_ACCESS, NO_ACCESS)\n"
                    "  Signal(f, 1)\n"),
      Profile::Strict);
  CHECK(count_barrier_rule(lc.p, Rule::BarrierFence) >= 1);
  CHECK(count_barrier_rule(lc.p, Rule::BarrierHold) == 0);  // SYNC_AFTER NONE holds nothing
}
