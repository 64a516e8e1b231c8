// Proof cones (properties/proof_cone.h) are relaxations: every obligation whose cone has no
// violation has none in the whole program either, with the same assumptions assumed. Checked
// one obligation at a time on the bundled library, the fixed-seed fuzz cases and generated frames
// with and without bugs. (cases/no-order-proofs checks the library's expected verdicts with cones,
// as they are by default under --no-order-proofs.)
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>

#include "encode/check.h"
#include "encode/encoding.h"
#include "lang/parse.h"
#include "properties/proof_cone.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

namespace {

struct ProofConeTally {
  size_t obligations = 0, cones = 0, proved_in_cone = 0, smaller = 0;
};

// Whether the obligation has no violation (Unsat) with every assumption of the configuration
// assumed but `left_out`, on a solver holding the encoding's base.
solver::Status ask(solver::Solver& s, encode::Encoding& enc, const properties::Obligation& o,
                   int index, std::string_view left_out = {}) {
  s.push();
  s.add(enc.violation(o, index).violation);
  std::vector<solver::Term> assumed;
  for (solver::Term lit : enc.assumption_literals())
    if (enc.assumption_name(lit) != left_out) assumed.push_back(lit);
  const solver::Status r = s.check(assumed, 20000u).status;
  s.pop();
  return r;
}

// A case with its lowering, cone maker and a solver holding the whole encoding's base.
struct Program {
  Program(const std::string& file, const std::string& text) : pr(lang::parse_case(file, text)) {
    REQUIRE_MESSAGE(!pr.has_errors(), file);
    p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    maker.emplace(p);
    whole.emplace(p, wctx);
    ws.emplace(wctx, "whole");
    for (solver::Term b : whole->base()) ws->add(b);
  }
  lang::ParseResult pr;
  model::LoweredProgram p;
  std::optional<properties::ConeMaker> maker;
  solver::Context wctx, cctx;
  std::optional<encode::Encoding> whole;
  std::optional<solver::Solver> ws;
};

void proof_cone_compare(const std::string& file, const std::string& text, ProofConeTally* t) {
  Program prog(file, text);
  auto& [pr, p, maker, wctx, cctx, whole, ws] = prog;
  int index = 0;
  for (const model::Property& prop : pr.c.properties) {
    if (prop.kind == model::PropertyKind::DeadlockFree) continue;
    const auto obs = properties::obligations_for(p, prop);
    for (const properties::Obligation& o : obs.list) {
      ++t->obligations, ++index;
      const auto cone = maker->cone(o);
      if (!cone) continue;
      ++t->cones, t->smaller += cone->size < p.events.size();
      encode::Encoding in_cone(p, cctx, *cone);
      solver::Solver cs(cctx, "cone");
      for (solver::Term b : in_cone.base()) cs.add(b);
      if (ask(cs, in_cone, o, index) != solver::Status::Unsat) continue;
      ++t->proved_in_cone;
      if (ask(*ws, *whole, o, index) != solver::Status::Unsat)
        FAIL_CHECK(fmt::format("{}: {}: proved in its cone of {} events, not in the program", file,
                               o.name, cone->size));
    }
  }
}

// The same under every assumption but one, with the cones the minimization asks then: made by a
// ConeMaker that may not use the orders under the assumption left out (ConeMaker's `usable`).
// Asked only where that changes something: an obligation whose cone keeps a rule under the
// assumption left out. Returns how many were proved in the remade cone.
size_t compare_without(const std::string& file, const std::string& text) {
  Program prog(file, text);
  auto& [pr, p, maker, wctx, cctx, whole, ws] = prog;
  size_t proved = 0;
  int index = 0;
  for (int a = 0; a < model::kAssumptionCount; ++a) {
    const auto id = static_cast<model::AssumptionId>(a);
    const uint64_t bit = properties::guard_bit({id, p.config.assumptions.enabled(id)});
    if (!(maker->implied_guards() & bit)) continue;
    const properties::ConeMaker remade(p, ~bit);
    for (const model::Property& prop : pr.c.properties) {
      if (prop.kind == model::PropertyKind::DeadlockFree) continue;
      for (const properties::Obligation& o : properties::obligations_for(p, prop).list) {
        ++index;
        const auto cone = maker->cone(o);
        if (!cone || std::none_of(cone->rules.begin(), cone->rules.end(),
                                  [&](const auto& r) { return (r.second & bit) != 0; }))
          continue;
        const auto other = remade.cone(o);
        REQUIRE(other);
        for (const auto& [w, g] : other->rules) CHECK((g & bit) == 0);
        encode::Encoding in_cone(p, cctx, *other);
        solver::Solver cs(cctx, "remade cone");
        for (solver::Term b : in_cone.base()) cs.add(b);
        const std::string_view name = model::assumption(id).name;
        if (ask(cs, in_cone, o, index, name) != solver::Status::Unsat) continue;
        ++proved;
        if (ask(*ws, *whole, o, index, name) != solver::Status::Unsat)
          FAIL_CHECK(
              fmt::format("{}: {}: proved without {} in its remade cone of {} events, not "
                          "in the program",
                          file, o.name, name, other->size));
      }
    }
  }
  return proved;
}

void report_tally(const ProofConeTally& t) {
  MESSAGE(fmt::format("{} obligations, {} cones ({} smaller than the program), {} proved there",
                      t.obligations, t.cones, t.smaller, t.proved_in_cone));
}

}  // namespace

TEST_CASE("proof cones: a proof in the cone is a proof in the program, the library" *
          doctest::test_suite("full-size")) {
  ProofConeTally t;
  for (const auto& [file, text] : testing::library_cases()) proof_cone_compare(file, text, &t);
  report_tally(t);
  CHECK(t.proved_in_cone > 500);
  CHECK(t.smaller > t.cones / 2);
}

TEST_CASE("proof cones: a proof in the cone is a proof in the program, fuzz cases and frames" *
          doctest::test_suite("full-size")) {
  ProofConeTally t;
  for (const auto& [file, text] : testing::generated_cases(250, 150))
    proof_cone_compare(file, text, &t);
  report_tally(t);
  CHECK(t.proved_in_cone > 150);
}

// Left out in the property's minimization, an assumption's orders no longer put one candidate
// after another, and the cone then made for the re-check keeps the candidates they put later.
TEST_CASE("proof cones: a cone remade without an assumption is a proof in the program without it" *
          doctest::test_suite("full-size")) {
  size_t proved = 0;
  for (const auto& [file, text] : testing::library_cases()) proved += compare_without(file, text);
  for (const auto& [file, text] : testing::generated_cases(60, 150))
    proved += compare_without(file, text);
  MESSAGE(fmt::format("{} obligations proved in a remade cone", proved));
  CHECK(proved > 20);
}

// A wait on a label two value writes of one queue give 1 and then 2. The cone of the read keeps
// only the first (A-BOP-FIFO orders the second after it), so its rule "after the first" holds only
// under that assumption: asked without it, the cone must let the wait complete before the first
// write landed, as the program does (the second may land first). Without A-BOP-FIFO in the
// configuration the lowering has no such order, and the cone keeps both writes.
TEST_CASE("proof cones: a rule without a candidate holds only under the orders that put it later") {
  const std::string text = testing::kTwoLabelWrites;
  for (const bool fifo : {true, false}) {
    CAPTURE(fifo);
    auto pr = lang::parse_case("two-writes.sync", (fifo ? "" : "assume -A-BOP-FIFO\n") + text);
    REQUIRE(!pr.has_errors());
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    REQUIRE(p.waits.size() == 1);
    const model::WaitRule& w = p.waits[0];
    REQUIRE(w.candidates.size() == 2);
    const properties::ConeMaker maker(p);
    REQUIRE(maker.essential(0).size() == (fifo ? 1u : 2u));
    const model::EventId first = maker.essential(0)[0];
    const model::EventId second = w.candidates[0] == first ? w.candidates[1] : w.candidates[0];
    const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
    const auto cone = maker.cone(obs.list.at(0));
    REQUIRE(cone);
    CHECK(cone->in[w.wait]);
    CHECK(cone->in[first]);
    CHECK(cone->in[second] == !fifo);
    CHECK(cone->keep_wait[0]);
    const uint64_t fifo_bit = uint64_t{1} << static_cast<int>(model::AssumptionId::BopFifo);
    CHECK(cone->wait_guards[0] == (fifo ? fifo_bit : 0));
    // Made for a re-check without A-BOP-FIFO, the cone keeps both writes under no guard.
    const properties::ConeMaker without_fifo(p, ~fifo_bit);
    CHECK(without_fifo.essential(0).size() == 2u);
    CHECK(without_fifo.implied_guards() == 0);
    CHECK(maker.implied_guards() == (fifo ? fifo_bit : 0));
    const auto remade = without_fifo.cone(obs.list.at(0));
    REQUIRE(remade);
    CHECK(remade->in[first]);
    CHECK(remade->in[second]);
    CHECK(remade->wait_guards[0] == 0);
    // Can the wait complete before the first write landed? Asked of the program and of the cone,
    // with every assumption of the configuration and with A-BOP-FIFO left out.
    for (const bool whole : {true, false})
      for (const bool without_fifo : {false, true}) {
        CAPTURE(whole);
        CAPTURE(without_fifo);
        solver::Context ctx;
        std::optional<encode::Encoding> enc;
        if (whole)
          enc.emplace(p, ctx);
        else
          enc.emplace(p, ctx, *cone);
        solver::Solver s(ctx, "early wait");
        for (solver::Term b : enc->base()) s.add(b);
        s.add(ctx.lt(enc->t(w.wait), enc->t(first)));
        std::vector<solver::Term> assumed;
        for (solver::Term lit : enc->assumption_literals())
          if (!without_fifo || enc->assumption_name(lit) != "A-BOP-FIFO") assumed.push_back(lit);
        const bool can = fifo && !without_fifo ? false : true;
        CHECK(s.check(assumed, 20000u).status ==
              (can ? solver::Status::Sat : solver::Status::Unsat));
      }
  }
}

// ConeMaker reads a wait's essential candidates off the last list of its fence it worked out in
// full when the wait's list is a tail of it (waits for ever higher values), and works them out
// otherwise. The same waits made in the other order (ever lower values: each list longer than
// the last) are all worked out in full: both must give each wait the same essential candidates,
// and the same guards. Two queues signal the fence (one through a wait of its own), so the lists
// hold essential candidates past their first.
TEST_CASE("proof cones: essential candidates read off a longer list are those worked out alone") {
  auto text = [](bool rising) {
    std::string t = R"(queue gfx graphics
queue acs compute
queue acs2 compute
fence f
fence g
on acs:
)";
    for (int v = 1; v <= 6; ++v) {
      t += fmt::format("  Signal2X(f, {})\n", v);
      if (v == 3) t += "  WaitX(g, 1)\n";
    }
    t += "on acs2:\n  Signal2X(f, 7)\n  Signal2X(g, 1)\n  Signal2X(f, 8)\non gfx:\n";
    for (int i = 0; i < 8; ++i) t += fmt::format("  WaitX(f, {})\n", rising ? i + 1 : 8 - i);
    return t + "prove deadlock-free\n";
  };
  std::map<std::pair<bool, uint64_t>, std::vector<model::EventId>> found;  // (rising, value)
  std::array<uint64_t, 2> guards{};
  for (const bool rising : {true, false}) {
    CAPTURE(rising);
    auto pr = lang::parse_case("tails.sync", text(rising));
    REQUIRE(!pr.has_errors());
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    const properties::ConeMaker maker(p);
    size_t on_f = 0;
    for (uint32_t w = 0; w < p.waits.size(); ++w) {
      if (p.events[p.waits[w].wait].queue != 0) continue;  // gfx's waits, on f
      ++on_f;
      found[{rising, p.waits[w].value}] = maker.essential(w);
    }
    CHECK(on_f == 8);
    guards[rising] = maker.implied_guards();
  }
  for (uint64_t v = 1; v <= 8; ++v) {
    CAPTURE(v);
    REQUIRE(found.count({true, v}));
    CHECK(found[{true, v}] == found[{false, v}]);
    CHECK(!found[{true, v}].empty());
  }
  // The low values' lists run over both queues: more than one essential candidate.
  CHECK(found[{true, 1}].size() > 1);
  CHECK(guards[0] == guards[1]);
}

// The wait has two candidates on two queues: one after the write, which puts the wait between the
// obligation's key events, and one before anything, which is not between them but which the cone
// must keep (a rule with only the later one would "prove" the stale read the program has: the
// early value can release the wait before the write).
TEST_CASE("proof cones: a wait keeps its essential candidates wherever they are") {
  auto pr = lang::parse_case("early-label.sync", R"(queue gfx graphics
queue acs compute
queue acs2 compute
buffer grid  0x10000 0x4000
label  done  0x700000
on acs2:
  Write32BitValueBottomOfPipe2X(done, 1, NONE, NONE, NONE)
on acs:
  produce: Dispatch writes grid as uav
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  Write32BitValueBottomOfPipe2X(done, 1, NONE, NONE, NONE)
on gfx:
  Wait32BitValueX(done, GREATER_EQUAL, 1)
  SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  consume: Dispatch reads grid as srv
check visible produce -> consume
)");
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  REQUIRE(p.waits.size() == 1);
  REQUIRE(p.waits[0].candidates.size() == 2);
  const properties::ConeMaker maker(p);
  CHECK(maker.essential(0).size() == 2);
  const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
  const auto cone = maker.cone(obs.list.at(0));
  REQUIRE(cone);
  CHECK(cone->in[p.waits[0].wait]);
  CHECK(cone->in[p.waits[0].candidates[0]]);
  CHECK(cone->in[p.waits[0].candidates[1]]);
  CHECK(cone->keep_wait[0]);
  solver::Context ctx;
  encode::Encoding enc(p, ctx, *cone);
  solver::Solver s(ctx, "cone");
  for (solver::Term b : enc.base()) s.add(b);
  s.add(enc.violation(obs.list.at(0), 0).violation);
  CHECK(s.check(enc.assumption_literals(), 20000u).status == solver::Status::Sat);
}

// The cone's events, worked out here without the position bound ConeMaker's search stops at:
// the events after an earlier key event and before a later one (through orders, and from a wait's
// essential candidate to the wait), the key events themselves, and the essential candidates of
// the monotone waits among them. ConeMaker must find exactly these (the bound only saves work).
namespace {

std::vector<uint8_t> reference_cone(const model::LoweredProgram& p, const properties::ConeMaker& m,
                                    const std::vector<model::EventId>& early,
                                    const std::vector<model::EventId>& late) {
  const size_t n = p.events.size();
  std::vector<std::vector<model::EventId>> succ(n), pred(n);
  for (const model::Order& o : p.orders)
    succ[o.before].push_back(o.after), pred[o.after].push_back(o.before);
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    for (model::EventId x : m.essential(w))
      succ[x].push_back(p.waits[w].wait), pred[p.waits[w].wait].push_back(x);
  auto closure = [&](const std::vector<model::EventId>& from,
                     const std::vector<std::vector<model::EventId>>& next) {
    std::vector<uint8_t> seen(n, 0);
    std::vector<model::EventId> todo(from.begin(), from.end());
    for (model::EventId e : from) seen[e] = 1;
    while (!todo.empty()) {
      const model::EventId e = todo.back();
      todo.pop_back();
      for (model::EventId x : next[e])
        if (!seen[x]) seen[x] = 1, todo.push_back(x);
    }
    return seen;
  };
  const std::vector<uint8_t> after = closure(early, succ), before = closure(late, pred);
  std::vector<uint8_t> in(n, 0);
  for (size_t e = 0; e < n; ++e) in[e] = after[e] && before[e];
  for (model::EventId e : early) in[e] = 1;
  for (model::EventId e : late) in[e] = 1;
  // Essential candidates of the monotone waits inside, in rule order (as ConeMaker adds them).
  for (uint32_t w = 0; w < p.waits.size(); ++w)
    if (in[p.waits[w].wait] && p.waits[w].monotone)
      for (model::EventId x : m.essential(w)) in[x] = 1;
  return in;
}

void compare_events(const std::string& file, const std::string& text, size_t* checked) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  const properties::ConeMaker maker(p);
  for (const model::Property& prop : pr.c.properties) {
    if (prop.kind == model::PropertyKind::DeadlockFree) continue;
    for (const properties::Obligation& o : properties::obligations_for(p, prop).list) {
      const auto cone = maker.cone(o);
      if (!cone) continue;
      std::vector<model::EventId> early, late;
      auto write = [&](uint32_t a, std::vector<model::EventId>& v) {
        v.push_back(p.accesses[a].ev);
        if (p.accesses[a].arrive != model::kNoEvent) v.push_back(p.accesses[a].arrive);
      };
      using K = properties::Obligation::Kind;
      if (o.kind == K::Fresh) {
        write(o.fresh.write, early), late.push_back(p.accesses[o.fresh.read].ev);
        for (const properties::LineMate& m : o.fresh.mates) write(m.access, early);
      }
      if (o.kind == K::Ordered) early = o.ordering.before, late = o.ordering.after;
      if (o.kind == K::WriteOrder) write(o.waw.first, early), write(o.waw.second, late);
      if (o.kind == K::ReadFirst)
        early.push_back(p.accesses[o.war.read].ev), write(o.war.write, late);
      const std::vector<uint8_t> want = reference_cone(p, maker, early, late);
      CHECK_MESSAGE(cone->in == want,
                    fmt::format("{}: {}: the cone's events differ", file, o.name));
      std::vector<model::EventId> listed;
      for (model::EventId e = 0; e < want.size(); ++e)
        if (want[e]) listed.push_back(e);
      CHECK(cone->events == listed);
      CHECK(cone->size == listed.size());
      ++*checked;
    }
  }
}

}  // namespace

TEST_CASE("proof cones: the events of each cone, against a search without the position bound") {
  size_t checked = 0;
  // The sanitized build takes every third case of each set (tests/sample.h): 28 s there whole.
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    compare_events(file, text, &checked);
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(100, 300)))
    compare_events(file, text, &checked);
  MESSAGE(fmt::format("{} cones", checked));
  CHECK(checked > testing::scaled(4000));
}
