#ifndef PLAYHEAD_MALLOC_COUNTER_H
#define PLAYHEAD_MALLOC_COUNTER_H

#include <stdint.h>

/// Whether this process's heap allocations are being counted. True on Linux
/// with glibc, where the benchmark executable interposes `malloc` and friends.
int playhead_bench_counting_allocations(void);

/// The number of heap allocation calls (malloc, calloc, realloc, posix_memalign,
/// aligned_alloc, memalign) made by the whole process so far, from any thread.
/// Always 0 where allocations are not counted.
uint64_t playhead_bench_allocations(void);

#endif
