// WaitRule::deadlock_flips: the lowering with a value assumption (A-INITIAL-ZERO,
// A-TIMESTAMP-NONZERO) flipped has the same waits, each deadlock-monotone exactly when the
// flags say (properties::deadlock_assumptions relies on it to skip a lowering). Checked on the
// bundled library, the fixed-seed fuzz cases and generated frames, from the default
// configuration and from one with the assumption off.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "lang/parse.h"
#include "model/events.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;
using model::AssumptionId;

namespace {

struct FlipTally {
  size_t waits = 0, flips = 0;
};

void check_program(const std::string& file, const std::string& text, FlipTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  for (AssumptionId a : {AssumptionId::InitialZero, AssumptionId::TimestampNonzero}) {
    const uint32_t bit = 1u << static_cast<int>(a);
    for (bool from : {true, false}) {
      model::ModelConfig cfg = model::config_for(pr.c, std::nullopt, {}), flipped = cfg;
      cfg.assumptions.set(a, from);
      flipped.assumptions.set(a, !from);
      const model::LoweredProgram p = model::lower(pr.c, cfg), q = model::lower(pr.c, flipped);
      REQUIRE_MESSAGE(p.waits.size() == q.waits.size(), file);
      CHECK_MESSAGE(p.orders.size() == q.orders.size(), file);
      CHECK_MESSAGE(p.events.size() == q.events.size(), file);
      for (size_t i = 0; i < p.waits.size(); ++i) {
        const bool flips = p.waits[i].deadlock_flips & bit;
        t->waits += 1, t->flips += flips;
        CHECK_MESSAGE(q.waits[i].deadlock_monotone() == (p.waits[i].deadlock_monotone() != flips),
                      fmt::format("{}: wait {} with assumption {} {}", file, i,
                                  model::assumption(a).name, from ? "turned off" : "turned on"));
        CHECK_MESSAGE((q.waits[i].deadlock_flips & bit) == (p.waits[i].deadlock_flips & bit),
                      fmt::format("{}: wait {}: flipping back is not symmetric", file, i));
      }
    }
  }
}

}  // namespace

TEST_CASE("value assumptions: deadlock_flips says which waits a flip hides, the library") {
  FlipTally t;
  for (const auto& [file, text] : testing::library_cases()) check_program(file, text, &t);
  MESSAGE(fmt::format("{} waits, {} flips", t.waits, t.flips));
  CHECK(t.flips > 100);
}

TEST_CASE("value assumptions: deadlock_flips says which waits a flip hides, fuzz and frames") {
  FlipTally t;
  for (const auto& [file, text] : testing::generated_cases(300, 300)) check_program(file, text, &t);
  MESSAGE(fmt::format("{} waits, {} flips", t.waits, t.flips));
  CHECK(t.flips > 100);
}
