// Bytes in use on the C heap, for the benchmark's memory figures: what a
// burst of queued events or a slow subscriber's buffer holds, measured
// rather than assumed. Swift's Glibc module does not export <malloc.h>, so
// the call lives here.

#include "MallocCounter.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) \
  || __has_feature(memory_sanitizer)
#define PLAYHEAD_HEAP_UNDER_SANITIZER 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(PLAYHEAD_HEAP_UNDER_SANITIZER) \
  && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))

#include <malloc.h>

int64_t playhead_bench_heap_in_use(void) {
  // mallinfo2 sums every arena (threads allocate from their own): uordblks
  // is in-use bytes inside the arenas, hblkhd the large blocks glibc
  // mmapped on their own.
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
}

int playhead_bench_heap_trim(void) {
  malloc_trim(0);
  return 1;
}

#else

int64_t playhead_bench_heap_in_use(void) { return -1; }

int playhead_bench_heap_trim(void) { return 0; }

#endif
