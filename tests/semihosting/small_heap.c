/* A heap that gives no block above SMALL_HEAP_MAX bytes (the link wraps malloc and calloc,
 * which GCC makes of the package's malloc and memset to 0, tests/tests.mk): the autostart firmware on it cannot fit its profile on any board, and
 * the test reads what the console says about it (the figures: the profile's size, the
 * largest block, SMALL_HEAP_MAX; and what to change). newlib's stdio then writes
 * unbuffered (its 1 KiB buffer is refused), which changes nothing on the console. */
#include <stddef.h>

#define SMALL_HEAP_MAX 256

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    return size > SMALL_HEAP_MAX ? NULL : __real_malloc(size);
}

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
    return size && n > SMALL_HEAP_MAX / size ? NULL : __real_calloc(n, size);
}
