/* heap.c: the allocator set up for a short run that builds large tables. */
#ifndef TGPROF_HEAP_H
#define TGPROF_HEAP_H

/* Call first in main: before the first allocation that matters, after none that must
 * be freed to the system. */
void heap_prepare(void);

#endif
