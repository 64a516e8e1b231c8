// The executor's proofs in proof cones (exec/cone.h) change no verdict, and every assumption list
// they give suffices: with each assumption it does not list turned off, the whole program (no
// cones) finds no violation of the property (the relation `syncproof monotone` checks: without an
// assumption the case may also hang, which makes the property unknown, not violated). Checked on
// the bundled library, the fixed-seed fuzz cases and generated frames, with every program's cones
// used however small it is (by default only programs over 2,000 events use them). A cone's list may
// differ from the whole program's (each is a union of greedy minimal lists, from different
// searches), so lists are compared by sufficiency, not equality; how many differ is reported.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "exec/check.h"
#include "exec/cone.h"
#include "lang/parse.h"
#include "model/assumptions.h"
#include "properties/obligation.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"
#include "tests/tools/must_order_reference.h"

using namespace syncproof;

namespace {

struct ConeTally {
  size_t properties = 0, proved = 0, other_list = 0, cone_proofs = 0, cone_misses = 0;
};

exec::ExecOptions options(bool cones) {
  exec::ExecOptions o;
  o.cones = cones;
  o.cone_above = 0;
  return o;
}

void cones_compare(const std::string& file, const std::string& text, ConeTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const properties::CaseResult with = exec::check_case(pr.c, options(true));
  const properties::CaseResult without = exec::check_case(pr.c, options(false));
  t->cone_proofs += with.cone_proofs, t->cone_misses += with.cone_misses;
  CHECK(without.cone_proofs + without.cone_misses == 0);
  std::map<std::vector<std::string>, properties::CaseResult> only;  // by list: the check with it
  for (size_t i = 0; i < pr.c.properties.size(); ++i) {
    ++t->properties;
    const properties::Verdict& a = with.results[i].verdict;
    const properties::Verdict& b = without.results[i].verdict;
    CHECK_MESSAGE(a.index() == b.index(),
                  fmt::format("{}: property {}: verdicts differ with and without cones", file, i));
    const auto* proof = std::get_if<properties::Proved>(&a);
    if (!proof) continue;
    ++t->proved;
    const auto* whole = std::get_if<properties::Proved>(&b);
    if (whole && whole->assumptions == proof->assumptions) continue;
    ++t->other_list;
    auto it = only.find(proof->assumptions);
    if (it == only.end()) {
      exec::ExecOptions o = options(false);
      for (const model::AssumptionDef& d : model::all_assumptions())
        if (std::find(proof->assumptions.begin(), proof->assumptions.end(), d.name) ==
            proof->assumptions.end())
          o.assume.push_back({false, std::string(d.name)});
      it = only.emplace(proof->assumptions, exec::check_case(pr.c, o)).first;
    }
    CHECK_MESSAGE(!std::holds_alternative<properties::Violated>(it->second.results[i].verdict),
                  fmt::format("{}: property {}: proved in cones with [{}], violated in the whole "
                              "program with only those assumptions on",
                              file, i, fmt::join(proof->assumptions, ", ")));
  }
}

void report_tally(const ConeTally& t) {
  MESSAGE(
      fmt::format("{} properties, {} proved ({} with another list); {} obligations proved in "
                  "cones, {} left to the whole program",
                  t.properties, t.proved, t.other_list, t.cone_proofs, t.cone_misses));
}

}  // namespace

TEST_CASE("executor cones: the same verdicts and sufficient lists, the library") {
  ConeTally t;
  for (const auto& [file, text] : testing::library_cases()) cones_compare(file, text, &t);
  report_tally(t);
  CHECK(t.cone_proofs > 1000);
  CHECK(t.cone_misses > 0);  // the library has violations, which no cone can give
}

TEST_CASE("executor cones: the same verdicts and sufficient lists, fuzz cases and frames" *
          doctest::test_suite("full-size")) {
  ConeTally t;
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(250, 400)))
    cones_compare(file, text, &t);
  report_tally(t);
  CHECK(t.cone_proofs > testing::scaled(1000));
}

// A wait on a label two value writes of one queue give 1 and then 2: the read's cone keeps only
// the first write (A-BOP-FIFO orders the second after it), so its rule "after the first" holds
// only under that assumption (tests/tools/test_proof_cone.cpp has the SMT engine's side of this
// program). The cone's graph keeps the rule with that one candidate and lists A-BOP-FIFO; asked
// without A-BOP-FIFO, it leaves the wait free.
TEST_CASE(
    "executor cones: a rule without a candidate holds only under the orders that put it later") {
  auto pr = lang::parse_case("two-writes.sync", testing::kTwoLabelWrites);

  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  REQUIRE(p.waits.size() == 1);
  const model::WaitRule& w = p.waits[0];
  REQUIRE(w.candidates.size() == 2);
  const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
  exec::ConeGraphs cones(p);
  const auto cone = cones.cone(obs.list.at(0));
  REQUIRE(cone);
  const uint32_t fifo = 1u << static_cast<int>(model::AssumptionId::BopFifo);
  exec::WaitRules rules(p, exec::WaitMode::Safety);
  REQUIRE(rules.rule(0, 0).kind == exec::WaitRules::Kind::Monotone);
  REQUIRE(rules.rule(0, 0).cands->size() == 2);
  const exec::ConeGraph with = cones.make(*cone, rules, 0);
  CHECK((with.present & fifo) != 0);
  const uint32_t local_wait = cones.local()[w.wait];
  REQUIRE(local_wait != UINT32_MAX);
  REQUIRE(with.g.rule_wait.size() == 1);
  CHECK(with.g.rule_wait[0] == local_wait);
  CHECK(with.g.cand_start[1] - with.g.cand_start[0] == 1);  // the first write only
  const exec::ConeGraph without = cones.make(*cone, rules, fifo);
  CHECK(without.g.rule_wait.empty());
  CHECK(without.g.vrules.empty());
}

// The same program asked without A-BOP-FIFO: the program's cone kept only the first write and
// so no rule (the wait was free there); the cone made without the orders under A-BOP-FIFO takes
// the second write in as an essential candidate and keeps the rule with both, under no guard.
TEST_CASE(
    "executor cones: a cone asked without an assumption keeps the rule with the candidates "
    "then essential") {
  auto pr = lang::parse_case("two-writes.sync", testing::kTwoLabelWrites);
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  REQUIRE(p.waits.size() == 1);
  const model::WaitRule& w = p.waits[0];
  REQUIRE(w.candidates.size() == 2);
  const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
  exec::ConeGraphs cones(p);
  const uint32_t fifo = 1u << static_cast<int>(model::AssumptionId::BopFifo);
  CHECK(cones.leaned_on(fifo) == fifo);
  CHECK(cones.leaned_on(0) == 0);
  const auto all = cones.cone(obs.list.at(0));
  const auto without_fifo = cones.cone(obs.list.at(0), nullptr, fifo);
  REQUIRE(all);
  REQUIRE(without_fifo);
  auto has = [](const properties::Cone& c, model::EventId e) {
    return std::binary_search(c.events.begin(), c.events.end(), e);
  };
  const model::EventId first = w.candidates[0], second = w.candidates[1];
  CHECK(has(*all, first) != has(*all, second));  // one of them, the one A-BOP-FIFO puts first
  CHECK(has(*without_fifo, first));
  CHECK(has(*without_fifo, second));
  exec::WaitRules rules(p, exec::WaitMode::Safety);
  const exec::ConeGraph g = cones.make(*without_fifo, rules, fifo);
  REQUIRE(g.g.rule_wait.size() == 1);
  CHECK(g.g.cand_start[1] - g.g.cand_start[0] == 2);
  CHECK((g.present & fifo) == 0);
}

// The minimization's questions under dropped assumptions keep the events of the first cone and
// take the rules the maker without those orders keeps there (ConeGraphs::over). Where that maker
// needs a candidate the first cone left out (the second write here), the question is that
// maker's own cone, which takes it in and keeps the rule.
TEST_CASE("executor cones: a question without an assumption whose rule needs another candidate") {
  auto pr = lang::parse_case("two-writes.sync", testing::kTwoLabelWrites);
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
  exec::ConeGraphs cones(p);
  const uint32_t fifo = 1u << static_cast<int>(model::AssumptionId::BopFifo);
  const auto all = cones.cone(obs.list.at(0));
  REQUIRE(all);
  CHECK_FALSE(cones.over(*all, fifo).has_value());
  exec::ConeQuestions questions(cones, obs.list.at(0), [](const properties::Obligation&) {
    return properties::MustOrder::Quiet{};
  });
  properties::MustOrder::Quiet quiet;
  const exec::ConeQuestions::Question& q = questions.get(fifo, &quiet);
  CHECK(q.c.events == cones.cone(obs.list.at(0), nullptr, fifo)->events);
  CHECK(q.c.size > all->size);
}

// On a frame's obligations, under every set of the assumptions its maker leans on: where the
// cone the maker without those orders makes has the first cone's events, over() gives the same
// cone (its rules, ConeMaker::rules_over, are what that maker's cone() keeps). Elsewhere over()
// is another cone of the same obligation (any set of events is one), or none where a rule needs
// a candidate outside.
TEST_CASE("executor cones: over() a first cone is the maker's own cone where their events agree") {
  cli::FrameShape s;
  s.commands = 300, s.seed = 5;
  auto pr = lang::parse_case("frame.sync", cli::generate_frame(s));
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  exec::ConeGraphs cones(p);
  const uint32_t leaned = cones.leaned_on(~0u);
  REQUIRE(leaned != 0);
  size_t same_events = 0, other_rules = 0, none = 0;
  for (const model::Property& prop : pr.c.properties)
    for (const properties::Obligation& o : properties::obligations_for(p, prop).list) {
      const auto base = cones.cone(o);
      if (!base) continue;
      for (uint32_t d = leaned; d != 0; d = (d - 1) & leaned) {  // every nonempty subset
        const auto own = cones.cone(o, nullptr, d);
        const auto over = cones.over(*base, d);
        REQUIRE(own);
        none += !over;
        if (own->events != base->events) continue;
        ++same_events;
        REQUIRE(over);
        CHECK(over->events == own->events);
        CHECK(over->rules == own->rules);
        other_rules += over->rules != base->rules;
      }
    }
  MESSAGE(fmt::format("{} cones with the first one's events ({} with other rules), {} none",
                      same_events, other_rules, none));
  CHECK(same_events > 100);
  CHECK(other_rules > 100);  // the rules under the dropped assumptions, not the first cone's
  CHECK(none > 0);
}

namespace {

// A host upload into the second half of a GL2 line whose first half a dispatch wrote before the
// wait (a line mate of the read's GL2 step, R-GL2-INV-KEEPS-DIRTY), then `flush` and the
// invalidation on the reader's queue.
std::string upload_beside(const std::string& flush) {
  return R"(queue gfx graphics
queue cpu host
buffer a 0x100000 0x40
buffer b 0x100040 0x40
fence up
on gfx:
  dirty: Dispatch writes a as uav
  WaitX(up, 1)
)" + flush +
         R"(
  SyncTopOfPipeX(GL2_INVALIDATE | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  read: Dispatch reads b as srv
on cpu:
  upload: Host writes b as host
  Signal(up, 1)
prove visible upload -> read
)";
}

struct MateCone {
  bool mate_in = false;  // the mate's write is in the cone
  size_t size = 0;
  size_t mates_quiet = 0;
};

// f(p, o) for the lowered program of `text` and its only property's only obligation, a Fresh one
// with one line mate.
template <class F>
auto with_one_mate(const std::string& text, F f) {
  auto pr = lang::parse_case("mate.sync", text);
  REQUIRE(!pr.has_errors());
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  const auto obs = properties::obligations_for(p, pr.c.properties.at(0));
  REQUIRE(obs.list.size() == 1);
  REQUIRE(obs.list[0].fresh.mates.size() == 1);
  return f(p, obs.list[0]);
}

// The obligation's quiet list (properties::MustOrder::quiet) in the whole program.
properties::MustOrder::Quiet quiet_of(const std::string& text) {
  return with_one_mate(text, [](const model::LoweredProgram& p, const properties::Obligation& o) {
    properties::MustOrder must(p);
    return must.quiet(o);
  });
}

MateCone mate_cone(const std::string& text, bool use_quiet) {
  return with_one_mate(text, [&](const model::LoweredProgram& p, const properties::Obligation& o) {
    exec::ConeGraphs cones(p);
    properties::MustOrder must(p);
    exec::ConeQuestions questions(cones, o, [&](const properties::Obligation& inside) {
      return use_quiet ? must.quiet(inside) : properties::MustOrder::Quiet{};
    });
    properties::MustOrder::Quiet quiet;
    const exec::ConeQuestions::Question& q = questions.get(0, &quiet);
    MateCone out;
    const model::EventId mate = p.accesses[o.fresh.mates[0].access].ev;
    out.mate_in = std::binary_search(q.c.events.begin(), q.c.events.end(), mate);
    out.size = q.c.size;
    out.mates_quiet = static_cast<size_t>(std::count(quiet.mates.begin(), quiet.mates.end(), 1));
    return out;
  });
}

}  // namespace

// A line mate written back after the wait, before the invalidation (the partial flush waits for
// its waves, the top-of-pipe write-back completes before the next command), is quiet in the cone of
// the upload and the read alone, so the cone does not reach back to it; one never written back is
// not quiet there, and the cone takes its write in; asked with no mate quiet, every mate is a key.
TEST_CASE("executor cones: a read's cone keys only the line mates not quiet in it") {
  const std::string written_back = upload_beside(
      "  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"
      "  SyncTopOfPipeX(GL2_WRITEBACK, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)");
  const MateCone quiet = mate_cone(written_back, true);
  CHECK(quiet.mates_quiet == 1);
  CHECK_FALSE(quiet.mate_in);
  const MateCone keyed = mate_cone(written_back, false);
  CHECK(keyed.mate_in);
  CHECK(keyed.size > quiet.size);
  const MateCone dirty = mate_cone(upload_beside("  # never written back"), true);
  CHECK(dirty.mates_quiet == 0);
  CHECK(dirty.mate_in);
  // The small cone proves the property, and the check of the whole program agrees.
  auto pr = lang::parse_case("mate.sync", written_back);
  REQUIRE(!pr.has_errors());
  const properties::CaseResult with = exec::check_case(pr.c, options(true));
  CHECK(with.cone_proofs == 1);
  CHECK(with.cone_misses == 0);
  CHECK(std::holds_alternative<properties::Proved>(with.results.at(0).verdict));
  const properties::CaseResult without = exec::check_case(pr.c, options(false));
  CHECK(std::holds_alternative<properties::Proved>(without.results.at(0).verdict));
}

// The standard Wait's GL2 invalidation comes before the upload's arrival only through the
// fence's coherence (A-STD-FENCE-COHERENT: it completes before the queue resumes, and so before
// g2's signal that the upload waits for): outside the window of invalidations that could carry
// the data, but only under that assumption. The line mate is dirty there (it is written back
// after the wait for `up`), so its quiet proof rests on A-STD-FENCE-COHERENT, and a re-run
// without that assumption no longer leaves the mate out.
TEST_CASE(
    "executor cones: a line mate is quiet only under the assumptions that keep an "
    "invalidation out of the window") {
  const properties::MustOrder::Quiet q = quiet_of(R"(queue gfx graphics
queue cpu host
buffer a 0x100000 0x40
buffer b 0x100040 0x40
fence g1
fence g2
fence up
on gfx:
  dirty: Dispatch writes a as uav
  Wait(g1, 1)
  Signal(g2, 1)
  WaitX(up, 1)
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(GL2_WRITEBACK, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  SyncTopOfPipeX(GL2_INVALIDATE | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  read: Dispatch reads b as srv
on cpu:
  Signal(g1, 1)
  Wait(g2, 1)
  upload: Host writes b as host
  Signal(up, 1)
prove visible upload -> read
)");
  const uint32_t coherent = 1u << static_cast<int>(model::AssumptionId::StdFenceCoherent);
  REQUIRE(q.mates.at(0) == 1);
  CHECK((q.mate_guards.at(0) & coherent) != 0);
  CHECK((q.guards & coherent) != 0);
  CHECK(q.without(coherent).mates.at(0) == 0);
}

// A line mate written after the read (the partial flush waits for the read's waves) is dirty only
// after it, so the GL2 invalidation of the other queue, which may run at any time, cannot be
// held shut by it when it could still carry the data: the mate is quiet, under no assumption.
TEST_CASE("executor cones: a line mate that reaches GL2 only after the read is quiet") {
  const properties::MustOrder::Quiet q = quiet_of(R"(queue gfx graphics
queue acs compute
queue cpu host
buffer a 0x100000 0x40
buffer b 0x100040 0x40
fence up
on gfx:
  WaitX(up, 1)
  SyncTopOfPipeX(GL2_INVALIDATE | GL1_INVALIDATE | VCACHE_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  read: Dispatch reads b as srv
  SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
  late: Dispatch writes a as uav
on acs:
  SyncTopOfPipeX(GL2_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)
on cpu:
  upload: Host writes b as host
  Signal(up, 1)
prove visible upload -> read
)");
  CHECK(q.mates.at(0) == 1);
  CHECK(q.mate_guards.at(0) == 0);
}

// MustOrder::quiet answers for a line mate through the previous write of its group (a guard-free
// path linking their arrivals), and for an invalidation through the next one of its queue (any
// path, its guards added): the same mates and fills quiet as asking each one on its own, over the
// library and the generated cases (frames rewrite their buffers every block: whole groups of
// mates). The path through the neighbour may rest on more assumptions than the one a search of its
// own picks (both are real paths): where the guards differ, the whole-program fixpoint with every
// other assumption off still puts the mate after the read or before the write's arrival.
TEST_CASE("executor cones: quiet's answers through a neighbour are each one's own") {
  size_t obligations = 0, quiet_mates = 0, guarded = 0, other_guards = 0;
  uint64_t pops_chains = 0, pops_each = 0;
  const uint32_t all = (uint32_t{1} << model::kAssumptionCount) - 1;
  auto compare = [&](const std::string& file, const std::string& text) {
    auto pr = lang::parse_case(file, text);
    REQUIRE(!pr.has_errors());
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    properties::MustOrder chains(p), each(p, true, false);
    std::map<uint32_t, std::unique_ptr<testing::ReferenceMustOrder>> without;
    for (const model::Property& prop : pr.c.properties) {
      if (prop.kind == model::PropertyKind::DeadlockFree) continue;
      for (const properties::Obligation& o : properties::obligations_for(p, prop).list) {
        if (o.kind != properties::Obligation::Kind::Fresh || o.fresh.mates.empty()) continue;
        const properties::MustOrder::Quiet a = chains.quiet(o), b = each.quiet(o);
        CAPTURE(file);
        CAPTURE(o.name);
        CHECK(a.mates == b.mates);
        CHECK(a.fills == b.fills);
        ++obligations;
        quiet_mates += static_cast<size_t>(std::count(a.mates.begin(), a.mates.end(), 1));
        guarded += a.guards != 0;
        const model::EventId read = p.accesses[o.fresh.read].ev;
        const model::EventId arrive = p.accesses[o.fresh.write].arrive;
        for (size_t k = 0; k < a.mates.size(); ++k) {
          if (!a.mates[k] || a.mate_guards[k] == b.mate_guards[k]) continue;
          ++other_guards;
          auto& ref = without[all & ~a.mate_guards[k]];
          if (!ref) ref = std::make_unique<testing::ReferenceMustOrder>(p, all & ~a.mate_guards[k]);
          const model::EventId x = p.accesses[o.fresh.mates[k].access].arrive;
          CHECK((ref->reaches(read, x) || ref->reaches(x, arrive)));
        }
      }
    }
    pops_chains += chains.pops(), pops_each += each.pops();
  };
  for (const auto& [file, text] : testing::library_cases()) compare(file, text);
  for (const auto& [file, text] : testing::generated_cases(300, 1500)) compare(file, text);
  MESSAGE(obligations, " obligations, ", quiet_mates, " mates quiet (", other_guards,
          " on another path), ", guarded, " with guards; the searches took ", pops_chains,
          " events from their queues (", pops_each, " asking each one)");
  CHECK(obligations > 500);
  CHECK(quiet_mates > 10000);
  CHECK(guarded > 100);
  CHECK(pops_chains < pops_each);
}
