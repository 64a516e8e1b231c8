// The metamorphic relations of tools/metamorphic.h: which variants a case gets, that a stand-in
// engine breaking a relation is caught, and that the real engines keep every relation on cases
// written to sit on its edge.
#include <doctest/doctest.h>

#include <algorithm>

#include "exec/check.h"
#include "model/d3d12.h"
#include "tests/case_fixture.h"
#include "tools/metamorphic.h"

using namespace syncproof;
using namespace syncproof::cli;

namespace {

const char* kUavSrv = R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | GL2_RANGE, NONE, grid, grid)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)";

bool has(const std::vector<std::pair<Variant, Variant>>& rs, const std::string& what) {
  return std::any_of(rs.begin(), rs.end(),
                     [&](const auto& r) { return r.second.what == what || r.first.what == what; });
}

// The SyncFlags word of the command on `line`.
uint32_t flags_at(const model::Case& c, unsigned line) {
  for (const auto& q : c.queues)
    for (const auto& cmd : q.commands)
      if (cmd.loc.line == line)
        if (const auto* s = std::get_if<model::SyncCmd>(&cmd.body)) return s->flags;
  return 0;
}

// The verdict of the case's only property with `eo`, which must be a V, and the run's states.
template <class V>
std::pair<V, uint64_t> only_verdict(const model::Case& c, const exec::ExecOptions& eo) {
  const properties::CaseResult r = exec::check_case(c, eo);
  REQUIRE(r.results.size() == 1);
  const auto* v = std::get_if<V>(&r.results[0].verdict);
  REQUIRE(v);
  return {*v, r.states};
}

}  // namespace

TEST_CASE("relations: every configuration pair, and each operation flag added or removed") {
  const model::Case c = testing::parse_case_text(kUavSrv);
  const auto rs = relations(c, 0);
  CHECK(has(rs, "target gl2-rb-coherent yes"));
  CHECK(has(rs, "profile strict"));
  CHECK(has(rs, "assume -A-BOP-FIFO"));
  CHECK(has(rs, "assume +A-GL2-WB-BEFORE-INV"));
  // Operation flags the compute queue's SyncBottomOfPipeX takes: added, or removed when present.
  CHECK(has(rs, "add IDLE at line 5 (with it)"));
  CHECK(has(rs, "add GL2_WRITEBACK at line 5 (with it)"));
  CHECK(has(rs, "remove CS_PARTIAL_FLUSH at line 5 (without it)"));
  CHECK(has(rs, "remove GL1_INVALIDATE at line 6 (without it)"));
  // Not the range selector, not what the compute queue rejects.
  CHECK_FALSE(has(rs, "remove GL2_RANGE at line 5 (without it)"));
  CHECK_FALSE(has(rs, "add PS_PARTIAL_FLUSH at line 5 (with it)"));
  CHECK_FALSE(has(rs, "add PFP_SYNC_ME at line 6 (with it)"));
  // The variants differ from the case in exactly that flag.
  for (const auto& [cons, lib] : rs)
    if (lib.what == "add IDLE at line 5 (with it)") {
      CHECK(flags_at(lib.c, 5) == (flags_at(c, 5) | 0x80000000u));
      CHECK(cons.same);
      CHECK(flags_at(cons.c, 5) == flags_at(c, 5));
    }
  // A cap spreads the flag variants; the configuration pairs stay (A-BARRIER-PAL's only in a case
  // with standard barriers: it changes nothing else).
  const auto few = relations(c, 3);
  CHECK(few.size() == 2 + (model::kAssumptionCount - 1) + 3);
}

TEST_CASE("more barrier never proves less: without each barrier, and each one widened") {
  const model::Case c = testing::parse_case_text(
      "queue gfx graphics\n"
      "buffer grid 0x10000 0x4000\n"
      "on gfx:\n"
      "  produce: Dispatch writes grid as uav\n"
      "  Barrier(BUFFER, grid, COMPUTE_SHADING, PIXEL_SHADING, UNORDERED_ACCESS, "
      "SHADER_RESOURCE)\n"
      "  Barrier(BUFFER, grid, COPY, SPLIT, COPY_DEST, COPY_SOURCE)\n"
      "  Barrier(BUFFER, grid, SPLIT, COPY, COPY_DEST, COPY_SOURCE)\n"
      "  consume: Draw reads grid as srv in ps\n"
      "prove visible produce -> consume\n");
  const auto rs = relations(c, 0);
  auto find = [&](const std::string& what) {
    for (const auto& r : rs)
      if (r.first.what == what || r.second.what == what) return &r;
    return static_cast<const std::pair<Variant, Variant>*>(nullptr);
  };
  CHECK(find("assume -A-BARRIER-PAL"));
  const auto* removed = find("remove the barrier at line 5");
  REQUIRE(removed);
  CHECK(removed->second.same);
  CHECK(removed->first.c.queues[0].commands.size() == 4);
  const auto* widened = find("the barrier at line 5 widened");
  REQUIRE(widened);
  const auto& w = std::get<model::BarrierCmd>(widened->second.c.queues[0].commands[1].body);
  CHECK(w.sync_before == (model::d3d12::kSync.compute_shading | model::d3d12::kSync.all));
  CHECK(w.access_after == model::d3d12::kAccess.common);
  // A split barrier's halves are removed together, and not widened.
  const auto* split = find("remove the barrier at line 6");
  REQUIRE(split);
  CHECK(split->first.c.queues[0].commands.size() == 3);
  CHECK_FALSE(find("the barrier at line 6 widened"));
  CHECK_FALSE(find("remove the barrier at line 7"));
}

TEST_CASE("a stand-in engine that proves less with more sync is caught") {
  const model::Case c = testing::parse_case_text(kUavSrv);
  // Proves the property unless the sync on line 5 has IDLE: "more sync proves less".
  auto run = [](const model::Case& v) {
    properties::CaseResult r;
    properties::Verdict verdict = properties::Proved{};
    if (flags_at(v, 5) & 0x80000000u) verdict = properties::Violated{};
    r.results.push_back({0, verdict, 0, true});
    return r;
  };
  const auto problems = metamorphic_check(c, run, 0);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].relation == "add IDLE at line 5 (without it) vs add IDLE at line 5 (with it)");
  CHECK(problems[0].property == 0);
}

TEST_CASE("a stand-in engine whose proof leaves out an assumption it needs is caught") {
  const model::Case c = testing::parse_case_text(kUavSrv);
  // Proves the property, listing nothing, unless A-GCR-OUTER-FIRST is off.
  auto run = [](const model::Case& v) {
    properties::CaseResult r;
    properties::Verdict verdict = properties::Proved{};
    for (const auto& a : v.assumptions)
      if (!a.enable && a.id == "A-GCR-OUTER-FIRST") verdict = properties::Violated{};
    r.results.push_back({0, verdict, 0, true});
    return r;
  };
  const auto problems = metamorphic_check(c, run, 0);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].relation == "only the proof's assumptions [] on");
  CHECK(problems[0].detail.find("proved [], violated with only those assumptions on") == 0);
}

TEST_CASE("the engines keep every relation on cases at the edge of one") {
  // Each a barrier missing exactly what a relation adds: the profile (A-WAVE-END-STORES-IN-GL2),
  // the target (an RB write read by a shader), a flag (GL1_INVALIDATE), an assumption
  // (A-GL2-WB-BEFORE-INV on the split path).
  const char* cases[] = {kUavSrv,
                         R"(queue gfx graphics
texture t 0x200000 0x10000
on gfx:
  render: Draw writes t as rt
  SyncBottomOfPipeX(COLOR_BLOCK_DATA_FLUSH | GL2_WRITEBACK | GL2_INVALIDATE | VCACHE_INVALIDATE | GL1_INVALIDATE | IDLE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  sample: Dispatch reads t as srv
prove visible render -> sample
prove no-hazards
)",
                         R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
refute visible produce -> consume
)"};
  for (const char* text : cases) {
    const model::Case c = testing::parse_case_text(text);
    encode::CheckOptions opt;
    CAPTURE(text);
    CHECK(metamorphic_check(c, opt, 0, MetaEngine::Smt).empty());
    CHECK(metamorphic_check(c, opt, 0, MetaEngine::Exec).empty());
  }
}

// Two proofs that rested on an assumption they did not list (cases/regress/ has both with the
// story): the obligations of a visible property were chosen through a label wait that orders only
// under A-INITIAL-ZERO; deadlock freedom needed one of two assumptions that each order two fence
// signals, and dropping each alone kept the proof.
TEST_CASE("a proof lists what it rests on: each engine's list suffices on its own") {
  const std::pair<const char*, std::vector<std::string>> cases[] = {
      {R"(queue gfx graphics
queue acs compute
buffer ids 0x10000 0x1000
label l 0x20000
on acs:
  a: Dispatch writes ids as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  b: Dispatch reads ids as srv
  Write64BitValueBottomOfPipe2X(l, 1, NONE, NONE, NONE)
on gfx:
  Wait64BitValueX(l, GREATER_EQUAL, 1)
  c: Dispatch writes ids as uav
prove visible a -> b
)",
       {"A-GCR-OUTER-FIRST", "A-INITIAL-ZERO", "A-WAVE-END-STORES-IN-GL2"}},
      {R"(queue q0 graphics
queue q1 compute
fence f0
on q0:
  Wait(f0, 2)
on q1:
  Signal2X(f0, 1)
  Signal(f0, 2)
prove deadlock-free
)",
       {"A-BOP-FIFO", "A-INITIAL-ZERO"}}};
  for (const auto& tc : cases) {  // no structured binding: clang cannot capture one in CAPTURE
    const char* text = tc.first;
    const std::vector<std::string>& list = tc.second;
    CAPTURE(text);
    const model::Case c = testing::parse_case_text(text);
    encode::CheckOptions opt;
    for (MetaEngine e : {MetaEngine::Smt, MetaEngine::Exec}) {
      CAPTURE(static_cast<int>(e));
      const auto r = e == MetaEngine::Smt ? encode::check_case(c, opt)
                                          : exec::check_case(c, exec::ExecOptions{});
      const auto* p = std::get_if<properties::Proved>(&r.results.at(0).verdict);
      REQUIRE(p);
      CHECK(p->assumptions == list);
      CHECK(metamorphic_check(c, opt, 0, e).empty());
    }
  }
}

TEST_CASE("the executor's metamorphic runs skip the assumption minimization, verdicts unchanged") {
  // The relations compare verdicts only. Minimizing re-runs each proof once per assumption on a
  // weaker graph: on fuzz seed 1006959 (40 commands, 9 label value rules) each proof took 0.1 s
  // and its minimization about 10 s, so the ~40 variants of one case ran for half an hour.
  encode::CheckOptions opt;
  opt.timeout_ms = 1234;
  const exec::ExecOptions eo = metamorphic_exec_options(opt);
  CHECK_FALSE(eo.minimize_assumptions);
  CHECK(eo.timeout_ms == 1234);
  CHECK(eo.reduce);
  // Same verdict with and without minimization; without it the proof lists every assumption
  // whose constraints it saw, a superset of the minimized list (which does without one of them
  // here, as IDLE also waits for the dispatch).
  const model::Case c = testing::parse_case_text(R"(queue acs compute
buffer grid 0x10000 0x4000
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH | IDLE | GL2_RANGE, NONE, grid, grid)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
prove visible produce -> consume
)");
  exec::ExecOptions minimized = eo;
  minimized.minimize_assumptions = true;
  const auto [fast, fast_states] = only_verdict<properties::Proved>(c, eo);
  const auto [full, full_states] = only_verdict<properties::Proved>(c, minimized);
  CHECK(std::includes(fast.assumptions.begin(), fast.assumptions.end(), full.assumptions.begin(),
                      full.assumptions.end()));
  CHECK(fast.assumptions.size() > full.assumptions.size());
  CHECK(fast_states < full_states);
}

TEST_CASE("a relation asks only the side it does not know, and only what can still break it") {
  const model::Case c = testing::parse_case_text(kUavSrv);
  const auto rs = relations(c, 0);
  // A stand-in engine that gives every property one verdict, counting its runs.
  for (const bool proves : {true, false}) {
    size_t runs = 0;
    auto run = [&](const model::Case& v) {
      ++runs;
      properties::CaseResult r;
      for (size_t i = 0; i < v.properties.size(); ++i)
        r.results.push_back({i,
                             proves ? properties::Verdict{properties::Proved{}}
                                    : properties::Verdict{properties::Violated{}},
                             0, true});
      return r;
    };
    CHECK(metamorphic_check(c, run, 0).empty());
    // The case itself once, and its proof's list once when it proves. A relation with the case
    // on its liberal side needs a violation there, one with the case on its conservative side a
    // proof; with neither, the liberal side only for what the conservative side proved.
    size_t expected = proves ? 2 : 1, skipped = 0;
    for (const auto& [cons, lib] : rs) {
      if (cons.same && lib.same) continue;
      skipped += cons.same ? !proves : lib.same ? proves : 0;
      expected += cons.same ? proves : lib.same ? !proves : proves ? 2 : 1;
    }
    CHECK(skipped > 5);  // flags added (a violation stays), or removed and assumptions off
    CHECK(runs == expected);
  }
}

TEST_CASE(
    "the metamorphic runs stop a property at its first failing obligation, verdicts unchanged") {
  encode::CheckOptions opt;
  const exec::ExecOptions eo = metamorphic_exec_options(opt);
  CHECK(eo.first_violation);
  // A no-hazards property with three failing obligations (two races and a write-after-write):
  // the same verdict and the same first obligation, counted as one.
  const model::Case c = testing::parse_case_text(R"(queue gfx graphics
queue acs compute
buffer grid 0x10000 0x4000
on gfx:
  Dispatch writes grid as uav
on acs:
  Dispatch writes grid as uav
  Dispatch reads grid as srv
refute no-hazards
)");
  exec::ExecOptions counting = eo;
  counting.first_violation = false;
  const auto [first, first_states] = only_verdict<properties::Violated>(c, eo);
  const auto [all, all_states] = only_verdict<properties::Violated>(c, counting);
  CHECK(all.failing > 1);
  CHECK(first.failing == 1);
  CHECK(first.witness.obligation == all.witness.obligation);
  CHECK(first.trace.why == all.trace.why);
  CHECK(first_states <= all_states);
}
