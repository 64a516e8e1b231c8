#pragma once
// --max-memory: the address space the process may use (setrlimit RLIMIT_AS), so that a case the
// engines cannot handle ends in std::bad_alloc, caught and reported with the case's size, rather
// than in the kernel's out-of-memory killer. Not enforced in AddressSanitizer builds (ASan
// reserves terabytes of address space; ASAN_OPTIONS=soft_rss_limit_mb=N:allocator_may_return_null=1
// does the same there).
#include <cstdint>
#include <string>
#include <system_error>

namespace syncproof::cli {

// Three quarters of the physical memory (0 if unknown).
uint64_t default_memory_limit();

// Sets the limit (0: none); returns an error message, empty on success.
std::string apply_memory_limit(uint64_t bytes);

// Whether apply_memory_limit has an effect in this build.
bool memory_limit_enforced();

// A thread (the batch's workers, the solver's watchdog) could not start for want of memory or
// address space: under --max-memory the same event as std::bad_alloc.
inline bool out_of_resources(const std::system_error& e) {
  return e.code() == std::errc::resource_unavailable_try_again ||
         e.code() == std::errc::not_enough_memory;
}

}  // namespace syncproof::cli
