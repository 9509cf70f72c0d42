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

/// Bytes the C heap has handed out and not taken back (glibc `mallinfo2`:
/// in-use bytes of every arena plus mmapped blocks), or -1 where that is not
/// known (another C library, or a sanitizer's allocator). Heap.c.
int64_t playhead_bench_heap_in_use(void);

/// Asks the C heap to give its free memory back to the OS (glibc
/// `malloc_trim(0)`); returns 0 where that is not possible. Heap.c.
int playhead_bench_heap_trim(void);

#endif
