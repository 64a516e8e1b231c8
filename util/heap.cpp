#include "util/heap.h"

#include <cstdio>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc
#include <fstream>
#include <iterator>
#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/auxv.h>
#include <unistd.h>
#endif

namespace syncproof::util {

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

#if defined(__GLIBC__) && defined(__linux__)
// The file mapped at `address` in this process (/proc/self/maps), or "" when none is.
std::string mapped_file(unsigned long address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    // "start-end perms offset dev inode   path"
    unsigned long lo = 0, hi = 0;
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &path_at) < 2) continue;
    if (address < lo || address >= hi) continue;
    return path_at > 0 ? line.substr(static_cast<size_t>(path_at)) : "";
  }
  return "";
}
#endif

}  // namespace

void keep_large_blocks() {
#if defined(__GLIBC__)
  // 32 MiB is the largest mmap threshold glibc accepts on 64-bit targets; setting either value
  // also ends glibc's own adjustment of both, so every run behaves the same.
  ::mallopt(M_MMAP_THRESHOLD, 32 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

std::optional<std::string> huge_page_tunables(const char* tunables, const char* opt_out,
                                              const char* preload, std::string_view thp_modes) {
  if (opt_out && std::string_view(opt_out) == "0") return std::nullopt;
  if (preload && std::string_view(preload).find("vgpreload") != std::string_view::npos)
    return std::nullopt;  // valgrind's tools preload these into the program they run
  if (thp_modes.find("[madvise]") == std::string_view::npos) return std::nullopt;
  const std::string_view now = tunables ? tunables : "";
  if (now.find(kTunable) != std::string_view::npos) return std::nullopt;
  std::string out(now);
  if (!out.empty()) out += ':';
  out += kTunable;
  out += "=1";
  return out;
}

void use_huge_pages(char** argv) {
#if defined(__GLIBC__) && defined(__linux__)
  if (kSanitized || !argv || !argv[0]) return;
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string modes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const char* before = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> before_copy =
      before ? std::optional<std::string>(before) : std::nullopt;
  const std::optional<std::string> tunables = huge_page_tunables(
      before, std::getenv("SYNCPROOF_HUGE_PAGES"), std::getenv("LD_PRELOAD"), modes);
  if (!tunables) return;
  // The file's own path, not /proc/self/exe: the process takes its name from it (ps, top).
  std::string self(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size());
  if (n <= 0 || static_cast<size_t>(n) >= self.size()) return;
  self.resize(static_cast<size_t>(n));
  // Only when that file is the program: started through the dynamic loader
  // (`ld-linux-x86-64.so.2 syncproof ...`), /proc/self/exe is the loader, which would take the
  // first argument for the program to run.
  if (mapped_file(::getauxval(AT_ENTRY)) != self) return;
  if (::setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  ::execv(self.c_str(), argv);
  // Still here: the exec failed; go on with the environment as it was.
  if (before_copy)
    ::setenv("GLIBC_TUNABLES", before_copy->c_str(), 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

}  // namespace syncproof::util
