#ifndef LORGNETTE_MALLOC_COUNTER_H
#define LORGNETTE_MALLOC_COUNTER_H

#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by
/// every thread of the process since it started. Linked into the `lorgnette` executable only, where
/// `lorgnette bench` reads it before and after each frame to report allocations per frame.
uint64_t lm_allocation_count(void);

#endif
