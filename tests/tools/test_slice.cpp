// Counterexamples from slices (properties/slice.h, encode/check.cpp) against the whole program:
// the same verdict for every property of the bundled library and of generated frames with and
// without their bugs, with and without slicing (and with slicing, the frames' violations really
// come from slices); and every counterexample, sliced or not, replays on the executor.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "encode/check.h"
#include "exec/replay.h"
#include "lang/parse.h"
#include "tests/tools/library_cases.h"
#include "tools/generate.h"

using namespace syncproof;

namespace {

struct Tally {
  size_t cases = 0, violated = 0, sliced = 0;
};

void compare(const std::string& file, const std::string& text, Tally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  encode::CheckOptions with, without;
  with.slice_above = 0;  // every program, however small
  without.slice = false;
  const properties::CaseResult a = encode::check_case(pr.c, with);
  const properties::CaseResult b = encode::check_case(pr.c, without);
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

TEST_CASE("slices: the same verdicts as the whole program, the library") {
  Tally t;
  for (const auto& [file, text] : testing::library_cases()) compare(file, text, &t);
  MESSAGE(fmt::format("{} cases, {} violated properties, {} counterexamples from slices", t.cases,
                      t.violated, t.sliced));
  CHECK(t.cases > 200);
  CHECK(t.violated > 100);
  CHECK(t.sliced > 0);
}

TEST_CASE("slices: the same verdicts as the whole program, frames with and without bugs") {
  Tally t;
  for (auto bug : {cli::FrameBug::None, cli::FrameBug::NoGl1Invalidate, cli::FrameBug::NoLabelWait,
                   cli::FrameBug::NoGl2Writeback, cli::FrameBug::NoSyncCpdma}) {
    cli::FrameShape s;
    s.commands = 250, s.bug = bug, s.seed = 3;
    compare(fmt::format("frame-{}.sync", cli::to_string(bug)), cli::generate_frame(s), &t);
  }
  MESSAGE(fmt::format("{} frames, {} violated properties, {} counterexamples from slices", t.cases,
                      t.violated, t.sliced));
  // Each bug breaks at least one property, and its counterexamples come from slices.
  CHECK(t.violated >= 4);
  CHECK(t.sliced >= t.violated);
}
