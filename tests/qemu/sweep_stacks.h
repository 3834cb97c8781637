/* The stack-profiling mode's halting sweep (tests/qemu/test_sweep_stacks.py): what its two
 * files share, beside the plain sweep's sweep.h (transfers of gmon.out, resets, the
 * sample count), which it uses as it is. */
#ifndef TESTS_QEMU_SWEEP_STACKS_H
#define TESTS_QEMU_SWEEP_STACKS_H

#include <stdint.h>

#define SSWEEP_ROUNDS     40   /* rounds of work, a transfer and restarts */
#define SSWEEP_RESTARTS    6   /* restarts per round (profile_reset, profile_on_ranges,
                                  profile_on, profile_off then profile_on_ranges): the
                                  compaction is one masked section of ~200 instructions,
                                  and a halt in it runs the target to its end, so each
                                  instruction needs a pass of its own */
#define SSWEEP_TAKES       4   /* extra snapshots per round, abandoned at once: the freeze
                                  and thaw sections need a pass per instruction too */
#define SSWEEP_THREADS    64   /* thread ids switched to, two a round
                                  (CYGNUM_PROFILE_STACKS_THREADS and CYGNUM_PROFILE_TASKS,
                                  tests/tests.mk): a new id's path in profile_task_switch,
                                  in a masked section, runs once per id */
#define SSWEEP_WORK        4   /* top() and mid() calls per round */
#define SSWEEP_SPIN      100   /* value() calls in a loop per round: samples just after an
                                  exit hook (its epilogue window) */
#define SSWEEP_FUNCS      16   /* functions the tallies tell apart */

/* The calls and samples of calling-context trees, added up by function (self_pc). */
struct ssweep_tally {
    uintptr_t fn[SSWEEP_FUNCS];
    uint32_t calls[SSWEEP_FUNCS];
    uint32_t samples;          /* every node's */
    uint32_t overhead;         /* the header's (in no node) */
    uint32_t trees;
    uint32_t mismatched;       /* trees whose samples + overhead were not their gmon.out's */
};

/* sweep_stacks_support.c (no -pg): one gmon.out transfer as the TFTP daemon makes it
 * (sweep.h's sweep_transfer), delivered (PROFILE_SNAPSHOT_DELIVERED_GMON) or abandoned;
 * a delivered one is followed by a transfer of the kept gmon.stacks through
 * profile_stack_kept_read, between() after each block, its tree added to
 * ssweep_delivered. */
void ssweep_transfer(int deliver, void (*between)(void));
/* sweep_stacks_support.c: a restart of kind 0..3 (profile_reset; profile_on_ranges; a
 * reset, then profile_on; a reset, then profile_off and profile_on_ranges), the live tree
 * added to ssweep_discarded first, in the same masked section as sweep.h's sweep_discard
 * counts gmon.out's. */
struct profile_range;
void ssweep_restart(int kind, const struct profile_range *ranges);
/* sweep_stacks_support.c: a snapshot taken and abandoned at once (freeze and thaw). */
void ssweep_take_abandon(void);
extern struct ssweep_tally ssweep_delivered, ssweep_discarded;
/* sweep_stacks_support.c: 1 while an abandoned snapshot is released (merged back): the
 * link wraps profile_snapshot_release. */
extern volatile uint32_t ssweep_merging;
/* sweep_stacks_support.c: where the sweep's breakpoints go in (profiling is on, nothing
 * instrumented has run yet), and the tallies printed at the end. */
void sweep_armed(void);
void ssweep_report(void);

#endif
