// A cache operation that exists only because an assumption says so (CacheOp::exists_under) must
// come before every other event only through orders guarded by that assumption. Otherwise a proof
// can use the operation, name no guarded order of the assumption, and leave it out of its list
// (cases/regress/1027097-std-signal-flush-list.sync). Checked for every assumption on the
// bundled library, the fixed-seed fuzz cases and generated frames: with the assumption turned on,
// following every order but those it guards from such an operation reaches only operations of
// the same assumption; with it turned off, exactly those operations are gone.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <vector>

#include "lang/parse.h"
#include "model/events.h"
#include "tests/tools/library_cases.h"
#include "tools/fuzz_gen.h"
#include "tools/generate.h"

using namespace syncproof;
using model::AssumptionId;

namespace {

struct AssumedTally {
  size_t programs = 0, assumed_ops = 0;
};

// The first event (other than such operations) that an operation made under `a` reaches through
// orders not guarded by `a`, or kNoEvent.
model::EventId leak(const model::LoweredProgram& p, AssumptionId a) {
  std::vector<std::vector<model::EventId>> next(p.events.size());
  for (const model::Order& o : p.orders)
    if (!(o.guard.id == a && o.guard.when)) next[o.before].push_back(o.after);
  std::vector<bool> assumed(p.events.size(), false), seen(p.events.size(), false);
  std::vector<model::EventId> todo;
  for (const model::CacheOp& op : p.cache_ops)
    if (op.exists_under == a) assumed[op.ev] = true, seen[op.ev] = true, todo.push_back(op.ev);
  while (!todo.empty()) {
    const model::EventId e = todo.back();
    todo.pop_back();
    for (model::EventId n : next[e]) {
      if (!assumed[n]) return n;
      if (!seen[n]) seen[n] = true, todo.push_back(n);
    }
  }
  return model::kNoEvent;
}

size_t count_under(const model::LoweredProgram& p, AssumptionId a) {
  size_t n = 0;
  for (const model::CacheOp& op : p.cache_ops) n += op.exists_under == a;
  return n;
}

void check_program(const std::string& file, const std::string& text, AssumedTally* t) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  ++t->programs;
  for (int i = 0; i < model::kAssumptionCount; ++i) {
    const auto a = static_cast<AssumptionId>(i);
    model::ModelConfig on = model::config_for(pr.c, std::nullopt, {}), off = on;
    on.assumptions.set(a, true);
    off.assumptions.set(a, false);
    const model::LoweredProgram with = model::lower(pr.c, on), without = model::lower(pr.c, off);
    const size_t n = count_under(with, a);
    t->assumed_ops += n;
    const model::EventId e = leak(with, a);
    CHECK_MESSAGE(e == model::kNoEvent,
                  fmt::format("{}: an operation made under assumption {} comes before \"{}\" "
                              "(queue {} command {}) with no order guarded by it",
                              file, i, e == model::kNoEvent ? "" : with.events[e].what(),
                              e == model::kNoEvent ? 0 : with.events[e].queue,
                              e == model::kNoEvent ? 0 : with.events[e].cmd));
    CHECK_MESSAGE(count_under(without, a) == 0, file);
    CHECK_MESSAGE(with.cache_ops.size() - without.cache_ops.size() == n,
                  fmt::format("{}: assumption {} adds {} operations, {} of them marked", file, i,
                              with.cache_ops.size() - without.cache_ops.size(), n));
  }
}

}  // namespace

TEST_CASE("assumed operations: reach later events only under their assumption, the library") {
  AssumedTally t;
  for (const auto& [file, text] : testing::library_cases()) check_program(file, text, &t);
  MESSAGE(fmt::format("{} programs, {} assumed operations", t.programs, t.assumed_ops));
  CHECK(t.assumed_ops > 1000);
}

TEST_CASE("assumed operations: reach later events only under their assumption, fuzz and frames") {
  AssumedTally t;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    cli::FuzzCase fc = cli::generate_case(seed, {});
    if (!fc.expect_lint_error) check_program(fmt::format("fuzz-{}.sync", seed), fc.render(), &t);
  }
  cli::FrameShape s;
  s.commands = 300, s.seed = 3;
  check_program("frame.sync", cli::generate_frame(s), &t);
  MESSAGE(fmt::format("{} programs, {} assumed operations", t.programs, t.assumed_ops));
  CHECK(t.assumed_ops > 1000);
}
