#include "tools/memory_limit.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "lang/source_file.h"

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

namespace {

// What the fault handler needs, set before the limit and read only in the handler (a signal
// handler can reach nothing else): the limit, and the report it prints.
struct FaultReport {
  uint64_t limit = 0, page = 4096;
  char text[320] = {};
  size_t size = 0;
};
FaultReport fault_report;  // NOLINT: a signal handler's state is the process's

// The address space the process maps now, read the async-signal-safe way (open/read, no
// allocation); 0 when unknown.
uint64_t mapped_now() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[64];
  const ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  uint64_t pages = 0;
  for (ssize_t i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; ++i)
    pages = pages * 10 + static_cast<uint64_t>(buf[i] - '0');
  return pages * fault_report.page;  // sysconf is not async-signal-safe: read at install time
}

// A fault when the address space has run out is the memory limit's doing, not a bug of ours: Z3
// 4.8.12 dereferences an allocation that failed in places (Z3_mk_context_rc among them), and a
// thread's stack cannot grow past RLIMIT_AS. That fault is reported as the out-of-memory error it
// is (exit 70) instead of a crash. Any other fault keeps its default action (a core dump).
// Within this much of the limit the address space counts as run out: above the 40 MiB a Z3
// context is made with (solver/z3_calls.cpp), so a context that failed there is covered.
constexpr uint64_t kExhausted = uint64_t{48} << 20;

void on_fault(int sig) {
  const uint64_t used = mapped_now();
  if (used != 0 && used + kExhausted >= fault_report.limit) {
    [[maybe_unused]] ssize_t w = ::write(STDERR_FILENO, fault_report.text, fault_report.size);
    ::_exit(70);  // Exit::Internal
  }
  std::signal(sig, SIG_DFL);  // returning re-runs the faulting instruction: the default action
}

// The report is written on a stack of its own, since the fault may be the stack failing to grow.
void install_fault_report(uint64_t limit) {
  static constexpr size_t kAltStack = 64 << 10;
  void* alt =
      ::mmap(nullptr, kAltStack, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (alt == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = alt;
  ss.ss_size = kAltStack;
  if (::sigaltstack(&ss, nullptr) != 0) return;
  fault_report.limit = limit;
  if (const long page = ::sysconf(_SC_PAGESIZE); page > 0)
    fault_report.page = static_cast<uint64_t>(page);
  const std::string text = fmt::format(
      "syncproof: internal error: out of memory (a fault in the solver or a stack as the address "
      "space ran out; memory limit {}, --max-memory); raise the limit if the machine has the "
      "memory (0: no limit)\n",
      lang::format_size(limit));
  fault_report.size = std::min(text.size(), sizeof fault_report.text);
  std::memcpy(fault_report.text, text.data(), fault_report.size);
  struct sigaction sa {};
  sa.sa_handler = on_fault;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, nullptr);
  ::sigaction(SIGBUS, &sa, nullptr);
}

// Maps the main thread's stack this deep now, while the address space has room: a stack grows
// by page faults, and under RLIMIT_AS a growth the heap has left no room for is a SIGSEGV.
[[gnu::noinline]] char reserve_main_stack() {
  constexpr size_t kDepth = 512 << 10, kPage = 4096;
  volatile char frame[kDepth];
  for (size_t i = 0; i < kDepth; i += kPage) frame[i] = 0;
  return frame[0];  // read back, so that no compiler drops the frame
}

}  // namespace

std::string apply_memory_limit(uint64_t bytes) {
  if (!memory_limit_enforced() || bytes == 0) return {};  // 0: leave the limit as it is
  struct rlimit lim {};
  if (::getrlimit(RLIMIT_AS, &lim) != 0) return std::strerror(errno);
  // Never raise a limit the caller's environment set lower (ulimit -v).
  lim.rlim_cur = std::min(static_cast<rlim_t>(bytes), lim.rlim_cur);
  // One malloc arena for all threads. glibc gives each new thread an arena at its first
  // allocation and reserves 64 MiB of address space for it (HEAP_MAX_SIZE), which counts
  // against RLIMIT_AS: a worker starting while another made a Z3 context took the context's room
  // between its check (solver/z3_calls.cpp) and its allocations, and Z3 crashed (SIGSEGV in
  // Z3_mk_context_rc, 2 runs in 300 of bench/memory_stress.sh at 160 MiB, December 2026). One
  // arena costs nothing measurable at two workers (`check --jobs 2 cases`: the same CPU time).
  ::mallopt(M_ARENA_MAX, 1);
  static_cast<void>(reserve_main_stack());
  install_fault_report(lim.rlim_cur);
  if (::setrlimit(RLIMIT_AS, &lim) != 0) return std::strerror(errno);
  return {};
}

}  // namespace syncproof::cli
