/*
 * Snapshots (double buffering) for extraction paths that take a while, such as TFTP: the
 * data is frozen at the start of a transfer and recording goes on into a spare set, so what
 * happens during the transfer lands in the next file. A delivered snapshot is dropped (the
 * eCos "a completed transfer resets the counters"); an abandoned one is merged back, so no
 * sample or call is lost or counted twice.
 *
 * Every step is a profile_lock section that leaves the state whole: a debugger halting the
 * target between two of them, or a thread (profile_get_stats) running there, sees each
 * sample and call exactly once, in the live set or in the frozen one. A step first checks
 * that the snapshot's generation is still the current one: profile_on()/profile_off() from
 * another thread may have freed the sets meanwhile, and then nothing is touched.
 */
#include <errno.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

/* Owned here: filled by profile_snapshot_take, read by the reader (gmon.c), emptied by
 * profile_snapshot_release; profile_on/profile_off clear it when the sets go away. */
struct profile_state profile_frozen;

#define MERGE_CHUNK 64     /* bins merged per masked section: bounds interrupt latency */
#define ZERO_CHUNK  1024   /* bytes of the frozen set zeroed per masked section */

int profile_snapshot_take(struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state;
    int rc = 0;
    hal_profile_irq_state irq = profile_lock();
    if (!s->running)
        rc = -ENODATA;
    else if (profile_frozen.bins)
        rc = -EBUSY;
    else if (!s->spare)
        rc = -ENOSPC;
    else {
        profile_slow_path(s);  /* a reset gdb asked for happens before the freeze */
        profile_frozen = *s;
        profile_frozen.spare = NULL;
        profile_set_layout(s, s->spare);
        s->spare = NULL;
        profile_clear_counts(s);  /* the spare's arrays are zero already */
        profile_arm(s);           /* the mcount gate onto the spare's table */
        profile_task_freeze();   /* the task table's counts: the same moment */
#if PROFILE_STACKS
        profile_stack_freeze();   /* the tree's counts: the same moment */
#endif
    }
    uint32_t generation = s->lasting.generation;
    profile_unlock(irq);
    if (rc == 0) {
        memset(r, 0, sizeof *r);
        r->state = &profile_frozen;
        r->generation = generation;
    }
    return rc;
}

int profile_snapshot_ended(const struct profile_gmon_reader *r)
{
    return r->generation != profile_state.lasting.generation || !profile_frozen.bins;
}

/* Opens a step of a release (a profile_lock section) if the snapshot is still current;
 * else returns 0, unlocked: its sets may be gone. */
static int step_begin(const struct profile_gmon_reader *r, hal_profile_irq_state *irq)
{
    *irq = profile_lock();
    if (profile_snapshot_ended(r)) {
        profile_unlock(*irq);
        return 0;
    }
    return 1;
}

/*
 * Merging an abandoned snapshot back moves the frozen set's data into the live one, a step
 * at a time, in phases (merge_back); what a step moves is taken out of the frozen set in the
 * same step. Each step first performs a reset gdb asked for since the last one: gdb dumped
 * the live data as it was then, and what is moved in afterwards must survive that reset.
 * Samples move with the bins that hold them, so that each set's header (samples) keeps
 * agreeing with its bins (+ samples outside the range, overhead, and what full bins
 * refused) at every step; those in no bin go last. Each phase returns 0 if the snapshot
 * ended meanwhile (nothing more may be touched), else 1.
 */

/* Adds a frozen counter to the live one and takes it out of the frozen set (in a step). */
static void move_count(uint32_t *live, uint32_t *frozen)
{
    *live += *frozen;
    *frozen = 0;
}

/* The calls neither set recorded (table full, call site outside the range): one step. */
static int merge_arc_losses(const struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    hal_profile_irq_state irq;
    if (!step_begin(r, &irq))
        return 0;
    profile_slow_path(s);
    move_count(&s->arcs_dropped, &f->arcs_dropped);
    move_count(&s->arcs_out_of_range, &f->arcs_out_of_range);
    profile_unlock(irq);
    return 1;
}

/* Buckets past their bin: the part of each in the frozen overflow entries, one entry a step
 * (the last first: the entries in use stay the first ones), with the same number of
 * samples. A live bucket stuck (PROFILE_BIN_MAX) stays stuck. */
static int merge_overflow_entries(const struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    hal_profile_irq_state irq;
    for (;;) {
        if (!step_begin(r, &irq))
            return 0;
        if (f->ovf_used == 0) {
            profile_unlock(irq);
            return 1;
        }
        profile_slow_path(s);
        struct profile_ovf *e = &f->ovf[--f->ovf_used];
        profile_bin_store(s, e->bin, (uint64_t)profile_bin_count(s, e->bin) + e->high,
                          s->bins[e->bin] == PROFILE_BIN_MAX);
        s->samples += e->high;
        f->samples -= e->high;
        e->high = 0;
        profile_unlock(irq);
    }
}

/* The bins (after their overflow entries' part), up to MERGE_CHUNK a step; a bin whose sum
 * fills it or that is stuck on either side goes through profile_bin_store (which may search
 * and move the overflow entries) and ends its step. */
static int merge_bins(const struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    hal_profile_irq_state irq;
    for (uint32_t i = 0; i < f->nbins;) {
        if (!step_begin(r, &irq))
            return 0;
        profile_slow_path(s);
        uint32_t end = f->nbins - i > MERGE_CHUNK ? i + MERGE_CHUNK : f->nbins;
        uint32_t moved = 0;
        while (i < end) {
            uint32_t b = i++, fv = f->bins[b], sv = s->bins[b];
            if (!fv)
                continue;
            moved += fv;
            f->bins[b] = 0;
            if (sv + fv < PROFILE_BIN_MAX) {
                s->bins[b] = (profile_bin_t)(sv + fv);  /* neither stuck, room left */
                continue;
            }
            /* (the frozen entry's part has moved already: fv is the frozen count) */
            profile_bin_store(s, b, (uint64_t)profile_bin_count(s, b) + fv,
                              sv == PROFILE_BIN_MAX || fv == PROFILE_BIN_MAX);
            break;
        }
        s->samples += moved;
        f->samples -= moved;
        profile_unlock(irq);
    }
    return 1;
}

/* The samples in no bin: outside the range, profiler overhead, and what saturated bins
 * could not hold. One step, after the bins. */
static int merge_unbinned_samples(const struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    hal_profile_irq_state irq;
    if (!step_begin(r, &irq))
        return 0;
    profile_slow_path(s);
    move_count(&s->samples, &f->samples);
    move_count(&s->samples_out_of_range, &f->samples_out_of_range);
    move_count(&s->samples_overhead, &f->samples_overhead);
    profile_unlock(irq);
    return 1;
}

/* Arcs: each step skips up to MERGE_CHUNK free slots and moves at most one record. A
 * record's count is taken out of the frozen set in the step that adds it to the live one;
 * its addresses are kept, and the same low_pc gives them the same meaning. */
static int merge_arcs(const struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    hal_profile_irq_state irq;
    for (uint32_t slot = 0; slot < f->nslots;) {
        if (!step_begin(r, &irq))
            return 0;
        uint32_t stop = f->nslots - slot > MERGE_CHUNK ? slot + MERGE_CHUNK : f->nslots;
        while (slot < stop && f->arcs[slot].from == 0)
            slot++;
        if (slot < stop) {
            struct profile_arc *a = &f->arcs[slot];
            profile_slow_path(s);
            if (a->count)
                profile_arc_add(s, a->from, a->self, a->count);
            a->count = 0;
            slot++;
        }
        profile_unlock(irq);
    }
    return 1;
}

static void merge_back(const struct profile_gmon_reader *r)
{
    if (merge_arc_losses(r) && merge_overflow_entries(r) && merge_bins(r) &&
        merge_unbinned_samples(r))
        merge_arcs(r);
}

/* Zeroes the frozen set's first bytes, a step at a time, each step checking that the
 * memory is still the snapshot's. 0 if the snapshot ended meanwhile, else 1. */
static int zero_frozen_set(const struct profile_gmon_reader *r, char *set, size_t bytes)
{
    hal_profile_irq_state irq;
    for (size_t done = 0; done < bytes; done += ZERO_CHUNK) {
        if (!step_begin(r, &irq))
            return 0;
        memset(set + done, 0, bytes - done > ZERO_CHUNK ? ZERO_CHUNK : bytes - done);
        profile_unlock(irq);
    }
    return 1;
}

/* profile_snapshot_release's delivered as the enum: any other nonzero value is delivered. */
static enum profile_snapshot_end snapshot_end(int delivered)
{
    if (delivered == PROFILE_SNAPSHOT_MERGED)
        return PROFILE_SNAPSHOT_MERGED;
    if (delivered == PROFILE_SNAPSHOT_DELIVERED_GMON)
        return PROFILE_SNAPSHOT_DELIVERED_GMON;
    return PROFILE_SNAPSHOT_DELIVERED;
}

void profile_snapshot_release(struct profile_gmon_reader *r, int delivered)
{
    struct profile_state *s = &profile_state, *f = &profile_frozen;
    enum profile_snapshot_end end = snapshot_end(delivered);
    hal_profile_irq_state irq;
    if (r->state != f)
        return;                 /* not a snapshot */
    r->state = NULL;
    if (end == PROFILE_SNAPSHOT_MERGED)
        merge_back(r);
    if (!step_begin(r, &irq))
        return;                 /* profile_on/profile_off ended it */
    if (end != PROFILE_SNAPSHOT_MERGED) {
        s->samples_retired += f->samples;
        f->samples = 0;         /* (profile_get_stats counts frozen samples) */
    }
    /* The frozen set becomes the spare once its arc table (every slot free), its overflow
     * entries and its bins are zero again: one span from the set's start (the parts'
     * order, profile_set_span); a merge has zeroed the bins already. */
    char *set = f->set;
    size_t bytes = profile_set_span(f, end == PROFILE_SNAPSHOT_MERGED ? PROFILE_SET_OVF
                                                                      : PROFILE_SET_BINS);
    profile_unlock(irq);
    if (!zero_frozen_set(r, set, bytes) || !step_begin(r, &irq))
        return;
    s->spare = set;
    memset(f, 0, sizeof *f);
    profile_task_thaw(end);
#if PROFILE_STACKS
    /* (merged back whole, in this one step: the tree's counts are no bins to step over) */
    profile_stack_thaw(end);
#endif
    profile_unlock(irq);
}
