#pragma once
// The C library's allocator set up for a process that makes many Z3 contexts and large graphs
// (call both, first thing in main: the syncproof tool, the test and benchmark programs).
#include <optional>
#include <string>
#include <string_view>

namespace syncproof::util {

// Making a Z3 4.8.12 context allocates and clears two tables of 8 MiB, freed with the context.
// glibc serves blocks that large with mmap, and raises that threshold only after the first such
// free, and gives the top of the heap back to the kernel once more than twice the threshold is
// free there, which a context's deletion always makes true: so each new context faulted in
// 17 MiB of fresh pages again (measured December 2026, on this project's 2-core VM: about 50 ms
// a context, a third of the time of the tests that ask many small questions; about 1 ms with the
// blocks kept, as below). Blocks under 32 MiB now come from the heap, and the heap keeps up to
// 64 MiB of free memory at its top for the next context. Peak memory is unchanged; what a process
// holds between two contexts is up to 64 MiB more. A no-op elsewhere than glibc (and under
// AddressSanitizer, whose allocator ignores these settings).
void keep_large_blocks();

// The engines walk graphs of hundreds of thousands of events spread over hundreds of megabytes,
// and 4 KiB pages make that a walk through the TLB and a page fault per 4 KiB first touched.
// Where the kernel gives transparent huge pages only to memory a program asks them for (THP mode
// "madvise", Debian's default), glibc asks for them for its heap when its tunable
// glibc.malloc.hugetlb is 1, and reads its tunables only when a program starts. So this
// re-executes the program (the file /proc/self/exe names, the same arguments) once with that
// tunable added to GLIBC_TUNABLES. Measured December 2026 on the 2-core VM, medians of alternating
// runs: a 50,000-command frame's SMT check -15% wall time, a 10,000-command one-bug frame -17%, the
// library -13%, the executor on 20,000 commands -7%; peak memory +1..4%. It does nothing when the
// tunable is set already (by an earlier exec, or by the user, whose value stands), under
// SYNCPROOF_HUGE_PAGES=0, under valgrind (an exec would leave it), when started through the
// dynamic loader (/proc/self/exe is the loader then), under AddressSanitizer, where
// the kernel's mode is not "madvise", or where the exec fails (the program goes on as it is).
// Call it before anything else in main: nothing read or written before it is kept.
// perf record --call-graph dwarf loses the call stacks of a process that exec'd itself: profile
// with GLIBC_TUNABLES=glibc.malloc.hugetlb=1 set (the same heap, no exec).
void use_huge_pages(char** argv);

// The GLIBC_TUNABLES value use_huge_pages execs with, given the variable's value now (null:
// unset), SYNCPROOF_HUGE_PAGES's, LD_PRELOAD's and the contents of
// /sys/kernel/mm/transparent_hugepage/enabled (the mode in brackets); nullopt: no exec.
std::optional<std::string> huge_page_tunables(const char* tunables, const char* opt_out,
                                              const char* preload, std::string_view thp_modes);

}  // namespace syncproof::util
