#include "solver/address_space.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

namespace syncproof::solver {

std::optional<uint64_t> address_space_room() {
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY) return std::nullopt;
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  const long page = ::sysconf(_SC_PAGESIZE);
  if (!(statm >> pages) || page <= 0) return std::nullopt;
  const uint64_t used = pages * static_cast<uint64_t>(page);
  return used >= lim.rlim_cur ? 0 : lim.rlim_cur - used;
}

}  // namespace syncproof::solver
