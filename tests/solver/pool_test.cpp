// ContextPool (solver/context_pool.h): a Context made with a pool takes an idle Z3 context and
// gives it back; the next Context answers on it as on a fresh one, limits included; a context a
// limit cut a check of short is never given back; the pool keeps at most its size.
#include <doctest/doctest.h>

#include <memory>

#include "solver/context_pool.h"
#include "solver/solver.h"
#include "tests/solver/pigeonhole.h"

namespace sv = syncproof::solver;
using sv::Status;

namespace {

sv::ContextOptions pooled(const std::shared_ptr<sv::ContextPool>& pool, unsigned rlimit = 0) {
  sv::ContextOptions o;
  o.rlimit = rlimit;
  o.pool = pool;
  return o;
}

// x < y and y < x over the context's variables "x" and "y": unsat; x < y alone: sat.
void check_order_questions(sv::Context& cx) {
  sv::Solver s(cx, "order");
  const sv::Term x = cx.int_var("x"), y = cx.int_var("y");
  s.add(cx.lt(x, y));
  REQUIRE(s.check().status == Status::Sat);
  CHECK(s.int_value(x) < s.int_value(y));
  s.push();
  s.add(cx.lt(y, x));
  CHECK(s.check().status == Status::Unsat);
  s.pop();
  CHECK(s.check().status == Status::Sat);
}

}  // namespace

TEST_CASE("pool: a Context gives its Z3 context back, and the next one answers on it") {
  auto pool = std::make_shared<sv::ContextPool>();
  {
    sv::Context cx(pooled(pool));
    check_order_questions(cx);
    CHECK(pool->idle() == 0);
  }
  CHECK(pool->idle() == 1);
  CHECK(pool->reused() == 0);
  {
    sv::Context cx(pooled(pool));  // the same names again: variables of this Context alone
    CHECK(pool->idle() == 0);
    CHECK(pool->reused() == 1);
    check_order_questions(cx);
    CHECK(cx.symbol(cx.int_var("x")) == "x");
  }
  CHECK(pool->idle() == 1);
}

TEST_CASE("pool: a reused context counts the resource limit from its own check") {
  // Z3's work counter runs on over a context's life; the limit is relative to it, so a query on
  // a reused context stops where it stops on a fresh one.
  uint64_t fresh = 0;
  {
    sv::Context cx(sv::ContextOptions{.timeout_ms = 0, .rlimit = 200'000});
    sv::Solver s(cx, "pigeonhole/fresh");
    syncproof::testing::add_pigeonhole(cx, s, 12);
    const sv::CheckResult r = s.check();
    REQUIRE(r.status == Status::Unknown);
    fresh = r.rlimit_used;
  }
  auto pool = std::make_shared<sv::ContextPool>();
  {
    sv::Context cx(pooled(pool));
    check_order_questions(cx);
  }
  REQUIRE(pool->idle() == 1);
  {
    sv::Context cx(pooled(pool, 200'000));
    CHECK(pool->reused() == 1);
    sv::Solver s(cx, "pigeonhole/reused");
    syncproof::testing::add_pigeonhole(cx, s, 12);
    const sv::CheckResult r = s.check();
    CHECK(r.status == Status::Unknown);
    CHECK(r.reason == "resource limit exhausted (rlimit 200000)");
    CHECK(r.rlimit_used == fresh);
  }
  // Cut short by its limit: deleted, not given back.
  CHECK(pool->idle() == 0);
}

TEST_CASE("pool: at most its size is kept, and it outlives no Context it gave") {
  auto pool = std::make_shared<sv::ContextPool>(1);
  {
    sv::Context a(pooled(pool)), b(pooled(pool));
    check_order_questions(a);
    check_order_questions(b);
  }
  CHECK(pool->idle() == 1);
  // The Context holds the pool (ContextOptions::pool): dropping ours first is safe.
  auto held = std::make_unique<sv::Context>(pooled(pool));
  std::weak_ptr<sv::ContextPool> weak = pool;
  pool.reset();
  CHECK_FALSE(weak.expired());
  check_order_questions(*held);
  held.reset();
  CHECK(weak.expired());
}
