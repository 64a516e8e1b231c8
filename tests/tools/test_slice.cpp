// Counterexamples from slices (properties/slice.h, encode/check.cpp) against the whole program:
// the same verdict for every property of the bundled library and of generated frames with and
// without their bugs, with and without slicing (and with slicing, the frames' violations really
// come from slices); and every counterexample, sliced or not, replays on the executor. Also the
// questions a fix search asks (first violations only, no untied traces, no assumption lists):
// the same verdicts and the same first failing obligation, proofs listing no more than in full.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>

#include "encode/check.h"
#include "encode/encoding.h"
#include "exec/replay.h"
#include "lang/parse.h"
#include "solver/solver.h"
#include "tests/sample.h"
#include "tests/tools/library_cases.h"
#include "tools/generate.h"

using namespace syncproof;

namespace {

struct SliceTally {
  size_t cases = 0, violated = 0, sliced = 0;
  size_t proofs_searched = 0, listed_searched = 0, listed_full = 0;
};

void slice_compare(const std::string& file, const std::string& text, SliceTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  encode::CheckOptions with, without;
  with.slice_above = 0;  // every program, however small
  without.slice = false;
  // What a fix search asks (crosscheck/fix_engines.cpp): slices at every size, each violated
  // property stopped at its first failing obligation, no second question to untie the trace, no
  // minimized assumption lists.
  encode::CheckOptions searching = with;
  searching.untie = false, searching.first_violation = true, searching.assumption_lists = false;
  const properties::CaseResult a = encode::check_case(pr.c, with);
  const properties::CaseResult b = encode::check_case(pr.c, without);
  const properties::CaseResult f = encode::check_case(pr.c, searching);
  REQUIRE(f.results.size() == b.results.size());
  ++t->cases, t->sliced += a.sliced;
  CHECK(b.sliced == 0);
  REQUIRE(a.results.size() == b.results.size());
  const model::LoweredProgram p = model::lower(pr.c, a.config);
  for (size_t i = 0; i < a.results.size(); ++i) {
    const properties::Verdict& va = a.results[i].verdict;
    const properties::Verdict& vb = b.results[i].verdict;
    if (va.index() != vb.index())
      FAIL_CHECK(fmt::format("{}: property {}: {} with slicing, {} without", file, i,
                             properties::verdict_name(va), properties::verdict_name(vb)));
    const properties::Verdict& vf = f.results[i].verdict;
    if (vf.index() != vb.index())
      FAIL_CHECK(fmt::format("{}: property {}: {} as a fix search asks, {} in full", file, i,
                             properties::verdict_name(vf), properties::verdict_name(vb)));
    // Only what the obligations rely on (obligations_for's `relies`), no minimized list.
    const auto* pf = std::get_if<properties::Proved>(&vf);
    if (const auto* pb = std::get_if<properties::Proved>(&vb); pf && pb) {
      ++t->proofs_searched, t->listed_searched += pf->assumptions.size();
      t->listed_full += pb->assumptions.size();
      for (const std::string& a : pf->assumptions)
        if (std::find(pb->assumptions.begin(), pb->assumptions.end(), a) == pb->assumptions.end())
          FAIL_CHECK(fmt::format("{}: property {}: {} listed as a fix search asks, not in full",
                                 file, i, a));
    }
    const auto* x = std::get_if<properties::Violated>(&vf);
    if (x && vf.index() == vb.index()) {
      const auto& full = std::get<properties::Violated>(vb);
      // The same obligation fails first; the count stops there.
      CHECK_MESSAGE(x->witness.obligation == full.witness.obligation, file);
      CHECK_MESSAGE(x->failing == std::min(full.failing, 1), file);
      if (x->witness.obligation >= 0) {
        auto obs = properties::obligations_for(p, pr.c.properties[f.results[i].property]);
        const auto r = exec::replay(p, obs.list[static_cast<size_t>(x->witness.obligation)],
                                    x->witness.times, x->witness.line);
        if (!r.ok) FAIL_CHECK(fmt::format("{}: property {} (fix search): {}", file, i, r.problem));
      }
    }
    const auto* v = std::get_if<properties::Violated>(&va);
    if (!v || v->witness.obligation < 0) continue;
    ++t->violated;
    CHECK(v->failing == std::get<properties::Violated>(vb).failing);
    auto obs = properties::obligations_for(p, pr.c.properties[a.results[i].property]);
    REQUIRE(static_cast<size_t>(v->witness.obligation) < obs.list.size());
    const auto r = exec::replay(p, obs.list[static_cast<size_t>(v->witness.obligation)],
                                v->witness.times, v->witness.line);
    if (!r.ok) FAIL_CHECK(fmt::format("{}: property {}: {}", file, i, r.problem));
  }
}

}  // namespace

TEST_CASE("slices: the same verdicts as the whole program, the library" *
          doctest::test_suite("full-size")) {
  SliceTally t;
  for (const auto& [file, text] : testing::library_cases()) slice_compare(file, text, &t);
  MESSAGE(fmt::format(
      "{} cases, {} violated properties, {} counterexamples from slices; {} "
      "proofs as a fix search asks list {} assumptions ({} in full)",
      t.cases, t.violated, t.sliced, t.proofs_searched, t.listed_searched, t.listed_full));
  CHECK(t.cases > 200);
  CHECK(t.violated > 100);
  CHECK(t.sliced > 0);
  CHECK(t.proofs_searched > 100);
  CHECK(t.listed_searched < t.listed_full);
}

TEST_CASE("slices: the same verdicts as the whole program, frames with and without bugs" *
          doctest::test_suite("full-size")) {
  SliceTally t;
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                   cli::FrameBug::NoGl2Writeback, cli::FrameBug::NoSyncCpdma}) {
    cli::FrameShape s;
    s.commands = 250, s.bug = bug, s.seed = 3;
    slice_compare(fmt::format("frame-{}.sync", cli::to_string(bug)), cli::generate_frame(s), &t);
  }
  MESSAGE(fmt::format("{} frames, {} violated properties, {} counterexamples from slices", t.cases,
                      t.violated, t.sliced));
  // Each bug breaks at least one property, and its counterexamples come from slices.
  CHECK(t.violated >= 4);
  CHECK(t.sliced >= t.violated);
}

namespace {

// The third `Wait32BitValueX(l_lit, GREATER_EQUAL, v)` of a generated frame made EQUAL: the
// later writes of the label hide its value, so the wait is not monotone.
std::string with_equal_wait(std::string text) {
  const std::string from = "Wait32BitValueX(l_lit, GREATER_EQUAL";
  size_t at = std::string::npos;
  for (int k = 0; k < 3; ++k) {
    at = text.find(from, at == std::string::npos ? 0 : at + 1);
    REQUIRE(at != std::string::npos);
  }
  return text.replace(at, from.size(), "Wait32BitValueX(l_lit, EQUAL");
}

}  // namespace

// A wait that is not monotone keeps a slice from being made only when it is In: elsewhere its
// part's completion treats it by its candidates and the extension checks the value it polls
// (properties::is_execution). The same verdicts with and without slices, and counterexamples
// from slices that replay.
TEST_CASE("slices: frames with a wait that is not monotone" * doctest::test_suite("full-size")) {
  SliceTally t;
  for (auto bug : {cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                   cli::FrameBug::NoGl2Writeback}) {
    cli::FrameShape s;
    s.commands = 150, s.bug = bug, s.seed = 3;
    slice_compare(fmt::format("frame-{}-equal-wait.sync", cli::to_string(bug)),
                  with_equal_wait(cli::generate_frame(s)), &t);
  }
  MESSAGE(fmt::format("{} frames, {} violated properties, {} counterexamples from slices", t.cases,
                      t.violated, t.sliced));
  CHECK(t.violated >= 3);
  CHECK(t.sliced >= t.violated);
}

namespace {

struct ListTally {
  size_t proved = 0, literals = 0, rechecks = 0;
};

// Whether the obligation has a violation with only the assumptions named in `names` assumed, on a
// solver holding the encoding's base (left as it was).
solver::Status ask(solver::Solver& s, encode::Encoding& enc, const properties::Obligation& o,
                   int index, const std::vector<std::string>& names) {
  s.push();
  s.add(enc.violation(o, index).violation);  // first: it may make literals of its own
  std::vector<solver::Term> assumed;
  for (solver::Term lit : enc.assumption_literals())
    if (std::find(names.begin(), names.end(), enc.assumption_name(lit)) != names.end())
      assumed.push_back(lit);
  const solver::Status r = s.check(assumed, 20000u).status;
  s.pop();
  return r;
}

// Under --no-order-proofs a property's list is minimized by re-checks, each asked of the
// obligation's cone (a proof there is one in the program), then of its slice (a violation there,
// extended to the whole program without the dropped assumption's orders, is one there), and only
// then of the whole program. Checked against the whole program: every obligation of a proved
// property is proved with only its list assumed (it suffices), and leaving out any one of the list
// leaves some obligation violated or undecided (it is minimal: a slice that claimed a violation
// the program does not have would keep an assumption that is not needed).
void check_lists(const std::string& file, const std::string& text, ListTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  encode::CheckOptions opt;
  opt.order_proofs = false;
  opt.slice_above = 0;
  const properties::CaseResult res = encode::check_case(pr.c, opt);
  t->rechecks += res.sliced_rechecks;
  const model::LoweredProgram p = model::lower(pr.c, res.config);
  solver::Context ctx;
  encode::Encoding whole(p, ctx);
  solver::Solver s(ctx, "whole");
  for (solver::Term b : whole.base()) s.add(b);
  int index = 0;
  for (const properties::PropertyResult& r : res.results) {
    const auto* proof = std::get_if<properties::Proved>(&r.verdict);
    const model::Property& prop = pr.c.properties[r.property];
    if (!proof || prop.kind == model::PropertyKind::DeadlockFree) continue;
    const auto obs = properties::obligations_for(p, prop);
    ++t->proved;
    CAPTURE(file);
    CAPTURE(r.property);
    for (const properties::Obligation& o : obs.list)
      CHECK(ask(s, whole, o, ++index, proof->assumptions) == solver::Status::Unsat);
    for (const std::string& name : proof->assumptions) {
      // A name the obligations themselves rest on (Obligations::relies), or with no literal, is
      // not from a core: no re-check drops it.
      const auto a = model::find_assumption(name);
      REQUIRE(a);
      const auto& lits = whole.assumption_literals();
      if ((obs.relies >> static_cast<int>(*a) & 1) ||
          std::none_of(lits.begin(), lits.end(),
                       [&](solver::Term l) { return whole.assumption_name(l) == name; }))
        continue;
      ++t->literals;
      std::vector<std::string> fewer = proof->assumptions;
      std::erase(fewer, name);
      const bool needed = std::any_of(obs.list.begin(), obs.list.end(), [&](const auto& o) {
        return ask(s, whole, o, ++index, fewer) != solver::Status::Unsat;
      });
      CHECK_MESSAGE(needed, fmt::format("{} is not needed", name));
    }
  }
}

}  // namespace

TEST_CASE("slices: --no-order-proofs lists suffice and are minimal, with the slices' re-checks" *
          doctest::test_suite("full-size")) {
  ListTally t;
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    check_lists(file, text, &t);
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoLabelWait}) {
    cli::FrameShape s;
    s.commands = 150, s.bug = bug, s.seed = 5;
    check_lists(fmt::format("frame-{}.sync", cli::to_string(bug)), cli::generate_frame(s), &t);
  }
  MESSAGE(
      fmt::format("{} proved properties, {} listed assumptions, {} re-checks answered by a "
                  "slice",
                  t.proved, t.literals, t.rechecks));
  CHECK(t.rechecks > testing::scaled(100));
}

TEST_CASE("slices: a line mate that reached GL2 before the slice is clean once written back") {
  // The 1,000-command frame without the label write's GL2_WRITEBACK, with one added to the
  // compute queue's sync after its upload copy (the re-check of `missing:` advice makes this
  // edit): the property still fails, and the G-buffer draws before the last one (line mates of
  // its GL2 line, Before the slice) are written back by that sync. The slice took them as dirty
  // throughout, so its models did not replay on the whole program, and the whole program ran
  // out of its resource limit: unknown, where a counterexample from the slice is one.
  cli::FrameShape s;
  s.commands = 1000, s.bug = cli::FrameBug::NoGl2Writeback;
  std::string text = cli::generate_frame(s);
  const std::string copy = "a_copy_11: CopyBufferRegion";
  const std::string sync = "SyncTopOfPipeX(SYNC_CPDMA";
  const size_t at = text.find(sync, text.find(copy));
  REQUIRE(text.find(copy) != std::string::npos);
  REQUIRE(at != std::string::npos);
  text.insert(at + std::string("SyncTopOfPipeX(").size(), "GL2_WRITEBACK | ");
  text = text.substr(0, text.find("\nprove ") + 1) + "refute visible g_draw_11_5 -> a_light_11\n";
  auto pr = lang::parse_case("frame.sync", text);
  REQUIRE_FALSE(pr.has_errors());
  const properties::CaseResult r = encode::check_case(pr.c, encode::CheckOptions{});
  REQUIRE(r.results.size() == 1);
  const auto* v = std::get_if<properties::Violated>(&r.results[0].verdict);
  REQUIRE_MESSAGE(v, properties::verdict_name(r.results[0].verdict));
  // Every failing obligation (the G-buffer's colour and depth lines) refuted by its slice.
  CHECK(v->failing == 2);
  CHECK(r.sliced == 2);
}

TEST_CASE(
    "a slice's line mates that arrived before it share one chain: a frame's read is refuted in its "
    "slice") {
  // The generated frame rewrites the G-buffer every block, so the read of the middle block has
  // hundreds of line mates that arrived before its slice, all with the same way to memory.
  // Encoded as one chain each, the slice's question grew with them (at 20,000 commands it ran out
  // of Z3's rlimit, and the whole program was asked instead, for hours); as one chain for all,
  // it stays small. At 3,000 commands the copies needed between 100,000 and 200,000 units of
  // Z3's rlimit and one chain between 10,000 and 20,000: with 50,000 the copies' slices fail, and
  // the whole program too.
  cli::FrameShape shape;
  shape.commands = 3000, shape.bug = cli::FrameBug::NoGl1Invalidate;
  auto pr = lang::parse_case("frame.sync", cli::generate_frame(shape));
  REQUIRE(!pr.has_errors());
  encode::CheckOptions opt;
  opt.rlimit = 50000;
  const auto r = encode::check_case(pr.c, opt);
  size_t violated = 0;
  for (const auto& pr_ : r.results)
    violated += std::holds_alternative<properties::Violated>(pr_.verdict);
  CHECK(violated == 2);
  CHECK(r.sliced >= 2);
}
