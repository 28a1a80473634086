// Counts heap allocations by interposing the C allocator's entry points in the executable (the
// dynamic linker resolves malloc to the executable's definition before libc's) and forwarding to
// glibc's own implementations (__libc_*), so blocks stay glibc blocks: free, malloc_usable_size and
// the aligned variants keep working on them. One relaxed atomic add per call is the whole cost.
// glibc removed __malloc_hook in 2.34 and mallinfo2() reports bytes, not calls, hence this.
#include "malloc_counter.h"

#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

static _Atomic uint64_t lm_count;

static inline void lm_tick(void) { atomic_fetch_add_explicit(&lm_count, 1, memory_order_relaxed); }

uint64_t lm_allocation_count(void) { return atomic_load_explicit(&lm_count, memory_order_relaxed); }

void *malloc(size_t size) { lm_tick(); return __libc_malloc(size); }

void *calloc(size_t count, size_t size) { lm_tick(); return __libc_calloc(count, size); }

void *realloc(void *pointer, size_t size) { lm_tick(); return __libc_realloc(pointer, size); }

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) { lm_tick(); return __libc_memalign(alignment, size); }

void *aligned_alloc(size_t alignment, size_t size) { lm_tick(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    lm_tick();
    void *p = __libc_memalign(alignment, size);
    if (!p && size != 0) return ENOMEM;
    *result = p;
    return 0;
}
