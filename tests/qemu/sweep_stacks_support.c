/*
 * The stack-profiling mode's halting sweep firmware, the part compiled without -pg: the
 * calling-context trees that leave the live data other than through gdb, added up by
 * function: the kept gmon.stacks of each delivered gmon.out, read as the TFTP daemon
 * serves it, and the live tree that a restart discards. (gmon.out's side, and the count
 * of every sample, are the plain sweep's: sweep_support.c.)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"   /* profile_stacks, busy: the gdb protocol */
#include "calls.h"
#include "sweep.h"
#include "sweep_stacks.h"

/* Owned here; printed by ssweep_report at the end. */
struct ssweep_tally ssweep_delivered, ssweep_discarded;
/* Owned by the wrapper below; read by gdb at every dump. */
volatile uint32_t ssweep_merging;
/* Owned by ssweep_transfer: the kept gmon.stacks as a client would receive it. */
static uint8_t image[64 + CYGNUM_PROFILE_STACKS_NODES * 20];

#define STACKS_HEADER 56u
#define NODE_BYTES    20u          /* 32-bit addresses */

__attribute__((noinline)) void sweep_armed(void)
{
    __asm__ volatile("" : : : "memory");
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void tally_calls(struct ssweep_tally *t, uintptr_t fn, uint32_t calls)
{
    if (!calls)
        return;
    int i = 0;
    while (i < SSWEEP_FUNCS && t->fn[i] && t->fn[i] != fn)
        i++;
    if (i == SSWEEP_FUNCS)
        firmware_failed("ssweep: more functions than the tally holds");
    t->fn[i] = fn;
    t->calls[i] += calls;
}

/* One tree: its samples against those of the gmon.out it goes with. */
static void tally_tree(struct ssweep_tally *t, uint32_t in_nodes, uint32_t samples,
                       uint32_t overhead)
{
    t->samples += in_nodes;
    t->overhead += overhead;
    t->trees++;
    if (in_nodes + overhead != samples)
        t->mismatched++;
}

void __real_profile_snapshot_release(struct profile_gmon_reader *r, int delivered);
void __wrap_profile_snapshot_release(struct profile_gmon_reader *r, int delivered)
{
    ssweep_merging = !delivered;
    __real_profile_snapshot_release(r, delivered);
    ssweep_merging = 0;
}

void ssweep_transfer(int deliver, void (*between)(void))
{
    uint32_t samples = sweep_delivered.samples, overhead = sweep_delivered.overhead;
    sweep_transfer(deliver ? PROFILE_SNAPSHOT_DELIVERED_GMON : PROFILE_SNAPSHOT_MERGED, between);
    if (!deliver)
        return;
    samples = sweep_delivered.samples - samples;
    overhead = sweep_delivered.overhead - overhead;
    uint32_t generation;
    size_t size = profile_stack_kept_size(&generation);
    if (size < STACKS_HEADER || size > sizeof image)
        firmware_failed("ssweep: no kept gmon.stacks after a delivered gmon.out");
    for (size_t off = 0; off < size; off += 512) {
        size_t n = size - off < 512 ? size - off : 512;
        if (profile_stack_kept_read(off, image + off, n) != n ||
            profile_stack_kept_ended(generation))
            firmware_failed("ssweep: the kept gmon.stacks changed during its transfer");
        between();
    }
    uint32_t nodes = get32(image + 20);
    if (memcmp(image, "gmst", 4) != 0 || size != STACKS_HEADER + nodes * NODE_BYTES ||
        get32(image + 24) != samples || get32(image + 28) != overhead)
        firmware_failed("ssweep: the kept gmon.stacks is not its gmon.out's");
    uint32_t in_nodes = 0;
    for (uint32_t i = 0; i < nodes; i++) {
        const uint8_t *n = image + STACKS_HEADER + i * NODE_BYTES;
        tally_calls(&ssweep_delivered, get32(n + 4), get32(n + 12));
        in_nodes += get32(n + 16);
    }
    tally_tree(&ssweep_delivered, in_nodes, samples, overhead);
}

/* The live tree, in a masked section marked busy (as sweep_discard counts gmon.out's). */
static void tally_live(struct ssweep_tally *t)
{
    const struct profile_stacks *k = &profile_stacks;
    uint32_t in_nodes = 0;
    for (uint32_t i = 0; i < k->nodes_used; i++) {
        tally_calls(t, k->nodes[i].self, k->nodes[i].calls);
        in_nodes += k->nodes[i].samples;
    }
    tally_tree(t, in_nodes, profile_state.samples, profile_state.samples_overhead);
}

void ssweep_restart(int kind, const struct profile_range *ranges)
{
    extern char _stext[], _etext[];
    hal_profile_irq_state irq = hal_profile_irq_save();
    profile_set_busy(1);
    /* (a reset gdb asked for: gdb has the live tree already, as sweep_discard says) */
    if (!profile_state.reset_pending)
        tally_live(&ssweep_discarded);
    /* After a reset nothing is left for profile_on/profile_off to discard. */
    sweep_discard(kind == 1 ? ranges : NULL);
    if (kind == 2 && profile_on(_stext, _etext, 16, SWEEP_SAMPLE_US) != 0)
        firmware_failed("ssweep: profile_on again");
    if (kind == 3 && (profile_off() != 0 ||
                      profile_on_ranges(ranges, 2, 16, SWEEP_SAMPLE_US) != 0))
        firmware_failed("ssweep: profile_off, then profile_on_ranges");
    hal_profile_irq_restore(irq);
}

void ssweep_take_abandon(void)
{
    struct profile_gmon_reader r;
    if (profile_snapshot_take(&r) != 0)
        firmware_failed("ssweep: profile_snapshot_take");
    profile_snapshot_release(&r, PROFILE_SNAPSHOT_MERGED);
}

static void report(const char *what, const struct ssweep_tally *t)
{
    printf("ssweep: %s trees %lu samples %lu overhead %lu mismatched %lu\n", what,
           (unsigned long)t->trees, (unsigned long)t->samples, (unsigned long)t->overhead,
           (unsigned long)t->mismatched);
    for (int i = 0; i < SSWEEP_FUNCS && t->fn[i]; i++)
        printf("ssweep: %s calls 0x%lx %lu\n", what, (unsigned long)t->fn[i],
               (unsigned long)t->calls[i]);
}

void ssweep_report(void)
{
    report("delivered", &ssweep_delivered);
    report("discarded", &ssweep_discarded);
}
