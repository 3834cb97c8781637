/* A heap that gives no block above SMALL_HEAP_MAX bytes (the link wraps malloc and calloc,
 * which GCC makes of the package's malloc and memset to 0, tests/tests.mk): the autostart
 * firmware on it cannot fit its profile on any board, and the test reads what the console
 * says about it (the figures: the profile's size, the largest block, SMALL_HEAP_MAX; and
 * what to change). newlib's stdio then writes unbuffered (its 1 KiB buffer is refused),
 * which changes nothing on the console.
 * With SMALL_HEAP_ONE_LARGE, the first larger block is given (autostart's profile, the
 * first allocation of all) and no other: the profile fits, profile_write's borrowed copy at
 * exit does not. */
#include <stddef.h>

#define SMALL_HEAP_MAX 256

/* Owned by the wrappers: a larger block was given; calloc is under way (picolibc's calls
 * malloc, whose block the calloc wrapper has already judged). */
static int large_given, in_calloc;

static int refused(size_t size)
{
#ifdef SMALL_HEAP_ONE_LARGE
    if (size > SMALL_HEAP_MAX && !large_given) {
        large_given = 1;
        return 0;
    }
#endif
    (void)large_given;
    return size > SMALL_HEAP_MAX;
}

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size)
{
    return !in_calloc && refused(size) ? NULL : __real_malloc(size);
}

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size)
        return NULL;
    if (refused(n * size))
        return NULL;
    in_calloc = 1;
    void *p = __real_calloc(n, size);
    in_calloc = 0;
    return p;
}
