#pragma once
// Z3 contexts kept for reuse by one sequence of questions (ContextOptions::pool).
//
// Making a Z3 4.8.12 context allocates and clears two tables of 8 MiB: about 50 ms for the first
// in a process (fresh pages), then about 1 ms while the C library keeps the freed blocks
// (util/heap.h); under AddressSanitizer, whose allocator maps every large block afresh, about
// 70 ms every time (measured December 2026: Z3_mk_context_rc in a loop). A fix search makes one
// context per engine call, so that cost was most of a search under the sanitizers (`syncproof
// barrier`: 104 contexts, 7.6 s of 7.6 s). A Context made with a pool takes an idle Z3 context from
// it and gives it back when it is destroyed, after every term of its own is released; a context
// that Z3 failed in (Context's poisoned state) or in which a limit cut a check short (the watchdog,
// Z3's timer or its resource limit: Z3 can keep the cancellation) is deleted instead.
//
// A reused Z3 context is not a fresh one: Z3 numbers new terms with the ids earlier ones freed,
// and some of its heuristics order by those numbers, so a check may find another model (another
// counterexample, another core) than it would in a fresh context; the answers' soundness is the
// same. So a pool serves one sequence of questions asked in one order on one thread (one fix
// search: crosscheck/fix_engines.cpp), whose answers then depend on that sequence alone, never
// on the timing of threads; results that a report shows as they are (a case's own verdicts and
// counterexamples) come from fresh contexts.
#include <cstddef>
#include <cstdint>
#include <memory>

namespace syncproof::solver {

namespace detail {
struct OwnedZ3;
}

class ContextPool {
 public:
  // Keeps at most `keep` idle contexts (each holds about 20 MiB); the others are deleted.
  explicit ContextPool(size_t keep = 4);
  ~ContextPool();  // deletes the idle contexts; every Context made from the pool must be gone
  ContextPool(const ContextPool&) = delete;
  ContextPool& operator=(const ContextPool&) = delete;

  size_t idle() const;      // contexts kept now
  uint64_t reused() const;  // contexts handed out again so far

 private:
  friend struct detail::OwnedZ3;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace syncproof::solver
