// Counts heap allocation calls for the benchmark, so that "allocations per
// event" is measured rather than assumed.
//
// Linked statically into the `player-bench` executable only. On Linux with
// glibc, a `malloc` defined in the executable interposes the C library's for
// every shared library too (the Swift runtime's swift_slowAlloc included), and
// glibc exports its real allocator as `__libc_malloc` and friends, so the
// wrappers need no dlsym and no bootstrap buffer. Elsewhere nothing is
// interposed and the counter reports that it is off.

#include "MallocCounter.h"

// Sanitizers interpose malloc themselves; wrappers that bypass them to
// __libc_malloc would crash the process, so under a sanitizer nothing is
// counted (and the benchmark prints n/a).
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) \
  || __has_feature(memory_sanitizer)
#define PLAYHEAD_UNDER_SANITIZER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(PLAYHEAD_UNDER_SANITIZER)

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic uint64_t allocation_calls;

static inline void count_allocation(void) {
  atomic_fetch_add_explicit(&allocation_calls, 1, memory_order_relaxed);
}

int playhead_bench_counting_allocations(void) { return 1; }

uint64_t playhead_bench_allocations(void) {
  return atomic_load_explicit(&allocation_calls, memory_order_relaxed);
}

void *malloc(size_t size) {
  count_allocation();
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  count_allocation();
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  count_allocation();
  return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
  count_allocation();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count_allocation();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  // The checks posix_memalign makes and memalign does not: a power of two
  // that is a multiple of sizeof(void *).
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  count_allocation();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  *result = pointer;
  return 0;
}

#else

int playhead_bench_counting_allocations(void) { return 0; }

uint64_t playhead_bench_allocations(void) { return 0; }

#endif
