// Solver: answers, models, cores, scopes, timeouts, the difference-logic engine and its fallback.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iterator>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "solver/solver.h"
#include "tests/solver/pigeonhole.h"

namespace sv = syncproof::solver;
using sv::Status;

TEST_CASE("sat: model values satisfy the constraints") {
  sv::Context cx;
  sv::Solver s(cx, "sat/model");
  sv::Term a = cx.int_var("t.a"), b = cx.int_var("t.b"), p = cx.bool_var("p");
  s.add(cx.le(cx.add(a, cx.int_val(5)), b));  // a + 5 <= b
  s.add(cx.ge(a, cx.int_val(-7)));
  s.add(cx.eq(p, cx.gt(b, cx.int_val(100))));
  s.add(cx.lor({p, cx.lt(b, cx.int_val(-3))}));  // b >= -2: p must hold
  sv::CheckResult r = s.check();
  REQUIRE(r.status == Status::Sat);
  CHECK(r.reason.empty());
  CHECK(r.elapsed_ms >= 0);
  int64_t va = s.int_value(a), vb = s.int_value(b);
  CHECK(va + 5 <= vb);
  CHECK(va >= -7);
  CHECK(s.bool_value(p));
  CHECK(vb > 100);
  CHECK(s.int_value(cx.sub(b, a)) == vb - va);
  CHECK(s.bool_value(cx.bool_var("unconstrained")) == s.bool_value(cx.bool_var("unconstrained")));
}

TEST_CASE("unsat, and models are only read after sat") {
  sv::Context cx;
  sv::Solver s(cx, "unsat");
  sv::Term x = cx.int_var("x"), y = cx.int_var("y"), z = cx.int_var("z");
  s.add(cx.lt(x, y));
  s.add(cx.lt(y, z));
  s.add(cx.lt(z, x));
  CHECK(s.check().status == Status::Unsat);
  CHECK(s.unsat_core().empty());  // no assumptions: the assertions alone are unsat
  CHECK_THROWS_AS(s.int_value(x), std::logic_error);
  sv::Solver fresh(cx, "fresh");
  CHECK_THROWS_AS(fresh.bool_value(cx.bool_var("p")), std::logic_error);
  CHECK_THROWS_AS(fresh.unsat_core(), std::logic_error);
  CHECK_THROWS_AS(fresh.add(x), std::logic_error);
}

TEST_CASE("push/pop restore the earlier assertions and discard the model") {
  sv::Context cx;
  sv::Solver s(cx, "scopes");
  sv::Term x = cx.int_var("x");
  s.add(cx.ge(x, cx.int_val(0)));
  s.push();
  s.add(cx.lt(x, cx.int_val(0)));
  CHECK(s.scopes() == 1);
  CHECK(s.check().status == Status::Unsat);
  s.pop();
  CHECK(s.scopes() == 0);
  REQUIRE(s.check().status == Status::Sat);
  CHECK(s.int_value(x) >= 0);
  s.push();
  CHECK_THROWS_AS(s.int_value(x), std::logic_error);
  s.pop();
  CHECK_THROWS_AS(s.pop(), std::logic_error);
}

namespace {
// Assumptions: a: x >= 10 and c: x >= 7 each contradict x <= 5; p and d are irrelevant.
struct CoreCase {
  sv::Context cx;
  sv::Solver s;
  sv::Term x, a, p, c, d;
  explicit CoreCase(bool minimize)
      : cx(sv::ContextOptions{.minimize_core = minimize}), s(cx, "core") {
    x = cx.int_var("x");
    a = cx.ge(x, cx.int_val(10));
    p = cx.bool_var("p");
    c = cx.ge(x, cx.int_val(7));
    d = cx.ge(cx.int_var("y"), cx.int_val(0));
    s.add(cx.le(x, cx.int_val(5)));
    s.add(cx.implies(p, cx.ge(cx.int_var("y"), cx.int_val(3))));
  }
  std::vector<sv::Term> assumptions() const { return {p, a, d, c}; }
};
}  // namespace

TEST_CASE("unsat core: a subset of the assumptions that is itself unsat") {
  CoreCase k(false);
  auto asms = k.assumptions();
  REQUIRE(k.s.check(asms).status == Status::Unsat);
  std::vector<sv::Term> core = k.s.unsat_core();
  REQUIRE(!core.empty());
  for (sv::Term t : core) CHECK((t == k.a || t == k.c || t == k.p || t == k.d));
  CHECK(k.s.check(core).status == Status::Unsat);
  CHECK(k.s.check(std::vector<sv::Term>{k.p, k.d}).status == Status::Sat);
}

TEST_CASE("unsat core, minimized: dropping any literal makes it sat") {
  CoreCase k(true);
  auto asms = k.assumptions();
  REQUIRE(k.s.check(asms).status == Status::Unsat);
  std::vector<sv::Term> core = k.s.unsat_core();
  REQUIRE(core.size() == 1);
  CHECK((core[0] == k.a || core[0] == k.c));
  CHECK(k.s.unsat_core() == core);  // cached
  CHECK(k.s.check(core).status == Status::Unsat);
  CHECK(k.cx.stats().core_checks >= 1);
}

using syncproof::testing::add_pigeonhole;

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

TEST_CASE("timeout: a hard query comes back Unknown with the reason, and the solver goes on") {
  sv::Context cx(sv::ContextOptions{.timeout_ms = 1, .rlimit = 0});
  sv::Solver s(cx, "pigeonhole");
  sv::Term x = cx.int_var("x");
  s.add(cx.ge(x, cx.int_val(3)));
  s.push();
  add_pigeonhole(cx, s, 12);
  for (std::optional<unsigned> timeout : {std::optional<unsigned>{}, std::optional<unsigned>{1}}) {
    sv::CheckResult r = s.check({}, timeout);
    CHECK(r.status == Status::Unknown);
    CHECK(r.limit == sv::Limit::Timeout);
    CHECK(r.reason == "timeout after 1 ms");
  }
  CHECK_THROWS_AS(s.unsat_core(), std::logic_error);
  s.pop();
  // A budget no load can exhaust: the Context's default (1 ms) could run out before Z3 starts.
  REQUIRE(s.check({}, 60'000u).status == Status::Sat);
  CHECK(s.int_value(x) >= 3);
  CHECK(cx.stats().checks == 3);
  CHECK(cx.stats().unknown == 2);
  CHECK(cx.stats().timeouts == 2);
  CHECK(cx.stats().sat == 1);
}

// The same 1 ms timeout 200 times in a row: Z3 4.8.12's own timer misses a short deadline now
// and then (the query then runs for hours); the watchdog must catch every one. Each check takes
// a few milliseconds; the bound only catches a check that was never stopped. Its margin: the
// whole test took 1.0 s optimised and 2.1 s under ASan+UBSan (December 2026, idle), so 20 s
// leaves a factor of three for the slowest build even with a third of a core (load 4 on two).
TEST_CASE("timeout: 200 hard checks in a row all stop, with and without Z3's own timer") {
  for (bool z3_timer : {true, false}) {
    CAPTURE(z3_timer);
    sv::Context cx(sv::ContextOptions{.timeout_ms = 1, .rlimit = 0, .z3_timer = z3_timer});
    const auto t0 = std::chrono::steady_clock::now();
    int timeouts = 0;
    std::optional<sv::Solver> s;
    for (int i = 0; i < 200; ++i) {
      // Each solver asked twice: Z3 4.8.12's second check after a timeout can be a wrong sat.
      if (i % 2 == 0) {
        s.emplace(cx, "pigeonhole/repeat");
        add_pigeonhole(cx, *s, 12);
      }
      sv::CheckResult r = s->check();
      CAPTURE(r.reason);
      CHECK(r.status == Status::Unknown);  // never a (wrong) sat from a cut-short check
      timeouts += r.status == Status::Unknown && r.limit == sv::Limit::Timeout;
      // A stale interrupt must not make the next check lie: a small unsat query stays unsat.
      sv::Solver small(cx, "pigeonhole/small");
      add_pigeonhole(cx, small, 5);
      CHECK(small.check({}, sv::CheckOptions{.timeout_ms = 60'000, .rlimit = {}}).status ==
            Status::Unsat);
    }
    CHECK(timeouts == 200);
    CHECK(seconds_since(t0) < 20.0);
    // Without Z3's timer only the watchdog can have stopped them.
    if (!z3_timer) CHECK(cx.stats().interrupts >= 200);
    CHECK(cx.stats().timeouts == 200);
  }
}

// Threads of the process now (Linux: one entry per thread in /proc/self/task).
static size_t thread_count() {
  return static_cast<size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                           std::filesystem::directory_iterator{}));
}

// By default Z3's own timer is not used: its threads allocate where an out-of-memory cannot be
// caught (context.h, z3_timer). Timed checks start the watchdog's one thread and nothing else.
// With Z3's timer asked for, its worker thread appears: the test detects it. (CTest runs each case
// in its own process, so no earlier case left an idle Z3 worker that this one could reuse.)
TEST_CASE("timeout: by default a timed check starts only the watchdog's thread, not Z3's timer") {
  for (bool z3_timer : {false, true}) {
    CAPTURE(z3_timer);
    sv::ContextOptions o{.timeout_ms = 60'000, .rlimit = 0};
    if (z3_timer) o.z3_timer = true;
    const size_t before = thread_count();
    sv::Context cx(o);
    for (int i = 0; i < 3; ++i) {
      sv::Solver s(cx, "pigeonhole/small");
      add_pigeonhole(cx, s, 5);
      CHECK(s.check().status == Status::Unsat);
    }
    const size_t during = thread_count();
    // The watchdog; with Z3's timer also its worker (Z3 keeps it, idle, until the process ends).
    CHECK(during == before + (z3_timer ? 2 : 1));
  }
}

TEST_CASE("the watchdog stops a check whose budget is longer than one tick") {
  sv::Context cx(sv::ContextOptions{.timeout_ms = 30, .rlimit = 0, .z3_timer = false});
  sv::Solver s(cx, "pigeonhole/30ms");
  add_pigeonhole(cx, s, 12);
  const auto t0 = std::chrono::steady_clock::now();
  sv::CheckResult r = s.check();
  CHECK(r.status == Status::Unknown);
  CHECK(r.reason == "timeout after 30 ms");
  CHECK(r.elapsed_ms >= 30);
  CHECK(seconds_since(t0) < 20.0);
  // An easy check afterwards is not hit by a late interrupt.
  sv::Solver easy(cx, "easy");
  easy.add(cx.bool_var("p"));
  for (int i = 0; i < 50; ++i) CHECK(easy.check({}, 60'000u).status == Status::Sat);
}

// The resource limit counts Z3's own work, not time: the same query stops at the same point on
// any machine and under any load, and says so.
TEST_CASE("rlimit: a hard query runs out of resources deterministically") {
  std::vector<uint64_t> used;
  for (int round = 0; round < 3; ++round) {
    sv::Context cx(sv::ContextOptions{.timeout_ms = 0, .rlimit = 200'000});
    sv::Solver s(cx, "pigeonhole/rlimit");
    add_pigeonhole(cx, s, 12);
    sv::CheckResult r = s.check();
    CHECK(r.status == Status::Unknown);
    CHECK(r.limit == sv::Limit::Resource);
    CHECK(r.reason == "resource limit exhausted (rlimit 200000)");
    CHECK(r.rlimit_used >= 200'000);
    used.push_back(r.rlimit_used);
    CHECK(cx.stats().rlimit_outs == 1);
    // A per-check override; and the solver goes on.
    sv::CheckResult r2 = s.check({}, sv::CheckOptions{.timeout_ms = {}, .rlimit = 50'000});
    CHECK(r2.reason == "resource limit exhausted (rlimit 50000)");
  }
  CHECK(used[0] == used[1]);
  CHECK(used[1] == used[2]);
}

TEST_CASE("rlimit: easy queries are far inside the default limit") {
  sv::Context cx;
  CHECK(cx.options().rlimit == sv::kDefaultRlimit);
  sv::Solver s(cx, "easy");
  sv::Term x = cx.int_var("x"), y = cx.int_var("y");
  s.add(cx.lt(x, y));
  sv::CheckResult r = s.check();
  CHECK(r.status == Status::Sat);
  CHECK(r.limit == sv::Limit::None);
  CHECK(r.rlimit_used < sv::kDefaultRlimit / 100);
}

TEST_CASE("Arith::Auto: difference logic first, LIA once a non-difference atom shows up") {
  sv::Context cx;  // Arith::Auto
  sv::Solver s(cx, "fallback");
  sv::Term x = cx.int_var("x"), y = cx.int_var("y"), z = cx.int_var("z");
  s.add(cx.le(cx.sub(x, y), cx.int_val(3)));
  s.add(cx.le(cx.sub(y, z), cx.int_val(-2)));
  CHECK(s.check().status == Status::Sat);
  CHECK(cx.stats().lia_fallbacks == 0);
  s.push();
  s.add(cx.eq(cx.add(cx.add(x, y), z), cx.int_val(7)));
  REQUIRE(s.check().status == Status::Sat);
  CHECK(cx.stats().lia_fallbacks == 1);
  CHECK(s.int_value(x) + s.int_value(y) + s.int_value(z) == 7);
  CHECK(s.int_value(y) - s.int_value(z) <= -2);
  s.pop();  // the rebuilt solver kept the scope
  CHECK(s.scopes() == 0);
  s.add(cx.gt(cx.sub(x, z), cx.int_val(1)));
  CHECK(s.check().status == Status::Unsat);
}

TEST_CASE("arithmetic that arrives after a Boolean-only first check is still decided") {
  for (sv::Arith arith : {sv::Arith::Auto, sv::Arith::Lia, sv::Arith::DifferenceLogic}) {
    sv::Context cx(sv::ContextOptions{.arith = arith});
    sv::Solver s(cx, "late-arith");
    CHECK(s.check().status == Status::Sat);  // Z3 sets its theories up at the first check
    s.add(cx.bool_var("p"));
    CHECK(s.check().status == Status::Sat);
    sv::Term x = cx.int_var("x"), y = cx.int_var("y");
    s.push();
    s.add(cx.lt(x, y));
    s.add(cx.le(cx.sub(y, x), cx.int_val(0)));
    CHECK(s.check().status == Status::Unsat);
  }
}

TEST_CASE("Arith::DifferenceLogic never falls back") {
  sv::Context cx(sv::ContextOptions{.arith = sv::Arith::DifferenceLogic});
  sv::Solver s(cx, "difference-only");
  sv::Term x = cx.int_var("x"), y = cx.int_var("y"), z = cx.int_var("z");
  s.add(cx.eq(cx.add(cx.add(x, y), z), cx.int_val(7)));
  sv::CheckResult r = s.check();
  CHECK(r.status == Status::Unknown);
  CHECK(r.reason.find("difference-logic") != std::string::npos);
}

namespace {
// A random formula over 4 ints and 3 bools in the encoder's shape: difference atoms, bounds,
// Boolean structure, the odd ite and non-difference sum.
sv::Term random_formula(sv::Context& cx, std::mt19937& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto ivar = [&] { return cx.int_var(fmt::format("i{}", pick(4))); };
  auto atom = [&]() -> sv::Term {
    sv::Term c = cx.int_val(pick(9) - 4);
    switch (pick(8)) {
      case 0:
        return cx.bool_var(fmt::format("b{}", pick(3)));
      case 1:
        return cx.le(ivar(), c);
      case 2:
        return cx.eq(cx.sub(ivar(), ivar()), c);
      case 3:
        return cx.lt(cx.ite(cx.bool_var("b0"), ivar(), ivar()), cx.add(ivar(), c));
      case 4:
        return cx.le(cx.add(ivar(), ivar()), c);  // not a difference atom
      default:
        return cx.le(cx.sub(ivar(), ivar()), c);
    }
  };
  std::vector<sv::Term> clauses;
  for (int i = 0, n = 2 + pick(6); i < n; ++i) {
    sv::Term a = atom(), b = atom();
    clauses.push_back(pick(3) == 0 ? cx.lor({a, cx.lnot(b)}) : pick(2) ? a : cx.implies(a, b));
  }
  return cx.land(clauses);
}
}  // namespace

TEST_CASE("the difference-logic engine agrees with LIA, and its models check out") {
  sv::Context auto_cx, lia_cx(sv::ContextOptions{.arith = sv::Arith::Lia});
  std::mt19937 rng_a(20240601), rng_b(20240601);
  int answers[2] = {0, 0};
  for (int round = 0; round < 150; ++round) {
    sv::Solver a(auto_cx, "cross/auto"), b(lia_cx, "cross/lia");
    sv::Term fa = random_formula(auto_cx, rng_a), fb = random_formula(lia_cx, rng_b);
    a.add(fa);
    b.add(fb);
    Status sa = a.check().status, sb = b.check().status;
    REQUIRE_MESSAGE(sa == sb, auto_cx.to_smtlib(fa));
    REQUIRE(sa != Status::Unknown);
    ++answers[sa == Status::Sat];
    if (sa != Status::Sat) continue;
    std::vector<sv::Term> pinned;  // the model, pinned as assumptions, must satisfy fa
    for (int i = 0; i < 4; ++i) {
      sv::Term v = auto_cx.int_var(fmt::format("i{}", i));
      pinned.push_back(auto_cx.eq(v, auto_cx.int_val(a.int_value(v))));
    }
    for (int i = 0; i < 3; ++i) {
      sv::Term v = auto_cx.bool_var(fmt::format("b{}", i));
      pinned.push_back(a.bool_value(v) ? v : auto_cx.lnot(v));
    }
    CHECK_MESSAGE(a.check(pinned).status == Status::Sat, auto_cx.to_smtlib(fa));
  }
  CHECK(answers[0] > 10);  // both answers are exercised
  CHECK(answers[1] > 10);
  CHECK(auto_cx.stats().lia_fallbacks > 0);
}

TEST_CASE("difference_logic(): what it accepts, Z3's difference-logic engine decides") {
  sv::Context dl_cx(sv::ContextOptions{.arith = sv::Arith::DifferenceLogic});
  sv::Context lia_cx(sv::ContextOptions{.arith = sv::Arith::Lia});
  std::mt19937 rng_a(7), rng_b(7);
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 300; ++round) {
    sv::Term fa = random_formula(dl_cx, rng_a), fb = random_formula(lia_cx, rng_b);
    if (!dl_cx.difference_logic(fa)) {
      ++rejected;
      continue;
    }
    ++accepted;
    sv::Solver a(dl_cx, "dl"), b(lia_cx, "lia");
    a.add(fa);
    b.add(fb);
    sv::CheckResult ra = a.check();
    REQUIRE_MESSAGE(ra.status != Status::Unknown, ra.reason, " ", dl_cx.to_smtlib(fa));
    CHECK(ra.status == b.check().status);
  }
  CHECK(accepted > 50);
  CHECK(rejected > 50);
  sv::Term x = dl_cx.int_var("x"), y = dl_cx.int_var("y");
  CHECK(dl_cx.difference_logic(
      dl_cx.le(dl_cx.add(dl_cx.sub(x, y), dl_cx.int_val(2)), dl_cx.int_val(0))));
  CHECK(dl_cx.difference_logic(dl_cx.distinct(std::vector<sv::Term>{x, y, dl_cx.int_val(3)})));
  CHECK(!dl_cx.difference_logic(dl_cx.le(dl_cx.sub(x, y), y)));
  CHECK(!dl_cx.difference_logic(dl_cx.add(x, y)));
  CHECK(!dl_cx.difference_logic(dl_cx.le(dl_cx.sub(dl_cx.int_val(0), x), y)));
}
