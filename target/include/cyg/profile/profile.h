/*
 * Public API of the gprof profiling package (eCos CYGPKG_PROFILE_GPROF compatible).
 *
 *   #include <pkgconf/system.h>
 *   #ifdef CYGPKG_PROFILE_GPROF
 *   # include <cyg/profile/profile.h>
 *   #endif
 *   extern char _stext[], _etext[];
 *   profile_on(_stext, _etext, 16, 3500);
 */
#ifndef CYGONCE_PROFILE_PROFILE_H
#define CYGONCE_PROFILE_PROFILE_H

#include <stdint.h>
#include <cyg/profile/hal.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Start profiling the code in [start, end).
 *
 * @param start        first address profiled (usually _stext)
 * @param end          one past the last address profiled (usually _etext)
 * @param bucket_size  bytes of code per histogram bucket; rounded up to a power of 2, at
 *                     least 2 (gprof's unit)
 * @param interval_us  requested time between samples; the HAL may adjust it, and the
 *                     interval it actually uses is what gmon.out's prof_rate reports
 *
 * A second call discards all data and sets up the new range. On error profiling is left
 * off (any earlier profiling is stopped and its memory released).
 *
 * @retval 0        profiling is on
 * @retval -EINVAL  start >= end, bucket_size <= 0, interval_us <= 0, a range too large
 *                  for 32-bit bucket and slot counts, or an interval (as the HAL can do it)
 *                  whose rate gmon.out's whole samples per second cannot express within 1%
 *                  (over 1010000 us; or e.g. 300000 us, 3.33 Hz; 100000 us, 10 Hz, is fine)
 * @retval -ENOMEM  the histogram or call-graph tables could not be allocated, or they or
 *                  their gmon.out would take 4 GiB or more (sizes are computed so that
 *                  nothing can wrap)
 * @retval -EIO     the HAL could not start the profile timer
 * @retval -EPERM   called from an interrupt handler (see profile_off): nothing was changed
 */
int profile_on(void *start, void *end, int bucket_size, int interval_us);

/** A range of code addresses, [start, end), for profile_on_ranges(). */
struct profile_range {
    void *start;
    void *end;
};

/**
 * Start profiling the code in several ranges at once: samples whose PC lies in any of them
 * go to its histogram, calls from a call site in any of them are recorded (the callee may
 * lie anywhere, as with profile_on), and gmon.out holds one histogram record per range, in
 * address order. For code that is not one run of addresses: e.g. flash and the code the
 * startup copies to RAM, { { _stext, _etext }, { _sramfunc, _eramfunc } }.
 * profile_on(start, end, ...) is profile_on_ranges() with the one range { start, end }.
 *
 * @param ranges       the ranges, in any order; each is admitted up to its end rounded up
 *                     to the bucket, and no two may overlap after that rounding
 * @param nranges      how many: 1 to CYGNUM_PROFILE_MAX_RANGES
 * @param bucket_size  as profile_on(), for every range
 * @param interval_us  as profile_on()
 *
 * The arc table is sized by the ranges' total size (CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE).
 * The largest range's samples take the fast path. A second call, or profile_on(), discards
 * all data; on error profiling is left off.
 *
 * @retval 0        profiling is on
 * @retval -EINVAL  ranges is NULL; nranges < 1 or > CYGNUM_PROFILE_MAX_RANGES; a range with
 *                  start >= end; two ranges that overlap (after rounding up to the bucket);
 *                  on a 64-bit target, several ranges not all in one 4 GiB window (the arc
 *                  table keeps addresses modulo 2^32); or as profile_on() for a range, the
 *                  bucket size or the interval (counts that do not fit 32 bits, a range
 *                  whose histogram would end past the top of the address space)
 * @retval -ENOMEM  as profile_on(), for all the ranges' tables together
 * @retval -EIO     the HAL could not start the profile timer
 * @retval -EPERM   called from an interrupt handler: nothing was changed
 */
int profile_on_ranges(const struct profile_range *ranges, int nranges, int bucket_size,
                      int interval_us);

/**
 * Stop profiling, stop the timer, release the memory and reset all data.
 *
 * profile_on() and profile_off() allocate and free memory that the package's other paths
 * may be using: call them from thread context (main, an RTOS thread; under lwIP with an
 * RTOS, with the TCP/IP core locked, see doc/tftp.md), never from an interrupt handler.
 *
 * @retval 0       profiling is off (also if it was already)
 * @retval -EPERM  called from an interrupt handler: nothing was changed (also profile_on)
 */
int profile_off(void);

/** Loss and activity counters since the last reset. */
struct profile_stats {
    uint32_t samples;            /**< timer samples taken, in range or not: in a bin,
                                      outside the range, profiler overhead, or refused
                                      by a full bin */
    uint32_t samples_out_of_range; /**< samples whose PC lay outside [start, end) (outside
                                      every range of profile_on_ranges) */
    uint32_t buckets_saturated;  /**< buckets stuck at the bin's maximum (255, or 65535 with
                                      CYGNUM_PROFILE_HIST_BIN_BYTES 2): no overflow entry was free
                                      (CYGNUM_PROFILE_HIST_OVERFLOW_BUCKETS), or at
                                      2^32-1; they refuse further samples */
    uint32_t arcs;               /**< distinct arcs recorded */
    uint32_t arcs_capacity;      /**< arc records available */
    uint32_t arcs_dropped;       /**< calls not counted because the arc table was full */
    uint32_t arcs_out_of_range;  /**< calls not counted: call site outside [start, end)
                                      (outside every range) */
    uint32_t bytes_allocated;    /**< memory profile_on took for histogram and arcs */
    uint32_t samples_total;      /**< every sample since profile_on, across resets and
                                      extractions (wraps at 2^32) */
    uint32_t samples_overhead;   /**< samples whose PC was in the profiler's own code
                                      (mcount, its stub, ...): counted in samples, never
                                      in a bin, so that the histogram is the user's code */
};

/**
 * Read the counters.
 * @retval 0        *stats filled in
 * @retval -ENODATA profiling is off
 */
int profile_get_stats(struct profile_stats *stats);

/** Discard the data collected so far; profiling goes on. Safe in any context. */
void profile_reset(void);

/**
 * Write the profiling data collected so far as a gmon.out file, through the C library's
 * file I/O (open/write/close): on QEMU (run-qemu) and through a debug probe with
 * semihosting on, a file on the host, relative to its current directory. What was written
 * is reset, as gdb's gprof_dump does; samples and calls that arrive while it writes stay
 * for the next file, and a write that fails keeps everything (nothing is lost or counted
 * twice). The file goes out in requests of up to 16 KiB (fewer halts through a probe).
 * Beside it go its companions, of the same data: the task table (NAME.out: NAME.tasks;
 * another name: .tasks appended) and, in the stack-profiling mode, NAME.stacks.
 *
 * Without a spare set (a configuration without TFTP) it borrows one for the write: the
 * heap must have room for one more set of profile_on()'s tables (profile_get_stats'
 * bytes_allocated) until it returns, and it takes a buffer of up to 16 KiB (less, down to
 * 128 bytes on the stack, if the heap is short). Call it from thread context (main, an RTOS thread,
 * an atexit handler), never from an interrupt handler.
 *
 * @param path  the file's name, e.g. "gmon.out"
 * @retval 0           the file holds the data; the counts start again
 * @retval -ENODATA    profiling is off
 * @retval -EPERM      called from an interrupt handler: nothing was changed
 * @retval -EBUSY      another profile_write() or a TFTP transfer is under way: nothing
 *                     was changed
 * @retval -ENOMEM     no room on the heap for the spare set: nothing was changed
 * @retval -EINVAL     path is NULL
 * @retval -ENAMETOOLONG  path has PATH_MAX characters or more (4096 where the C library
 *                     does not define it), or a name in it of more than 255 (with
 *                     ".tasks" added, in the stack-profiling mode ".stacks", for the
 *                     companions): nothing was changed
 * @retval -ECANCELED  profile_on() or profile_off() (another thread) ended the data
 *                     while it was being written
 * @retval other       the C library's error from open(), write() or close() (-ENOENT,
 *                     -EACCES, -ENOSPC, -EIO, ...): the data is kept for the next write
 */
int profile_write(const char *path);

/**
 * The running task is now the one with this id (e.g. its TCB's address), named name. An
 * RTOS calls it from its switch hook (FreeRTOS: traceTASK_SWITCHED_IN; Zephyr: the
 * thread-switched-in tracing hook). Every timer sample is counted for the task running
 * when it was taken (a sample in an interrupt handler for the task it interrupted), in
 * every mode; the table goes out as gmon.tasks beside gmon.out (doc/format.md). In the
 * stack-profiling mode it also selects the task's shadow stack, whose tree hangs from a
 * context node of this id; without it every task shares one, and the frames a switch
 * leaves behind are repaired by the stack pointer, less exactly.
 *
 * Any context, interrupt handlers included; profiling on or off (the table outlives
 * profile_off). Id 0 is the context the firmware started on, named "main".
 *
 * @param id    the task; the same id is the same task (its slot and its shadow stack)
 * @param name  its name, kept by pointer (the string must live as long as the task), or
 *              NULL: no name (a name given before is kept)
 * @retval 0        switched (the task had a slot, or got one)
 * @retval -ENOMEM  more tasks than CYGNUM_PROFILE_TASKS: its samples are counted under
 *                  "(other tasks)", the call in gmon.tasks' tasks_unregistered. (In the
 *                  stack-profiling mode, more threads than CYGNUM_PROFILE_STACKS_THREADS
 *                  share the first thread's shadow stack: counted in gmon.stacks.)
 */
int profile_task_switch(uintptr_t id, const char *name);

/**
 * The task with this id ended. An RTOS calls it from its task-delete hook, before it frees
 * the task (FreeRTOS: traceTASK_DELETE, which the kit defines). The task's row in gmon.tasks
 * keeps its samples and a copy of its name (CYGNUM_PROFILE_TASK_NAME_BYTES), and takes an id
 * no task has (0xFF...FE, then 0xFF...FD, ...): a task made later at the same address, as
 * an RTOS reuses a freed TCB, gets a row of its own, and the old name is not read from freed
 * memory. In the stack-profiling mode its context in gmon.stacks takes the same id.
 * An ended task keeps its slot: CYGNUM_PROFILE_TASKS counts every task a run makes.
 *
 * Any context; profiling on or off.
 *
 * @param id    the task, as profile_task_switch() was given it
 * @retval 0        ended (samples taken until the next switch still count for it)
 * @retval -ENOENT  no task of this id has a slot (it never ran, or found none)
 */
int profile_task_end(uintptr_t id);

/**
 * Deprecated: profile_task_switch(id, NULL).
 * @retval 0, -ENOMEM  as profile_task_switch()
 */
int profile_stack_switch(uintptr_t id);

#ifdef __cplusplus
}
#endif
#endif
