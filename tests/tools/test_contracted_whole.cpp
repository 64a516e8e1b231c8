// The whole program as a cone (properties::ConeMaker::whole), asked as a contracted question
// (encode/contraction.h), must answer exactly as the whole encoding does: the case's base
// question and every obligation's violation, with every assumption of the configuration assumed
// and with each one left out (as the property minimization and the vacuity check ask it under
// --no-order-proofs in programs over --slice-above events). Checked on the bundled library, the
// fixed-seed fuzz cases, generated frames with and without bugs, and a label two writes give in
// turn, whose wait's short candidate list holds only under A-BOP-FIFO.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <optional>

#include "encode/encoding.h"
#include "lang/parse.h"
#include "properties/proof_cone.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

namespace {

struct ContractedTally {
  size_t questions = 0, unsat = 0, without_one = 0, short_lists = 0;
};

// The assumption literals of `enc` but the one named `left_out` (empty: none left out).
std::vector<solver::Term> assumed(const encode::Encoding& enc, const std::string& left_out) {
  std::vector<solver::Term> out;
  for (solver::Term lit : enc.assumption_literals())
    if (enc.assumption_name(lit) != left_out) out.push_back(lit);
  return out;
}

// The whole encoding's answer (o null: the base alone) under every assumption but `left_out`.
solver::Status ask_whole(solver::Solver& s, encode::Encoding& enc, const properties::Obligation* o,
                         int index, const std::string& left_out) {
  s.push();
  if (o) s.add(enc.violation(*o, index).violation);
  const solver::Status r = s.check(assumed(enc, left_out), 20000u).status;
  s.pop();
  return r;
}

// The contracted question's answer, in a solver of its own in `ctx`, as encode/check.cpp asks it.
solver::Status ask_contracted(const model::LoweredProgram& p, solver::Context& ctx,
                              const properties::Cone& whole, const properties::Obligation* o,
                              int index, const std::string& left_out) {
  encode::Encoding enc(p, ctx, whole, o, index);
  solver::Solver s(ctx, "contracted");
  for (solver::Term b : enc.base()) s.add(b);
  s.add(enc.query().violation);
  return s.check(assumed(enc, left_out), 20000u).status;
}

// Compares the two on every obligation of the case's properties (deadlock-free has none) and on
// the base, with nothing left out and with each assumption of the configuration left out in turn
// (`every_drop`), or else (to bound the time: this runs under the sanitizers in CI) each question
// once: every other one with nothing left out, the rest each with the one its index picks.
void contracted_compare(const std::string& file, const std::string& text, bool every_drop,
                        ContractedTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  const properties::ConeMaker maker(p);
  const properties::Cone whole = maker.whole();
  for (size_t w = 0; w < p.waits.size(); ++w)
    t->short_lists += !whole.short_candidates[w].empty() &&
                      whole.short_candidates[w].size() < p.waits[w].candidates.size();
  solver::Context wctx, cctx;
  encode::Encoding enc(p, wctx);
  solver::Solver ws(wctx, "whole");
  for (solver::Term b : enc.base()) ws.add(b);
  std::vector<const properties::Obligation*> questions = {nullptr};
  std::vector<properties::Obligations> all;
  for (const model::Property& prop : pr.c.properties)
    if (prop.kind != model::PropertyKind::DeadlockFree)
      all.push_back(properties::obligations_for(p, prop));
  for (const properties::Obligations& obs : all)
    for (const properties::Obligation& o : obs.list)
      if (o.kind != properties::Obligation::Kind::Race) questions.push_back(&o);
  std::vector<std::string> names = {""};
  for (solver::Term lit : enc.assumption_literals()) names.push_back(enc.assumption_name(lit));
  int index = 0;
  for (const properties::Obligation* o : questions) {
    ++index;
    for (size_t d = 0; d < names.size(); ++d) {
      const size_t pick = names.size() == 1 || index % 2 == 1
                              ? 0
                              : 1 + static_cast<size_t>(index / 2) % (names.size() - 1);
      if (!every_drop && d != pick) continue;
      const solver::Status w = ask_whole(ws, enc, o, index, names[d]);
      const solver::Status c = ask_contracted(p, cctx, whole, o, index, names[d]);
      ++t->questions, t->unsat += w == solver::Status::Unsat, t->without_one += d != 0;
      if (w != c)
        FAIL_CHECK(fmt::format("{}: {}{}: the whole encoding says {}, the contracted question {}",
                               file, o ? o->name : "the base",
                               names[d].empty() ? "" : " without " + names[d], to_string(w),
                               to_string(c)));
    }
  }
}

void report_tally(const ContractedTally& t) {
  MESSAGE(
      fmt::format("{} questions ({} unsat, {} with an assumption left out); {} waits asked "
                  "over fewer candidates",
                  t.questions, t.unsat, t.without_one, t.short_lists));
}

}  // namespace

TEST_CASE("contracted whole program: the whole encoding's answers, the library" *
          doctest::test_suite("full-size")) {
  ContractedTally t;
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    contracted_compare(file, text, false, &t);
  report_tally(t);
  CHECK(t.unsat > testing::scaled(500));
  CHECK(t.without_one > t.questions / 3);
  CHECK(t.without_one < t.questions);
  CHECK(t.short_lists > 0);
}

TEST_CASE("contracted whole program: the whole encoding's answers, fuzz cases and frames" *
          doctest::test_suite("full-size")) {
  ContractedTally t;
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(120, 150)))
    contracted_compare(file, text, false, &t);
  report_tally(t);
  CHECK(t.unsat > testing::scaled(100));
  CHECK(t.short_lists > testing::scaled(10));
}

// Two value writes of one queue give the label 1 and then 2: A-BOP-FIFO orders the second after
// the first, so the wait is asked over the first alone, and only under that assumption. Without
// it in the configuration the orders have no such guardless chain, and the wait keeps both.
// Either way, with it left out of the question, the wait may complete before the first write has
// landed, as in the program.
TEST_CASE("contracted whole program: a wait's short candidate list only where no guard is needed") {
  for (const bool fifo : {true, false}) {
    CAPTURE(fifo);
    const std::string text =
        (fifo ? "" : "assume -A-BOP-FIFO\n") + std::string(testing::kTwoLabelWrites);
    auto pr = lang::parse_case("two-writes.sync", text);
    REQUIRE(!pr.has_errors());
    const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
    REQUIRE(p.waits.size() == 1);
    const properties::ConeMaker maker(p);
    const properties::Cone whole = maker.whole();
    CHECK(whole.size == p.events.size());
    CHECK(whole.keep_wait.at(0));
    CHECK(whole.wait_guards.at(0) == 0);
    // The first write precedes the second only through A-BOP-FIFO's order: with it, no short
    // list; without it, both writes are essential.
    CHECK(whole.short_candidates.at(0).size() == (fifo ? 0u : 2u));
    ContractedTally t;
    contracted_compare("two-writes.sync", text, true, &t);
    CHECK(t.questions > 2);
  }
}
