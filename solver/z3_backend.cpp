// Where the solver meets Z3: the Context's expression table and the incremental Solver (the
// calls made safe against Z3's own failures are in z3_calls.h). Kept thin on purpose: build
// terms, check, read models and cores, dump.
#include <z3++.h>

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <climits>
#include <memory>
#include <new>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "solver/context.h"
#include "solver/core.h"
#include "solver/smtlib.h"
#include "solver/solver.h"
#include "solver/watchdog.h"
#include "solver/z3_calls.h"

namespace syncproof::solver {

namespace {

using detail::new_solver;
using detail::OwnedZ3;
using detail::set_uint_params;
using detail::z3_guard;
using detail::z3_nary;

constexpr unsigned kDiffLogicEngine = 1;  // arith.solver: Bellman-Ford difference logic
constexpr unsigned kLiaEngine = 6;        // arith.solver: the lra/lia simplex solver

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void misuse(std::string_view what) {
  throw std::logic_error(fmt::format("solver: {}", what));
}

bool is_symbol(const z3::expr& e) {
  return e.is_const() && e.decl().decl_kind() == Z3_OP_UNINTERPRETED;
}

}  // namespace

struct Context::Impl {
  explicit Impl(ContextOptions o) : options(std::move(o)) {}
  // A context that a limit cut a check of short (the watchdog's interrupt, Z3's timer or its
  // resource limit, whose cancellation Z3 can keep: after_interrupt(), Solver::Impl::once) goes
  // back to no pool.
  ~Impl() {
    if (watchdog.interrupts() > 0 || stats.unknown > 0) owned.reusable = false;
  }

  ContextOptions options;  // holds the pool, if any, until the Z3 context is given back
  Stats stats;
  OwnedZ3 owned{options.pool.get()};     // deleted last: after every expression and solver
  z3::scoped_context scoped{owned.raw};  // a z3::context over it that does not delete it
  z3::context& z3 = scoped();            // declared before every expression and the watchdog
  Watchdog watchdog{[this] { z3.interrupt(); }};
  std::optional<z3::solver> flush;                  // an empty solver: see after_interrupt()
  std::vector<z3::expr> exprs;                      // Term::id -> expression
  std::vector<Sort> sorts;                          // Term::id -> sort
  std::vector<Shape> shapes;                        // Term::id -> difference-logic shape
  std::unordered_map<unsigned, uint32_t> by_ast;    // Z3 AST id -> Term::id (hash-consing)
  std::unordered_map<std::string, Term> vars;       // requested name -> variable
  std::unordered_set<std::string> symbols;          // SMT-LIB names in use
  std::unordered_map<std::string, unsigned> dumps;  // file stem -> files written
  unsigned live_solvers = 0;
  bool poisoned = false;  // Z3 let an exception of its own out (z3_guard): never delete it

  // Z3 4.8.12 keeps an interrupt that arrives while no check is listening (just before the
  // check starts, or just after it ends) and the next check on the context then stops early and
  // answers sat for an unsat formula. After the watchdog interrupted, one check of an empty
  // solver takes the stale interrupt (it has nothing to lose), so the next real check is sound.
  void after_interrupt() {
    if (!flush) flush.emplace(new_solver(z3));
    (void)flush->check();
  }

  Term intern(const z3::expr& e, Sort s, Shape shape) {
    // A term Z3 could not allocate: Z3 answers NULL, and some paths (int_val among them) leave
    // no error code for z3++ to throw on (found under --max-memory).
    if (static_cast<Z3_ast>(e) == nullptr) {
      poisoned = true;
      throw std::bad_alloc();
    }
    auto [it, fresh] = by_ast.try_emplace(e.id(), static_cast<uint32_t>(exprs.size()));
    if (fresh) {
      exprs.push_back(e);
      sorts.push_back(s);
      shapes.push_back(shape);
    }
    return Term{it->second};
  }

  const z3::expr& get(Term t) const {
    if (t.id >= exprs.size()) misuse(fmt::format("term {} is not from this context", t.id));
    return exprs[t.id];
  }

  const z3::expr& get(Term t, Sort want, std::string_view op) const {
    const z3::expr& e = get(t);
    if (sorts[t.id] != want) {
      misuse(fmt::format("{} expects {}, got {} term {}", op, to_string(want),
                         to_string(sorts[t.id]), e.to_string()));
    }
    return e;
  }

  Term var(std::string_view name, Sort s) {
    std::string key(name);
    if (auto it = vars.find(key); it != vars.end()) {
      if (sorts[it->second.id] != s) {
        misuse(fmt::format("variable '{}' already exists as {}", name,
                           to_string(sorts[it->second.id])));
      }
      return it->second;
    }
    const std::string base = smt_symbol(name);
    std::string sym = base;
    for (unsigned k = 1; symbols.contains(sym); ++k) sym = fmt::format("{}.{}", base, k);
    symbols.insert(sym);
    bool is_int = s == Sort::Int;
    Term t = intern(is_int ? z3.int_const(sym.c_str()) : z3.bool_const(sym.c_str()), s,
                    is_int ? Shape::Offset : Shape::Const);
    vars.emplace(std::move(key), t);
    return t;
  }
};

Context::Context(ContextOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Context::~Context() {
  assert((!impl_ || impl_->live_solvers == 0) && "destroy every Solver before its Context");
  if (impl_ && impl_->poisoned) (void)impl_.release();  // see Impl::poisoned
}
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

const ContextOptions& Context::options() const {
  return impl_->options;
}
const Stats& Context::stats() const {
  return impl_->stats;
}
Sort Context::sort(Term t) const {
  impl_->get(t);
  return impl_->sorts[t.id];
}
Shape Context::shape(Term t) const {
  impl_->get(t);
  return impl_->shapes[t.id];
}
std::string Context::to_smtlib(Term t) const {
  return impl_->get(t).to_string();
}

Term Context::int_var(std::string_view name) {
  return z3_guard([&] { return impl_->var(name, Sort::Int); }, &impl_->poisoned);
}
Term Context::bool_var(std::string_view name) {
  return z3_guard([&] { return impl_->var(name, Sort::Bool); }, &impl_->poisoned);
}

std::string Context::symbol(Term var) const {
  const z3::expr& e = impl_->get(var);
  if (!is_symbol(e)) misuse(fmt::format("symbol() of non-variable {}", e.to_string()));
  return e.decl().name().str();
}

Term Context::int_val(int64_t v) {
  return z3_guard([&] { return impl_->intern(impl_->z3.int_val(v), Sort::Int, Shape::Const); },
                  &impl_->poisoned);
}
Term Context::bool_val(bool b) {
  return z3_guard([&] { return impl_->intern(impl_->z3.bool_val(b), Sort::Bool, Shape::Const); },
                  &impl_->poisoned);
}

Term Context::make(Op op, std::span<const Term> args, Sort sort, Shape shape) {
  std::vector<z3::expr> v;
  v.reserve(args.size());
  for (Term t : args) v.push_back(impl_->get(t));
  z3::context& c = impl_->z3;
  auto build = [&]() -> z3::expr {
    switch (op) {  // clang-format off
      case Op::Add: return v[0] + v[1];
      case Op::Sub: return v[0] - v[1];
      case Op::Lt: return v[0] < v[1];
      case Op::Le: return v[0] <= v[1];
      case Op::Gt: return v[0] > v[1];
      case Op::Ge: return v[0] >= v[1];
      case Op::Eq: return v[0] == v[1];
      case Op::Not: return !v[0];
      case Op::And: return z3_nary(c, Z3_mk_and, v);
      case Op::Or: return z3_nary(c, Z3_mk_or, v);
      case Op::Implies: return z3::implies(v[0], v[1]);
      case Op::Ite: return z3::ite(v[0], v[1], v[2]);
      case Op::Distinct: return z3_nary(c, Z3_mk_distinct, v);
    }  // clang-format on
    misuse("unknown operator");
  };
  return z3_guard([&] { return impl_->intern(build(), sort, shape); }, &impl_->poisoned);
}

// ---- Solver ----------------------------------------------------------------------------------

struct Solver::Impl {
  Impl(Context::Impl& c, std::string n)
      : cx(c), name(std::move(n)), lia(c.options.arith == Arith::Lia), z(make_z3()) {
    ++cx.live_solvers;
  }
  ~Impl() { --cx.live_solvers; }

  Context::Impl& cx;
  std::string name;
  bool lia;  // which arithmetic engine z runs (see Arith)
  z3::solver z;
  std::optional<unsigned> z3_timeout;  // the values z was last given
  std::optional<unsigned> z3_rlimit;
  std::vector<Term> assertions;      // every level, oldest first: for dumps and rebuilds
  std::vector<size_t> scope_starts;  // assertions.size() at each push
  // The last check; reset by add/push/pop.
  std::optional<Status> last;
  std::vector<Term> assumptions;
  unsigned timeout = 0;  // the limits of the last check (0 = none), for its core checks too
  unsigned rlimit = 0;
  std::optional<z3::model> model;
  std::optional<std::vector<Term>> core;

  z3::solver make_z3() {
    // The plain incremental SMT kernel: the default "combined" solver would switch to it at
    // the first push anyway, and tactic-based solvers re-solve from scratch on every check.
    z3::solver s = new_solver(cx.z3);
    set_uint_params(cx.z3, s,
                    {{"random_seed", cx.options.random_seed},
                     {"arith.solver", lia ? kLiaEngine : kDiffLogicEngine}});
    return s;
  }

  void forget() {
    last.reset();
    model.reset();
    core.reset();
  }

  // Arith::Auto: move to LIA before Z3's difference-logic engine sees a non-difference atom.
  void before(Term t) {
    if (!lia && cx.options.arith == Arith::Auto && cx.shapes[t.id] == Shape::Other) {
      z3_guard([&] { switch_to_lia(); }, &cx.poisoned);
    }
  }

  // A fresh Z3 solver with every level replayed (the old one's learnt state is lost).
  void rebuild() {
    z = make_z3();
    z3_timeout.reset();
    z3_rlimit.reset();
    size_t level = 0;
    for (size_t i = 0; i <= assertions.size(); ++i) {
      for (; level < scope_starts.size() && scope_starts[level] == i; ++level) z.push();
      if (i < assertions.size()) z.add(cx.get(assertions[i]));
    }
  }

  // Arith::Auto, on a non-difference atom: replay every level on a LIA solver, once and for good.
  void switch_to_lia() {
    lia = true;
    rebuild();
    ++cx.stats.lia_fallbacks;
  }

  // The resource units Z3 has counted on this context so far ("rlimit count").
  uint64_t resource_count() {
    z3::stats st = z.statistics();
    for (unsigned i = 0; i < st.size(); ++i) {
      if (st.key(i) != "rlimit count") continue;
      return st.is_uint(i) ? st.uint_value(i) : static_cast<uint64_t>(st.double_value(i));
    }
    return 0;
  }

  // One Z3 check within the current limits: Z3's own timer and resource limit, and the watchdog.
  //
  // Z3 4.8.12 can answer a wrong sat when a cancellation (its timer, or an interrupt) arrives at
  // the wrong moment: early in a check, or between two checks (the next check of that solver, or
  // with an interrupt of any solver of the context, then stops early with sat; measured: about 1
  // check in 250 right after a 1 ms timeout). So: an answer from a check that may have been
  // cancelled (the watchdog fired, or the budget had passed when it returned) is not trusted and
  // becomes Unknown; a solver whose check was cut short by any limit is rebuilt from its
  // assertions; and after an interrupt the context's stale one is taken by an empty check.
  CheckResult once(std::vector<z3::expr>& v) {
    const unsigned z3_budget = timeout == 0 || !cx.options.z3_timer ? UINT_MAX : timeout;
    if (z3_timeout != z3_budget) {
      set_uint_params(cx.z3, z, {{"timeout", z3_budget}});
      z3_timeout = z3_budget;
    }
    if (z3_rlimit != rlimit) {
      set_uint_params(cx.z3, z, {{"rlimit", rlimit}});  // 0: none, as in Z3
      z3_rlimit = rlimit;
    }
    CheckResult res;
    const uint64_t count0 = resource_count();
    std::optional<std::chrono::milliseconds> budget;
    if (timeout > 0) budget = std::chrono::milliseconds(timeout);
    z3::check_result r;
    bool fired;
    const auto t0 = Clock::now();
    {
      WatchdogScope dog(cx.watchdog, budget);
      r = z.check(static_cast<unsigned>(v.size()), v.data());
      fired = dog.finish();
    }
    const bool late = timeout > 0 && ms_since(t0) >= timeout;
    res.rlimit_used = resource_count() - count0;
    const std::string why = r == z3::unknown ? z.reason_unknown() : "";
    // Z3 turns an allocation that failed during the check into "unknown" with a reason that
    // names memory: the same event as std::bad_alloc, and the context is as unsafe to delete.
    if (why.find("memory") != std::string::npos) {
      cx.poisoned = true;
      throw std::bad_alloc();
    }
    const bool cancelled = why == "timeout" || why == "canceled";
    if (fired) cx.after_interrupt();
    if (fired || late) {
      res.limit = Limit::Timeout;
      res.reason = fmt::format("timeout after {} ms", timeout);
    } else if (r == z3::unknown && rlimit > 0 && res.rlimit_used >= rlimit) {
      res.limit = Limit::Resource;
      res.reason = fmt::format("resource limit exhausted (rlimit {})", rlimit);
    } else if (cancelled && timeout > 0) {  // Z3's timer, just inside the budget by our clock
      res.limit = Limit::Timeout;
      res.reason = fmt::format("timeout after {} ms", timeout);
    } else {
      res.status = r == z3::sat ? Status::Sat : r == z3::unsat ? Status::Unsat : Status::Unknown;
      res.reason = why;
    }
    if (cancelled || res.limit != Limit::None) rebuild();
    return res;
  }

  // One check; Arith::Auto: reruns on LIA when Z3 reports an atom the shapes missed
  // ("(incomplete (theory difference-logic))").
  CheckResult run(std::span<const Term> asms) {
    std::vector<z3::expr> v;
    v.reserve(asms.size());
    for (Term a : asms) v.push_back(cx.get(a));
    CheckResult res = once(v);
    while (res.status == Status::Unknown && res.limit == Limit::None && !lia &&
           cx.options.arith == Arith::Auto &&
           res.reason.find("difference-logic") != std::string::npos) {
      switch_to_lia();
      res = once(v);
    }
    Stats& st = cx.stats;
    st.interrupts = cx.watchdog.interrupts();
    st.rlimit_max = std::max(st.rlimit_max, res.rlimit_used);
    st.timeouts += res.limit == Limit::Timeout;
    st.rlimit_outs += res.limit == Limit::Resource;
    return res;
  }

  // The assumptions of asms that Z3's core contains, in their order, without repeats.
  std::vector<Term> core_of(std::span<const Term> asms) {
    std::unordered_set<uint32_t> in_core;
    for (const z3::expr& e : z.unsat_core()) in_core.insert(cx.by_ast.at(e.id()));
    std::vector<Term> out;
    for (Term a : asms)
      if (in_core.erase(a.id)) out.push_back(a);
    return out;
  }

  std::vector<Term> compute_core() {
    std::vector<Term> c = core_of(assumptions);
    if (!cx.options.minimize_core) return c;
    return minimize_core(std::move(c), [&](std::span<const Term> trial) {
      auto t0 = Clock::now();
      CheckResult r = run(trial);
      cx.stats.solver_ms += ms_since(t0);
      ++cx.stats.core_checks;
      return r.status == Status::Unsat ? std::optional(core_of(trial)) : std::nullopt;
    });
  }

  const z3::model& the_model() {
    if (last != Status::Sat)
      misuse(fmt::format("query '{}': model read without a sat check", name));
    if (!model) model = z.get_model();
    return *model;
  }

  void dump(const CheckResult& r) {
    SmtlibQuery q;
    q.query = name;
    q.status = r.status;
    q.reason = r.reason;
    q.elapsed_ms = r.elapsed_ms;
    std::vector<z3::expr> todo;
    for (Term t : assertions) {
      todo.push_back(cx.get(t));
      q.assertions.push_back(cx.get(t).to_string());
    }
    for (Term t : assumptions) {
      const z3::expr& e = cx.get(t);
      todo.push_back(e);
      bool literal = is_symbol(e) || (e.is_not() && is_symbol(e.arg(0)));
      q.assumptions.push_back({e.to_string(), literal});
    }
    std::unordered_set<unsigned> seen;  // declare every variable reachable from the roots
    while (!todo.empty()) {
      z3::expr e = todo.back();
      todo.pop_back();
      if (!e.is_app() || !seen.insert(e.id()).second) continue;
      if (is_symbol(e)) {
        q.declarations.push_back(fmt::format("(declare-fun {} () {})", e.decl().name().str(),
                                             e.is_int() ? "Int" : "Bool"));
      }
      for (unsigned i = 0; i < e.num_args(); ++i) todo.push_back(e.arg(i));
    }
    std::sort(q.declarations.begin(), q.declarations.end());
    std::string stem = file_stem(cx.options.dump_prefix + name);
    q.index = ++cx.dumps[stem];
    write_dump(*cx.options.dump_dir, stem, q.index, render_smtlib(q));
    ++cx.stats.dumps;
  }
};

Solver::Solver(Context& context, std::string query_name)
    : impl_(z3_guard([&] { return std::make_unique<Impl>(*context.impl_, std::move(query_name)); },
                     &context.impl_->poisoned)) {}
Solver::~Solver() {
  if (!impl_ || !impl_->cx.poisoned) return;
  --impl_->cx.live_solvers;  // what ~Impl would do; the rest stays (see Context::Impl::poisoned)
  (void)impl_.release();
}
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

const std::string& Solver::query_name() const {
  return impl_->name;
}
void Solver::set_query_name(std::string name) {
  impl_->name = std::move(name);
}
unsigned Solver::scopes() const {
  return static_cast<unsigned>(impl_->scope_starts.size());
}

void Solver::add(Term assertion) {
  const z3::expr& e = impl_->cx.get(assertion, Sort::Bool, "Solver::add");
  impl_->forget();
  impl_->before(assertion);
  z3_guard([&] { impl_->z.add(e); }, &impl_->cx.poisoned);
  impl_->assertions.push_back(assertion);
}

void Solver::push() {
  impl_->forget();
  z3_guard([&] { impl_->z.push(); }, &impl_->cx.poisoned);
  impl_->scope_starts.push_back(impl_->assertions.size());
}

void Solver::pop() {
  if (impl_->scope_starts.empty()) misuse(fmt::format("query '{}': pop without push", impl_->name));
  impl_->forget();
  z3_guard([&] { impl_->z.pop(); }, &impl_->cx.poisoned);
  impl_->assertions.resize(impl_->scope_starts.back());
  impl_->scope_starts.pop_back();
}

CheckResult Solver::check(std::span<const Term> assumptions, const CheckOptions& limits) {
  Impl& s = *impl_;
  for (Term a : assumptions) s.cx.get(a, Sort::Bool, "check assumption");
  s.forget();
  for (Term a : assumptions) s.before(a);
  s.assumptions.assign(assumptions.begin(), assumptions.end());
  s.timeout = limits.timeout_ms.value_or(s.cx.options.timeout_ms);
  s.rlimit = limits.rlimit.value_or(s.cx.options.rlimit);
  CheckResult res;
  z3_guard(
      [&] {
        auto t0 = Clock::now();
        res = s.run(assumptions);
        res.elapsed_ms = ms_since(t0);
      },
      &s.cx.poisoned);
  s.last = res.status;
  Stats& st = s.cx.stats;
  ++st.checks;
  st.solver_ms += res.elapsed_ms;
  ++(res.status == Status::Sat ? st.sat : res.status == Status::Unsat ? st.unsat : st.unknown);
  if (s.cx.options.dump_dir) z3_guard([&] { s.dump(res); }, &s.cx.poisoned);
  return res;
}

int64_t Solver::int_value(Term t) {
  const z3::expr& e = impl_->cx.get(t, Sort::Int, "int_value");
  return z3_guard(
      [&] {
        z3::expr v = impl_->the_model().eval(e, true);
        int64_t out = 0;
        if (!v.is_numeral() || !v.is_numeral_i64(out)) {
          throw Error(fmt::format("solver: value {} of {} is not an int64_t", v.to_string(),
                                  e.to_string()));
        }
        return out;
      },
      &impl_->cx.poisoned);
}

bool Solver::bool_value(Term t) {
  const z3::expr& e = impl_->cx.get(t, Sort::Bool, "bool_value");
  return z3_guard(
      [&] {
        z3::expr v = impl_->the_model().eval(e, true);
        if (!v.is_true() && !v.is_false()) {
          throw Error(
              fmt::format("solver: value {} of {} is not a Boolean", v.to_string(), e.to_string()));
        }
        return v.is_true();
      },
      &impl_->cx.poisoned);
}

std::vector<Term> Solver::unsat_core() {
  Impl& s = *impl_;
  if (s.last != Status::Unsat)
    misuse(fmt::format("query '{}': unsat_core without an unsat check", s.name));
  if (!s.core) s.core = z3_guard([&] { return s.compute_core(); }, &s.cx.poisoned);
  return *s.core;
}

}  // namespace syncproof::solver
