#include "solver/z3_calls.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "solver/address_space.h"

namespace syncproof::solver::detail {

z3::solver new_solver(z3::context& c) {
  Z3_solver s = Z3_mk_simple_solver(c);
  if (!s) throw std::bad_alloc();
  return z3::solver(c, s);
}

void set_uint_params(z3::context& c, z3::solver& s,
                     std::initializer_list<std::pair<const char*, unsigned>> values) {
  Z3_params p = Z3_mk_params(c);
  if (!p) throw std::bad_alloc();
  Z3_params_inc_ref(c, p);
  for (const auto& [key, value] : values)
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, key), value);
  Z3_solver_set_params(c, s, p);
  Z3_params_dec_ref(c, p);
  c.check_error();
}

z3::expr z3_nary(z3::context& c, Z3_ast (*mk)(Z3_context, unsigned, const Z3_ast[]),
                 const std::vector<z3::expr>& args) {
  std::vector<Z3_ast> raw(args.begin(), args.end());
  Z3_ast r = mk(c, static_cast<unsigned>(raw.size()), raw.data());
  c.check_error();
  return z3::expr(c, r);
}

namespace {

// A Z3 4.8.12 context takes about 17 MiB of address space (VmSize before and after
// Z3_mk_context_rc, measured December 2026), and its watchdog thread 8 MiB of stack. When an
// allocation fails inside Z3_mk_context_rc it crashes (SIGSEGV, found by sweeping --max-memory
// over cases/frames) instead of answering NULL. So under an address-space limit a context is
// made only with this much room left, checked and made under one lock so that two workers cannot
// both take the same room.
constexpr uint64_t kContextRoom = uint64_t{40} << 20;

}  // namespace

}  // namespace syncproof::solver::detail

namespace syncproof::solver {

struct ContextPool::Impl {
  size_t keep;
  mutable std::mutex mu;
  std::vector<Z3_context> idle;
  uint64_t reused = 0;
};

ContextPool::ContextPool(size_t keep) : impl_(std::make_unique<Impl>()) {
  impl_->keep = keep;
}
ContextPool::~ContextPool() {
  for (Z3_context c : impl_->idle) Z3_del_context(c);
}
size_t ContextPool::idle() const {
  std::lock_guard lock(impl_->mu);
  return impl_->idle.size();
}
uint64_t ContextPool::reused() const {
  std::lock_guard lock(impl_->mu);
  return impl_->reused;
}

}  // namespace syncproof::solver

namespace syncproof::solver::detail {

OwnedZ3::OwnedZ3(ContextPool* p) : pool(p), raw(nullptr) {
  if (pool) {
    ContextPool::Impl& in = *pool->impl_;
    std::lock_guard lock(in.mu);
    if (!in.idle.empty()) {
      raw = in.idle.back();
      in.idle.pop_back();
      ++in.reused;
      return;
    }
  }
  static std::mutex making;  // the address space is the process's: one lock for all contexts
  std::lock_guard lock(making);
  if (auto room = address_space_room(); room && *room < kContextRoom) throw std::bad_alloc();
  Z3_config cfg = Z3_mk_config();
  if (!cfg) throw std::bad_alloc();
  raw = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  if (!raw) throw std::bad_alloc();
}

OwnedZ3::~OwnedZ3() {
  if (pool && reusable) {
    ContextPool::Impl& in = *pool->impl_;
    std::lock_guard lock(in.mu);
    if (in.idle.size() < in.keep) {
      in.idle.push_back(raw);
      return;
    }
  }
  Z3_del_context(raw);
}

}  // namespace syncproof::solver::detail
