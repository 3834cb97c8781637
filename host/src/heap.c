/* A run of tgprof lasts milliseconds and builds tables of megabytes (a line symbol is
 * some 200 bytes, and -l makes one per source line).  With the allocator's defaults,
 * each such table came from fresh pages, one fault per 4 KiB: on a 200 KB program's -l,
 * 2,566 faults, a quarter of the run.  So: every block comes from one heap, freed memory
 * stays in it for the next table, and the heap's first HEAP_RESERVE bytes are asked for
 * at once and advised as huge pages (where the kernel leaves that to the program), one
 * fault per 2 MiB. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "heap.h"

#define HEAP_RESERVE (64u << 20)        /* address space only: pages come when touched */
#define MMAP_THRESHOLD_MAX (32 << 20)   /* glibc's bound for M_MMAP_THRESHOLD */

void heap_prepare(void)
{
	mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX);
	mallopt(M_TRIM_THRESHOLD, INT32_MAX);
	mallopt(M_TOP_PAD, HEAP_RESERVE);
	uintptr_t lo = (uintptr_t)sbrk(0);
	/* more than the heap's top holds: the heap grows by the pad at once (volatile: a
	 * compiler may drop a malloc whose block is only freed) */
	void *volatile grow = malloc(1u << 20);
	free(grow);
	uintptr_t hi = (uintptr_t)sbrk(0);
	long page = sysconf(_SC_PAGESIZE);
	if (lo == (uintptr_t)-1 || hi == (uintptr_t)-1 || page <= 0)
		return;
	lo = (lo + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	/* (advice only: where it is refused, the run is as before) */
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
