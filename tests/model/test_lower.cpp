// The lowering: coverage of ranged operations, access paths, and the constraints a few commands
// become (with their rules and assumption guards).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "lang/parse.h"
#include "model/lower_impl.h"
#include "tests/case_fixture.h"
#include "tests/tools/library_cases.h"

using namespace syncproof::model;

namespace {

using syncproof::testing::LoweredCase;

size_t count_rule(const LoweredProgram& p, Rule r) {
  return static_cast<size_t>(
      std::count_if(p.orders.begin(), p.orders.end(), [&](const Order& o) { return o.rule == r; }));
}

const std::string& kUavSrv = syncproof::testing::kUavSrvCommands;

// f(case) for each case of the library that parses, its path CAPTUREd; how many there were.
template <class F>
size_t for_each_library_case(F f) {
  size_t cases = 0;
  for (const auto& entry : syncproof::testing::library_cases()) {
    const std::string& path = entry.first;  // a structured binding cannot be CAPTUREd (clang)
    auto pr = syncproof::lang::parse_case(path, entry.second);
    if (pr.has_errors()) continue;
    CAPTURE(path);
    f(pr.c);
    ++cases;
  }
  return cases;
}

}  // namespace

TEST_CASE("RANGE covers every line the range touches, MARGIN its end lines under every encoding") {
  using detail::coverage_for_range;
  auto all = coverage_for_range({true, 0, 0}, false, 128);
  CHECK(all.kind == Coverage::Kind::All);
  CHECK(coverage_for_range({true, 0, 0}, true, 128).kind == Coverage::Kind::Nothing);
  auto r = coverage_for_range({false, 0x10000, 0x1000}, false, 128);
  CHECK(r.kind == Coverage::Kind::Range);
  CHECK(r.lo == 0x10000 / 64);
  CHECK(r.hi == 0x11000 / 64 - 1);
  // [0x10010, 0x10110) touches the GL2 lines at 0x10000, 0x10080 and 0x10100: all three.
  auto unaligned = coverage_for_range({false, 0x10010, 0x100}, false, 128);
  CHECK(unaligned.lo == 0x10000 / 64);
  CHECK(unaligned.hi == 0x10180 / 64 - 1);
  CHECK_FALSE(unaligned.covers(0x10180 / 64));
  // A 32-byte range inside one line covers that line (both of its 64-byte units).
  auto small = coverage_for_range({false, 0x10010, 0x20}, false, 128);
  CHECK(small.kind == Coverage::Kind::Range);
  CHECK(small.lo == 0x10000 / 64);
  CHECK(small.hi == 0x10000 / 64 + 1);
  // ... and only its own 64-byte line for the instruction cache.
  auto small_i = coverage_for_range({false, 0x10010, 0x20}, false, 64);
  CHECK(small_i.lo == 0x10000 / 64);
  CHECK(small_i.hi == 0x10000 / 64);
  auto m = coverage_for_range({false, 0x10000, 0x4000}, true, 128);
  CHECK(m.kind == Coverage::Kind::Margin);
  CHECK(m.span == 2);
  CHECK(m.covers(0x10000 / 64));
  CHECK(m.covers(0x10040 / 64));  // the first line's second half
  CHECK(m.covers(0x13F80 / 64));
  CHECK(m.covers(0x13FFF / 64));
  CHECK_FALSE(m.covers(0x10080 / 64));
  CHECK_FALSE(m.covers(0x12000 / 64));
  CHECK_FALSE(m.covers(0x13F40 / 64));
  CHECK(m.covers_all(0x10000 / 64, 0x10040 / 64));
  CHECK_FALSE(m.covers_all(0x10000 / 64, 0x10080 / 64));
  // Two 128-byte lines, 256-byte aligned: both are margins under either encoding.
  auto two = coverage_for_range({false, 0x10000, 0x100}, true, 128);
  CHECK(two.kind == Coverage::Kind::Range);
  CHECK(two.lo == 0x10000 / 64);
  CHECK(two.hi == 0x10100 / 64 - 1);
  // [0x10080, 0x10180): exactly the lines 0x10080 and 0x10100; widened to [0x10000, 0x10200) its
  // margins are 0x10000 and 0x10180. No line is a margin under both: nothing is surely covered.
  CHECK(coverage_for_range({false, 0x10080, 0x100}, true, 128).kind == Coverage::Kind::Nothing);
  // [0x10040, 0x10140): lines 0x10000 .. 0x10100; widened [0x10000, 0x10200): margins 0x10000
  // and 0x10180. Only the first line is a margin of both.
  auto first_only = coverage_for_range({false, 0x10040, 0x100}, true, 128);
  CHECK(first_only.kind == Coverage::Kind::Range);
  CHECK(first_only.lo == 0x10000 / 64);
  CHECK(first_only.hi == 0x10000 / 64 + 1);
  CHECK(coverage_for_range({false, 0x10000, 0}, false, 128).kind == Coverage::Kind::Nothing);
  // Near the top of the address space the ends saturate instead of wrapping.
  auto top = coverage_for_range({false, UINT64_MAX - 0x7F, UINT64_MAX}, false, 128);
  CHECK(top.kind == Coverage::Kind::Range);
  CHECK(top.hi >= top.lo);
}

TEST_CASE("GCR operations follow the decoded fields") {
  SyncRange code{false, 0xD0000, 0x2000};
  auto ops = detail::gcr_ops(decode_sync(sync::kIcacheInvalidate | sync::kIcacheRange), code);
  REQUIRE(ops.size() == 1);
  CHECK(ops[0].level == Level::Icache);
  CHECK(ops[0].cov.kind == Coverage::Kind::Margin);  // INVALIDATE|RANGE is the MARGIN value
  auto vol = detail::gcr_ops(decode_sync(sync::kGl2Invalidate | sync::kGl2Volatile), {});
  REQUIRE(vol.size() == 1);
  CHECK(vol[0].cov.kind == Coverage::Kind::Nothing);  // volatile lines: none we can name
  auto wbinv = detail::gcr_ops(decode_sync(sync::kGl2Invalidate | sync::kGl2Writeback), {});
  REQUIRE(wbinv.size() == 1);
  CHECK(wbinv[0].inv);
  CHECK(wbinv[0].wb);
}

TEST_CASE("access paths: vector, scalar, host, render targets") {
  using detail::read_path;
  using detail::write_path;
  CHECK(read_path(AccessKind::Srv, Plane::Data).index_of(Level::Gl0) == 0);
  CHECK(read_path(AccessKind::Srv, Plane::Data).index_of(Level::Gl2) == 2);
  CHECK(read_path(AccessKind::Cbv, Plane::Data)[0] == Level::Kcache);
  CHECK(read_path(AccessKind::Host, Plane::Data)[0] == Level::Mem);
  CHECK(read_path(AccessKind::Indirect, Plane::Data)[0] == Level::Gl2);
  CHECK(write_path(AccessKind::Rt, Plane::Data)[0] == Level::Cb);
  CHECK(write_path(AccessKind::Rt, Plane::Meta)[0] == Level::CbMeta);
  CHECK(write_path(AccessKind::Streamout, Plane::Data)[0] == Level::So);
  CHECK(read_path(AccessKind::Srv, Plane::Meta)[0] == Level::Mcache);
}

TEST_CASE("a dispatch, a partial flush and a top-of-pipe sync become ordered events") {
  LoweredCase lc(kUavSrv);
  const LoweredProgram& p = lc.p;
  CHECK(p.accesses.size() == 2);
  CHECK(p.accesses[0].write);
  CHECK(p.accesses[0].path[0] == Level::Gl2);
  CHECK_FALSE(p.accesses[1].write);
  // GL0 and GL1 invalidations, GL1 first (A-GCR-OUTER-FIRST).
  REQUIRE(p.cache_ops.size() == 2);
  auto outer_first = std::find_if(p.orders.begin(), p.orders.end(),
                                  [](const Order& o) { return o.rule == Rule::GcrOuterFirst; });
  REQUIRE(outer_first != p.orders.end());
  CHECK(p.cache_ops[1].level == Level::Gl1);
  CHECK(outer_first->before == p.cache_ops[1].ev);
  CHECK(outer_first->after == p.cache_ops[0].ev);
  CHECK(outer_first->guard.id == AssumptionId::GcrOuterFirst);
  CHECK(count_rule(p, Rule::PartialFlush) >= 1);
  CHECK(count_rule(p, Rule::WaveEndStores) == 1);
}

TEST_CASE("a constraint resting on an assumption disappears when the profile turns it off") {
  LoweredCase strict_case(kUavSrv, Profile::Strict);
  const LoweredProgram& strict = strict_case.p;
  CHECK(count_rule(strict, Rule::WaveEndStores) == 0);
  LoweredCase rdna2_case(kUavSrv, Profile::Rdna2);
  const LoweredProgram& rdna2 = rdna2_case.p;
  CHECK(count_rule(rdna2, Rule::WaveEndStores) == 1);
}

TEST_CASE("configuration: profile defaults, case assumptions, command-line overrides") {
  Case c;
  c.profile = "strict";
  c.assumptions.push_back({true, "A-BOP-FIFO", {}});
  auto cfg = config_for(c, std::nullopt, {{false, "A-INITIAL-ZERO"}});
  CHECK(cfg.profile == Profile::Strict);
  CHECK_FALSE(cfg.assumptions.enabled(AssumptionId::WaveEndStoresInGl2));
  CHECK(cfg.assumptions.enabled(AssumptionId::BopFifo));
  CHECK_FALSE(cfg.assumptions.enabled(AssumptionId::InitialZero));
  CHECK(config_for(c, Profile::Rdna2, {}).assumptions.enabled(AssumptionId::WaveEndStoresInGl2));
  c.targets.push_back({"gl2-rb-coherent", "yes"});
  CHECK(config_for(c, std::nullopt, {}).target.gl2_rb_coherent);
}

TEST_CASE("waits collect the signals that can satisfy them") {
  LoweredCase lc(R"(queue a compute
queue b compute
fence f
on a:
  Signal(f, 1)
  Signal(f, 3)
on b:
  Wait(f, 2)
)");
  const LoweredProgram& p = lc.p;
  REQUIRE(p.waits.size() == 1);
  CHECK(p.waits[0].candidates.size() == 1);  // only the signal of 3 satisfies >= 2
  CHECK(p.events[p.waits[0].candidates[0]].kind == EventKind::Signal);
  CHECK_FALSE(p.waits[0].zero_satisfies);
}

TEST_CASE("a wait that may pass before any write, but need not, is left to the exact rules") {
  // cases/regress/1000283-deadlock-early-wait.sync: the deadlock rules let a wait complete only
  // once it must pass, so a wait that an unknown initial value may satisfy is not left to them.
  const std::string body = R"(queue q0 graphics
queue q1 compute
label l0 0x300000
on q0:
  Wait64BitValueX(l0, NOT_EQUAL, 1001)
on q1:
  Write64BitValueBottomOfPipe2X(l0, 1, NONE, NONE, NONE)
)";
  LoweredCase zero(body);
  REQUIRE(zero.p.waits.size() == 1);
  CHECK(zero.p.waits[0].deadlock_monotone());  // 0 != 1001: the first poll must pass
  LoweredCase unknown("assume -A-INITIAL-ZERO\n" + body);
  REQUIRE(unknown.p.waits.size() == 1);
  const WaitRule& w = unknown.p.waits[0];
  CHECK(w.initial.can_sat);
  CHECK(w.initial.can_fail);
  CHECK(w.monotone);  // safety's candidate rule stays exact: the wait may complete at any time
  CHECK_FALSE(w.determinate);
  CHECK_FALSE(w.deadlock_monotone());
}

// The input caps count events before the waits' analysis (model::StagedLowering): as many as the
// full lowering has, and the staged lowering, finished, is the full lowering.
TEST_CASE("StagedLowering: as many events before the waits' analysis as after, on the library") {
  const size_t cases = for_each_library_case([](const Case& c) {
    const ModelConfig cfg = config_for(c, std::nullopt, {});
    StagedLowering staged(c, cfg);
    const size_t counted = staged.events();
    const LoweredProgram finished = staged.finish();
    const LoweredProgram whole = lower(c, cfg);
    CHECK(counted == whole.events.size());
    CHECK(finished.events.size() == whole.events.size());
    CHECK(finished.orders.size() == whole.orders.size());
    CHECK(finished.waits.size() == whole.waits.size());
  });
  CHECK(cases > 200);
}

// Events that say the same share one string (Event::text): a frame's hundreds of thousands of
// events say a few hundred things, and a string each was a twelfth of the SMT engine's peak.
TEST_CASE("lowering: events with the same text share one string, on the library") {
  size_t events = 0, texts = 0;
  const size_t cases = for_each_library_case([&](const Case& c) {
    const LoweredProgram p = lower(c, config_for(c, std::nullopt, {}));
    std::map<std::string, const std::string*> shared;
    for (const Event& e : p.events) {
      REQUIRE(e.text);
      const auto [it, fresh] = shared.try_emplace(e.what(), e.text.get());
      CHECK(it->second == e.text.get());
    }
    events += p.events.size(), texts += shared.size();
  });
  CHECK(cases > 200);
  CHECK(texts * 2 < events);  // the library's cases repeat their texts
}

// model::makes_cache_operations is what the linter asks of a sync in an `ordered` property: it
// must say exactly whether the lowering makes a cache operation for the sync's flags.
TEST_CASE("makes_cache_operations: in step with the lowering, on every sync of the library") {
  size_t syncs = 0, with_ops = 0, without = 0;
  for_each_library_case([&](const Case& c) {
    ModelConfig cfg = config_for(c, std::nullopt, {});
    // Signal2X/WaitX add the standard fence's operations only under this assumption.
    cfg.assumptions.set(AssumptionId::Signal2xFullFlush, false);
    const LoweredProgram p = lower(c, cfg);
    for (uint32_t q = 0; q < c.queues.size(); ++q)
      for (uint32_t i = 0; i < c.queues[q].commands.size(); ++i) {
        const Command& cmd = c.queues[q].commands[i];
        std::optional<bool> expect;
        if (const auto* s = std::get_if<SyncCmd>(&cmd.body))
          expect = makes_cache_operations(decode_sync(s->flags), s->api == SyncApi::SyncTopOfPipeX);
        else if (const auto* w = std::get_if<BopWriteCmd>(&cmd.body))
          expect = makes_cache_operations(decode_sync(w->flags), false);
        else if (const auto* g = std::get_if<SignalCmd>(&cmd.body); g && g->xbox)
          expect = makes_cache_operations(decode_sync(g->flags), false);
        else if (const auto* f = std::get_if<WaitFenceCmd>(&cmd.body); f && f->xbox)
          expect = makes_cache_operations(decode_sync(f->flags), true);
        if (!expect || c.queues[q].type == QueueType::Host) continue;
        const auto& evs = p.command(q, i).events;
        const bool lowered = std::any_of(evs.begin(), evs.end(), [&](EventId e) {
          return p.events[e].kind == EventKind::CacheOp;
        });
        CAPTURE(cmd.loc.line);
        CHECK(*expect == lowered);
        ++syncs, ++(lowered ? with_ops : without);
      }
  });
  CHECK(syncs > 500);
  CHECK(with_ops > 100);
  CHECK(without > 50);
}
