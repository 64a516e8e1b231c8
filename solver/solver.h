#pragma once
// An incremental solver for one named query (e.g. "visible/produce->consume/line"), built on a
// Context. Meant for many push/add/check/pop rounds on one object: the Z3 solver is created
// once and reused. Models and cores describe the last check and are discarded by the next
// add/push/pop/check.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "solver/context.h"
#include "solver/term.h"

namespace syncproof::solver {

enum class Status : uint8_t { Sat, Unsat, Unknown };
std::string_view to_string(Status s);

// Why a check came back Unknown.
enum class Limit : uint8_t {
  None,      // Sat/Unsat, or Z3 gave up for a reason of its own (see CheckResult::reason)
  Timeout,   // the wall-clock budget ran out (Z3's timer or the watchdog)
  Resource,  // the resource limit (rlimit) ran out: the same on every machine
};

// Limits of one check; unset fields take the Context's defaults (ContextOptions).
struct CheckOptions {
  std::optional<unsigned> timeout_ms;  // wall-clock budget, 0 = none
  std::optional<unsigned> rlimit;      // resource limit, 0 = none
};

struct CheckResult {
  Status status = Status::Unknown;
  // Unknown only: "timeout after 20000 ms", "resource limit exhausted (rlimit 5000000)", or
  // Z3's reason_unknown ("(incomplete (theory difference-logic))", ...).
  std::string reason;
  Limit limit = Limit::None;
  double elapsed_ms = 0;
  uint64_t rlimit_used = 0;  // Z3 resource units this check used
};

class Solver {
 public:
  Solver(Context& context, std::string query_name);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  const std::string& query_name() const;
  // Names the questions that follow (one incremental solver asks many: one per obligation).
  void set_query_name(std::string name);

  void add(Term assertion);  // Bool
  void push();
  void pop();  // logic_error without a matching push
  unsigned scopes() const;

  // Checks the assertions of every pushed level under the Bool assumptions, within the limits
  // (the Context's defaults where `limits` leaves them unset). With a dump directory, writes the
  // query as SMT-LIB (see Context) before returning.
  CheckResult check(std::span<const Term> assumptions, const CheckOptions& limits);
  CheckResult check(std::span<const Term> assumptions = {}) {
    return check(assumptions, CheckOptions{});
  }
  // The same, overriding only the timeout (0 = none).
  CheckResult check(std::span<const Term> assumptions, std::optional<unsigned> timeout_ms) {
    return check(assumptions, CheckOptions{.timeout_ms = timeout_ms, .rlimit = {}});
  }

  // After Sat: the model's value (model completion: unconstrained terms get some value).
  int64_t int_value(Term t);
  bool bool_value(Term t);

  // After Unsat: the assumptions (as passed to check) that Z3's core contains, in their
  // original order; minimized if ContextOptions::minimize_core. Empty: the assertions alone
  // are unsatisfiable.
  std::vector<Term> unsat_core();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace syncproof::solver
