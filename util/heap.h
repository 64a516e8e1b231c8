#pragma once
// The C library's allocator set up for a process that makes many Z3 contexts (call once, first
// thing in main: the syncproof tool, the test and benchmark programs).
//
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
namespace syncproof::util {

void keep_large_blocks();

}  // namespace syncproof::util
