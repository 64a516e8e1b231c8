#include "tools/memory_limit.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__)
#define SYNCPROOF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SYNCPROOF_ASAN 1
#endif
#endif

namespace syncproof::cli {

uint64_t default_memory_limit() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<uint64_t>(pages) / 4 * 3 * static_cast<uint64_t>(page);
}

bool memory_limit_enforced() {
#ifdef SYNCPROOF_ASAN
  return false;
#else
  return true;
#endif
}

std::string apply_memory_limit(uint64_t bytes) {
  if (!memory_limit_enforced() || bytes == 0) return {};  // 0: leave the limit as it is
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_AS, &lim) != 0) return std::strerror(errno);
  // Never raise a limit the caller's environment set lower (ulimit -v).
  lim.rlim_cur = std::min(static_cast<rlim_t>(bytes), lim.rlim_cur);
  if (::setrlimit(RLIMIT_AS, &lim) != 0) return std::strerror(errno);
  return {};
}

}  // namespace syncproof::cli
