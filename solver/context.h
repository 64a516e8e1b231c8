#pragma once
// The solver layer's one context object: owns the Z3 context, the expression table behind every
// Term, the options and the statistics. No global state: two Contexts share nothing, and a
// Context (with its Solvers) must be used from one thread at a time.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "solver/difference.h"
#include "solver/term.h"

namespace syncproof::solver {

class ContextPool;  // context_pool.h

// Which Z3 arithmetic engine a Solver uses.
enum class Arith : uint8_t {
  // Z3's difference-logic engine (arith.solver=1, Bellman-Ford), far faster on long chains of
  // timing constraints; a Solver rebuilds itself on LIA, once and for good, when it is given a
  // term that is not difference logic (see difference_logic()), or when Z3 reports one.
  Auto,
  Lia,             // Z3's general linear integer arithmetic engine (arith.solver=6) only
  DifferenceLogic  // difference logic only: a non-difference atom yields Status::Unknown
};

// The default deterministic resource limit of one check: Z3's own work counter ("rlimit"), the
// same on every machine for the same input, so a query that runs out of it gives the same
// Unknown everywhere. Z3 4.8.12 counts 1-2 million units a second on one x86 core, so this is
// 5-10 s of work, inside the default 20 s timeout; the hardest query of the bundled library uses
// about 250,000 (README, "Solver limits").
inline constexpr unsigned kDefaultRlimit = 10'000'000;

// Every check is bounded twice: by wall-clock time (a watchdog thread of the Context that
// interrupts Z3 at the deadline and keeps interrupting until the check returns) and by the
// resource limit.
struct ContextOptions {
  unsigned timeout_ms = 0;           // default per-check wall-clock budget; 0 = none
  unsigned rlimit = kDefaultRlimit;  // default per-check resource limit; 0 = none
  // Also give the timeout to Z3's own timer. Off by default: Z3 4.8.12's timer runs on threads of
  // Z3's own that put themselves back on a shared list of idle workers (util/scoped_timer.cpp,
  // thread_func and ~imp: std::vector::push_back), so an allocation that fails there, under
  // --max-memory, throws std::bad_alloc where nothing can catch it and terminates the process
  // (seen in CI: the 160 MiB step of the batch sweep in tests/tools/cli_limits_test.cpp). The
  // watchdog alone bounds every check (tests/solver/solver_test.cpp shows it suffices).
  bool z3_timer = false;
  unsigned random_seed = 0;
  Arith arith = Arith::Auto;
  bool minimize_core = false;  // unsat_core(): try dropping each core literal once, re-checking
  std::optional<std::string> dump_dir = {};  // every check writes <dir>/<prefix><query>-<n>.smt2
  std::string dump_prefix = {};  // e.g. the case's name, so cases can share a dump directory
  // Take the Z3 context from this pool and give it back (context_pool.h: for one sequence of
  // questions on one thread only); none: a fresh Z3 context, deleted with the Context.
  std::shared_ptr<ContextPool> pool = {};
};

struct Stats {
  uint64_t checks = 0;  // Solver::check calls
  uint64_t sat = 0;
  uint64_t unsat = 0;
  uint64_t unknown = 0;
  uint64_t core_checks = 0;    // extra checks spent minimizing unsat cores
  uint64_t lia_fallbacks = 0;  // Solvers that switched from difference logic to LIA
  uint64_t dumps = 0;          // SMT-LIB files written
  uint64_t timeouts = 0;       // Unknown because the wall-clock budget ran out
  uint64_t rlimit_outs = 0;    // Unknown because the resource limit ran out
  uint64_t interrupts = 0;     // Z3_interrupt calls by the watchdog
  uint64_t rlimit_max = 0;     // the most resource units one check used
  double solver_ms = 0;        // wall time inside Z3's check, core minimization included
};

class Context {
 public:
  explicit Context(ContextOptions options = {});
  ~Context();  // every Solver made from this Context must be destroyed first
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;

  const ContextOptions& options() const;
  const Stats& stats() const;

  // Variables. The name is made SMT-LIB-safe (smtlib.h: smt_symbol) and unique; asking for the same
  // name again returns the same variable, asking for it with the other sort is a logic_error.
  Term int_var(std::string_view name);
  Term bool_var(std::string_view name);
  // The name a variable carries in SMT-LIB dumps and models.
  std::string symbol(Term var) const;

  Term int_val(int64_t v);
  Term bool_val(bool b);

  Term add(Term a, Term b);
  Term sub(Term a, Term b);
  Term lt(Term a, Term b);
  Term le(Term a, Term b);
  Term gt(Term a, Term b);
  Term ge(Term a, Term b);
  Term eq(Term a, Term b);  // both Int or both Bool
  Term ne(Term a, Term b);

  Term land(std::span<const Term> ts);  // empty: true
  Term lor(std::span<const Term> ts);   // empty: false
  Term land(std::initializer_list<Term> ts) { return land(std::span(ts.begin(), ts.size())); }
  Term lor(std::initializer_list<Term> ts) { return lor(std::span(ts.begin(), ts.size())); }
  Term lnot(Term a);
  Term implies(Term a, Term b);
  Term ite(Term c, Term a, Term b);
  Term distinct(std::span<const Term> ts);  // fewer than two terms: true

  Sort sort(Term t) const;
  // Whether Z3's difference-logic engine takes t (see difference.h): for a Bool, every atom in
  // it compares x + c with y + d or x - y + c with d; for an Int, t is c, x + c or x - y + c.
  bool difference_logic(Term t) const;
  std::string to_smtlib(Term t) const;  // for messages and debugging

  struct Impl;

 private:
  friend class Solver;
  // make() is the one way into Z3 for compound terms (z3_backend.cpp); the builders
  // (context.cpp) check the operands first and work out the result's sort and shape.
  enum class Op : uint8_t { Add, Sub, Lt, Le, Gt, Ge, Eq, Not, And, Or, Implies, Ite, Distinct };
  Term make(Op op, std::span<const Term> args, Sort sort, Shape shape);
  Shape shape(Term t) const;
  void need(Term t, Sort want, std::string_view op) const;  // logic_error on another sort
  Term binary(Op op, std::string_view name, Term a, Term b, Sort in, Sort out,
              Shape (*combine)(Shape, Shape));
  Term nary(Op op, std::string_view name, std::span<const Term> ts);

  std::unique_ptr<Impl> impl_;
};

}  // namespace syncproof::solver
