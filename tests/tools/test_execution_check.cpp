// properties::is_execution, the check a witness or an extended slice model passes before it is
// reported, must say what the SMT encoding says of the same concrete times: the whole encoding
// with every time fixed is satisfiable exactly when the times are an execution. Compared on
// random completion orders (each event once everything ordered before it and a candidate of each
// of its wait rules completed: the orders hold, and a wait that is not monotone passes or fails
// by the value it polls) and on those orders with a poll moved onto a write it may see (no
// interleaving), over the library and fixed-seed fuzz cases that have such waits.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <random>

#include "encode/encoding.h"
#include "lang/parse.h"
#include "properties/execution.h"
#include "properties/slice.h"
#include "tests/completion_times.h"
#include "tests/sample.h"
#include "tests/tools/generated_cases.h"
#include "tests/tools/library_cases.h"

using namespace syncproof;

namespace {

struct Tally {
  size_t cases = 0, runs = 0, executions = 0, value_fails = 0;
};

bool orders_hold(const model::LoweredProgram& p, const properties::Times& t) {
  for (const model::Order& o : p.orders)
    if ((!o.guard.id || p.config.assumptions.enabled(*o.guard.id) == o.guard.when) &&
        !(t[o.before] < t[o.after]))
      return false;
  return true;
}

// The whole encoding with every time fixed to `t`, under the configuration's assumptions.
bool encoding_allows(const model::LoweredProgram& p, const properties::Times& t) {
  solver::Context ctx;
  encode::Encoding enc(p, ctx);
  solver::Solver s(ctx, "fixed times");
  for (solver::Term b : enc.base()) s.add(b);
  for (model::EventId e = 0; e < p.events.size(); ++e) s.add(ctx.eq(enc.t(e), ctx.int_val(t[e])));
  const solver::Status r = s.check(enc.assumption_literals(), 20000u).status;
  REQUIRE(r != solver::Status::Unknown);
  return r == solver::Status::Sat;
}

void compare(const std::string& file, const std::string& text, Tally* tally) {
  auto pr = lang::parse_case(file, text);
  REQUIRE_MESSAGE(!pr.has_errors(), file);
  const model::LoweredProgram p = model::lower(pr.c, model::config_for(pr.c, std::nullopt, {}));
  std::vector<const model::WaitRule*> value_waits;
  for (const model::WaitRule& w : p.waits)
    if (!w.monotone) value_waits.push_back(&w);
  if (value_waits.empty()) return;
  ++tally->cases;
  std::mt19937 rng(7);
  auto check = [&](const properties::Times& t, const std::string& what) {
    const bool ours = properties::is_execution(p, t);
    const bool smt = encoding_allows(p, t);
    ++tally->runs, tally->executions += ours;
    tally->value_fails += !ours && orders_hold(p, t);
    if (ours != smt)
      FAIL_CHECK(
          fmt::format("{} ({}): is_execution says {}, the encoding {}", file, what, ours, smt));
  };
  for (int run = 0; run < 6; ++run) {
    // A completion order with the next event drawn at random among those ready.
    const properties::Times t = testing::completion_times(
        p, [&](size_t k) { return std::uniform_int_distribution<size_t>(0, k - 1)(rng); });
    if (std::count(t.begin(), t.end(), 0)) continue;  // some event never completed
    check(t, fmt::format("random order {}", run));
    // The poll of a value wait at the time of a write of its word: never an interleaving.
    for (const model::WaitRule* w : value_waits)
      if (!w->word.writers.empty()) {
        properties::Times tie = t;
        for (long long& x : tie) x *= 2;
        tie[w->wait] = tie[w->word.writers[run % w->word.writers.size()].ev];
        check(tie, fmt::format("random order {}, poll on a write", run));
      }
  }
  // The completion order slices fall back on, when it is an execution, is one the encoding has.
  if (auto t = properties::Slicer(p).execution()) CHECK_MESSAGE(encoding_allows(p, *t), file);
}

}  // namespace

TEST_CASE("is_execution says what the encoding says of concrete times: library and fuzz cases" *
          doctest::test_suite("full-size")) {
  Tally t;
  for (const auto& [file, text] : testing::sampled(testing::library_cases()))
    compare(file, text, &t);
  for (const auto& [file, text] : testing::sampled(testing::generated_cases(2000, 100)))
    compare(file, text, &t);
  MESSAGE(
      fmt::format("{} cases with a wait that is not monotone, {} runs: {} executions, {} "
                  "failing only by a polled value",
                  t.cases, t.runs, t.executions, t.value_fails));
  CHECK(t.cases > testing::scaled(20));
  CHECK(t.executions > testing::scaled(20));
  CHECK(t.value_fails > testing::scaled(10));
}
