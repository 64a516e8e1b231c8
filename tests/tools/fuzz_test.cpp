// The random case generator and the shrinker of `syncproof fuzz`.
#include <doctest/doctest.h>

#include <algorithm>

#include "lang/parse.h"
#include "model/events.h"
#include "properties/completion.h"
#include "tests/tools/library_cases.h"
#include "tools/fuzz_gen.h"
#include "tools/fuzz_shrink.h"

using namespace syncproof;
using namespace syncproof::cli;

TEST_CASE("generated cases are deterministic and lint clean unless made invalid on purpose") {
  int invalid = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    FuzzCase a = generate_case(seed, {}), b = generate_case(seed, {});
    CHECK(a.render() == b.render());
    auto pr = lang::parse_case("fuzz.sync", a.render());
    CAPTURE(a.render());
    CHECK(pr.has_errors() == a.expect_lint_error);
    invalid += a.expect_lint_error;
  }
  CHECK(invalid > 3);
}

// `fuzz --max-commands K`: no case has more than K commands, patterns (a barrier, a label or
// fence hand-off: 2 to 4 commands) and the wait put in for a deadlock included, and every size up
// to K occurs.
TEST_CASE("generated cases have at most --max-commands commands, and every size up to it") {
  for (int max : {1, 2, 3, 5, 10}) {
    CAPTURE(max);
    std::vector<int> seen(static_cast<size_t>(max) + 1, 0);
    for (uint64_t seed = 1; seed <= 400; ++seed) {
      FuzzCase fc = generate_case(seed, {max, 3});
      auto pr = lang::parse_case("fuzz.sync", fc.render());
      size_t commands = 0;
      for (const auto& q : pr.c.queues) commands += q.commands.size();
      CAPTURE(fc.render());
      REQUIRE(commands >= 1);
      REQUIRE(commands <= static_cast<size_t>(max));
      ++seen[commands];
    }
    for (int n = 1; n <= max; ++n) {
      CAPTURE(n);
      CHECK(seen[static_cast<size_t>(n)] > 0);
    }
  }
}

// The cross-check says little about cases that are rejected or vacuous: at every size, only the
// cases made invalid on purpose (about one in ten) fail to lint, and every valid case has a
// complete execution, except the deadlocks put in on purpose (which ask deadlock-free only).
TEST_CASE("generated cases of every size are valid and have a complete execution") {
  for (int size : {10, 50, 150, 400}) {
    CAPTURE(size);
    int invalid = 0, deadlocks = 0, cases = 0;
    for (uint64_t seed = 1; seed <= 120; ++seed) {
      FuzzCase fc = generate_case(seed, {size, 4});
      auto pr = lang::parse_case("fuzz.sync", fc.render());
      CAPTURE(fc.render());
      REQUIRE(pr.has_errors() == fc.expect_lint_error);
      ++cases;
      if (fc.expect_lint_error) {
        ++invalid;
        continue;
      }
      const bool deadlock = fc.props == std::vector<std::string>{"check deadlock-free"};
      deadlocks += deadlock;
      auto p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
      // The wait put in on purpose waits for a value no signal gives; with A-INITIAL-ZERO off
      // the fence may start at that value, so the case may still complete (and may deadlock).
      const bool zero = p.config.assumptions.enabled(model::AssumptionId::InitialZero);
      CHECK(properties::all_can_complete(p, false) == (!deadlock || !zero));
    }
    CHECK(invalid * 100 < cases * 20);
    CHECK(invalid > 0);
    CHECK(deadlocks * 100 < cases * 15);
  }
}

// all_can_complete lets a chained wait (model::WaitRule::chained) be released by its first
// candidate alone: the same answer as with every candidate, in both modes, on the library and on
// generated cases (the program is copied with no wait chained).
TEST_CASE(
    "all_can_complete: a chained wait's first candidate releases it as every candidate does") {
  std::vector<std::string> texts;
  for (const auto& [path, text] : testing::library_cases()) texts.push_back(text);
  for (uint64_t seed = 1; seed <= 300; ++seed)
    texts.push_back(generate_case(seed, {seed % 2 ? 40 : 150, 4}).render());
  size_t programs = 0, chained = 0, incomplete = 0;
  for (const std::string& text : texts) {
    auto pr = lang::parse_case("t.sync", text);
    if (pr.has_errors()) continue;
    for (bool zero : {true, false}) {
      const model::LoweredProgram p =
          model::lower(pr.c, model::config_for(pr.c, std::nullopt, {{zero, "A-INITIAL-ZERO"}}));
      model::LoweredProgram unchained = p;
      for (model::WaitRule& w : unchained.waits) chained += w.chained, w.chained = false;
      ++programs;
      CAPTURE(text);
      for (bool deadlock : {false, true}) {
        const bool all = properties::all_can_complete(p, deadlock);
        CHECK(all == properties::all_can_complete(unchained, deadlock));
        incomplete += !all;
      }
    }
  }
  MESSAGE(programs, " programs, ", chained, " chained waits, ", incomplete, " incomplete");
  CHECK(chained > 100);
  CHECK(incomplete > 20);
}

TEST_CASE("line variants drop one flag, one access, or the range") {
  auto vs = line_variants("SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, b0, b0)");
  auto has = [&](const std::string& s) { return std::find(vs.begin(), vs.end(), s) != vs.end(); };
  CHECK(has("SyncTopOfPipeX(GL1_INVALIDATE, NONE, b0, b0)"));
  CHECK(has("SyncTopOfPipeX(VCACHE_INVALIDATE, NONE, b0, b0)"));
  CHECK(has(
      "SyncTopOfPipeX(VCACHE_INVALIDATE | GL1_INVALIDATE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)"));
  vs = line_variants("c1: Draw reads b0 as srv in ps, writes t0 as rt");
  CHECK(has("c1: Draw writes t0 as rt"));
  CHECK(has("c1: Draw reads b0 as srv in ps"));
  vs = line_variants("Signal2X(f0, 1, IDLE)");
  CHECK(has("Signal2X(f0, 1, NONE)"));
}

TEST_CASE("shrinking keeps what the predicate needs and drops the rest") {
  FuzzCase fc;
  for (uint64_t seed = 1;; ++seed) {
    fc = generate_case(seed, {8, 3});
    if (!fc.expect_lint_error && fc.render().find("GL1_INVALIDATE") != std::string::npos) break;
  }
  auto still = [](const FuzzCase& c) {
    auto pr = lang::parse_case("s.sync", c.render());
    return !pr.has_errors() && c.render().find("GL1_INVALIDATE") != std::string::npos;
  };
  FuzzCase small = shrink(fc, still);
  CHECK(still(small));
  size_t commands = 0;
  for (const auto& q : small.queues) commands += q.commands.size();
  CHECK(commands == 1);
  CHECK(small.props.size() == 1);
}
