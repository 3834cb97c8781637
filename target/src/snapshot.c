/*
 * Snapshots (double buffering) for extraction paths that take a while, such as TFTP: the
 * data is frozen at the start of a transfer and recording goes on into a spare set, so what
 * happens during the transfer lands in the next file. A delivered snapshot is dropped (the
 * eCos "a completed transfer resets the counters"); an abandoned one is merged back, so no
 * sample or call is lost or counted twice.
 */
#include <errno.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

/* Owned here: filled by profile_snapshot_take, read by the reader (gmon.c), emptied by
 * profile_snapshot_release; profile_on/profile_off clear it when the sets go away. */
struct profile_state profile_frozen;

#define MERGE_CHUNK 64  /* bins merged per masked section: bounds interrupt latency */

int profile_snapshot_take(struct profile_gmon_reader *r)
{
    struct profile_state *s = &profile_state;
    int rc = 0;
    hal_profile_irq_state irq = hal_profile_irq_save();
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
    }
    hal_profile_irq_restore(irq);
    if (rc == 0) {
        memset(r, 0, sizeof *r);
        r->state = &profile_frozen;
    }
    return rc;
}

/*
 * Moves the frozen set's data into the live one. Whatever is moved is taken out of the
 * frozen set in the same masked section, so that a reader between two sections (gdb
 * halting the target, profile_get_stats in another thread) sees every sample and call
 * once: in the live set, or still in the frozen one (gdb/gprof.gdb reports the frozen
 * samples apart; profile_get_stats adds them to samples_total).
 */
static void merge_back(struct profile_state *s, struct profile_state *f)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    s->samples += f->samples;
    s->samples_out_of_range += f->samples_out_of_range;
    s->arcs_dropped += f->arcs_dropped;
    s->arcs_out_of_range += f->arcs_out_of_range;
    f->samples = 0;
    f->samples_out_of_range = 0;
    f->arcs_dropped = 0;
    f->arcs_out_of_range = 0;
    hal_profile_irq_restore(irq);

    for (uint32_t i = 0; i < f->nbins; i += MERGE_CHUNK) {
        uint32_t end = i + MERGE_CHUNK < f->nbins ? i + MERGE_CHUNK : f->nbins;
        irq = hal_profile_irq_save();
        for (uint32_t b = i; b < end; b++) {
            uint32_t v = (uint32_t)s->bins[b] + f->bins[b];
            if (v >= PROFILE_BIN_MAX) {
                if (s->bins[b] != PROFILE_BIN_MAX)
                    s->buckets_saturated++;
                v = PROFILE_BIN_MAX;
            }
            s->bins[b] = (uint16_t)v;
            f->bins[b] = 0;
        }
        hal_profile_irq_restore(irq);
    }

    for (uint32_t slot = 0; slot < f->nslots; slot++) {
        for (uint32_t i = f->heads[slot]; i != 0; i = f->arcs[i].next) {
            struct profile_arc *a = &f->arcs[i];
            irq = hal_profile_irq_save();
            profile_arc_add(s, ((uintptr_t)slot << f->slot_shift) + a->from_low, a->self_pc,
                            a->count);
            a->count = 0;
            hal_profile_irq_restore(irq);
        }
    }
}

void profile_snapshot_release(struct profile_gmon_reader *r, int delivered)
{
    struct profile_state *s = &profile_state;
    struct profile_state *f = &profile_frozen;
    if (r->state != f || !f->bins)
        return;  /* not a snapshot, or profile_on/profile_off ended it */
    if (!delivered)
        merge_back(s, f);
    /* The frozen set becomes the spare: zero it outside the lock; only this code and
     * profile_snapshot_take touch a spare. */
    void *base = f->arcs ? (void *)f->arcs : (void *)f->bins;
    memset(base, 0, s->set_bytes);
    hal_profile_irq_state irq = hal_profile_irq_save();
    if (s->running && s->memory) {
        s->spare = base;
        if (delivered)
            s->samples_retired += f->samples;
    }
    memset(f, 0, sizeof *f);
    hal_profile_irq_restore(irq);
    r->state = NULL;
}
