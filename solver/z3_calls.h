#pragma once
// Calls into Z3 that fail as our own exceptions, never as a crash: Z3 4.8.12 does not survive
// every failed allocation (under --max-memory or ulimit -v), and z3++ passes on some of the NULLs
// Z3 answers then. Only the solver's Z3 translation units include this (Z3 stays private to
// solver/).
#include <cxxabi.h>
#include <z3++.h>

#include <fmt/format.h>

#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "solver/context_pool.h"
#include "solver/term.h"

namespace syncproof::solver::detail {

// Z3 failures leave the solver as solver::Error, never as z3::exception.
// `poisoned`: set when Z3 let one of its own exceptions out (below), after which its context
// may not even be deleted safely.
template <class F>
auto z3_guard(F&& f, bool* poisoned = nullptr) -> decltype(f()) {
  try {
    return f();
  } catch (const z3::exception& e) {
    // Z3 reports its own allocation failures (under --max-memory) as an exception: they are the
    // same event as std::bad_alloc in our code, and the CLI reports both with the case's size.
    if (std::string_view(e.msg()).find("out of memory") != std::string_view::npos) {
      if (poisoned) *poisoned = true;  // deleting the context after this crashed inside Z3
      throw std::bad_alloc();
    }
    throw Error(fmt::format("solver: z3: {}", e.msg()));
  } catch (const std::bad_alloc&) {
    // Ours or Z3's (operator new inside Z3 is the same allocator): Z3 may be left half way
    // through a change, and deleting the context then crashed inside Z3_del_context (found by
    // sweeping --max-memory over cases/frames).
    if (poisoned) *poisoned = true;
    throw;
  } catch (const std::exception&) {
    throw;  // ours (logic_error on misuse)
  } catch (...) {
    // Some Z3 4.8.12 entry points (Z3_solver_push among them) let Z3's own C++ exceptions out
    // instead of reporting an error: out_of_memory_error when its allocator hits the limit
    // (under --max-memory), which derives from no std type. Found by the --max-memory test at
    // one limit in a few dozen; it ended the process through std::terminate. The context is
    // left as it is (its memory is not given back): deleting it crashed inside Z3.
    if (poisoned) *poisoned = true;
    const std::type_info* type = abi::__cxa_current_exception_type();
    const std::string name = type ? type->name() : "unknown";
    if (name.find("out_of_memory") != std::string::npos) throw std::bad_alloc();
    throw Error(fmt::format("solver: z3: an exception of Z3's own ({})", name));
  }
}

// z3++ wraps a new solver, parameter set or vector before it looks at Z3's error code
// (Z3_solver_inc_ref on the NULL that Z3 answers when it cannot allocate), which crashed under
// --max-memory (found by sweeping it over cases/frames). These are made through the C API and
// checked; the expression operators of z3++ check the error first and are used as they are.
z3::solver new_solver(z3::context& c);
void set_uint_params(z3::context& c, z3::solver& s,
                     std::initializer_list<std::pair<const char*, unsigned>> values);
z3::expr z3_nary(z3::context& c, Z3_ast (*mk)(Z3_context, unsigned, const Z3_ast[]),
                 const std::vector<z3::expr>& args);

// The Z3 context, made through the C API: Z3_mk_context_rc answers NULL when it cannot allocate
// (under --max-memory), and z3::context's own constructor would pass that NULL on and crash. It
// is not even asked when the address space left is too small (z3_calls.cpp). With a pool, an
// idle context of the pool is taken if there is one, and given back on destruction unless
// `reusable` was cleared (context_pool.h).
struct OwnedZ3 {
  explicit OwnedZ3(ContextPool* pool = nullptr);
  ~OwnedZ3();
  OwnedZ3(const OwnedZ3&) = delete;
  OwnedZ3& operator=(const OwnedZ3&) = delete;
  ContextPool* pool;
  Z3_context raw;
  bool reusable = true;
};

}  // namespace syncproof::solver::detail
