/*
 * The halting sweep's firmware, the part compiled without -pg: snapshot transfers, the
 * count of every profile timer sample (the link wraps __profile_hit, tests/tests.mk), and
 * buckets brought past 0xFFFF.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"   /* busy, reset_pending: the gdb protocol */
#include "calls.h"
#include "sweep.h"

/* Owned here: what delivered transfers held, and what profile_reset() and profile_on()
 * discarded; the test reads them with gdb at the end. */
struct sweep_totals sweep_delivered, sweep_discarded;
/* Owned here (the profile timer interrupt increments it); read by the test at the end. */
volatile uint32_t sweep_samples_taken;
/* Owned by sweep_transfer: the snapshot's image as a client would receive it. */
static uint8_t image[16 * 1024];

void __real___profile_hit(uintptr_t pc);
void __wrap___profile_hit(uintptr_t pc)
{
    sweep_samples_taken++;
    __real___profile_hit(pc);
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Adds a 32-bit little-endian gmon.out image to the totals, field by field: its histogram
 * records (one per range, and a bucket past 0xFFFF as several), then its arcs. */
static void add_image(const uint8_t *img, size_t size, struct sweep_totals *t)
{
    const size_t hist_hdr = 1 + 4 + 4 + 4 + 4 + 15 + 1;
    if (size < 20 + hist_hdr || memcmp(img, "gmon", 4) != 0 || img[20] != 0)
        firmware_failed("snapshot image: bad header");
    size_t arcs_at = 20;
    uint32_t bins = 0;
    while (arcs_at < size && img[arcs_at] == 0) {
        if (size - arcs_at < hist_hdr)
            firmware_failed("snapshot image: bad size");
        uint32_t nbins = get32(img + arcs_at + 9);
        const uint8_t *p = img + arcs_at + hist_hdr;
        if (nbins > (size - arcs_at - hist_hdr) / 2)
            firmware_failed("snapshot image: bad size");
        for (uint32_t b = 0; b < nbins; b++)
            bins += (uint32_t)p[2 * b] | (uint32_t)p[2 * b + 1] << 8;
        arcs_at += hist_hdr + (size_t)nbins * 2;
    }
    if ((size - arcs_at) % 13 != 0)
        firmware_failed("snapshot image: bad size");
    if (get32(img + 8) < get32(img + 12) + bins)
        firmware_failed("snapshot image: more samples in bins and overhead than taken");
    t->samples += get32(img + 8);
    t->overhead += get32(img + 12);
    t->out_of_range += get32(img + 8) - get32(img + 12) - bins;
    t->not_recorded += get32(img + 16) & 0xFFFFFFu;   /* (under the check byte: doc/format.md) */
    t->in_bins += bins;
    for (size_t a = arcs_at; a < size; a += 13) {
        if (img[a] != 1)
            firmware_failed("snapshot image: bad arc tag");
        t->calls += get32(img + a + 9);
    }
    t->files++;
}

void sweep_transfer(int deliver, void (*between)(void))
{
    struct profile_gmon_reader r;
    if (profile_snapshot_take(&r) != 0)
        firmware_failed("profile_snapshot_take");
    struct profile_gmon_reader second;
    if (profile_snapshot_take(&second) != -EBUSY)
        firmware_failed("a second snapshot while one is outstanding");
    size_t size = profile_gmon_size(&r);
    if (size > sizeof image)
        firmware_failed("snapshot image larger than the buffer");
    for (size_t off = 0; off < size; off += 512) {
        size_t n = size - off < 512 ? size - off : 512;
        if (profile_gmon_read(&r, off, image + off, n) != n)
            firmware_failed("profile_gmon_read");
        between();
    }
    if (deliver)
        add_image(image, size, &sweep_delivered);
    profile_snapshot_release(&r, deliver);
}

/*
 * The live data is counted and then discarded in one masked section marked busy, so that
 * gdb (which runs the target out of busy sections before it reads) never dumps what is
 * counted here. A reset gdb asked for means gdb has the live data already: nothing to count.
 */
/* The arc table's home slot of from -> self among homes (arcs.c's arc_home, repeated: the
 * test finds colliding call sites with it). */
static uint32_t crowd_home(uint32_t from, uint32_t self, uint32_t homes)
{
    uint32_t h = (from + (self << 16)) * (uint32_t)PROFILE_ARC_HASH_MUL;
    return ((h >> 16) * homes + (((h & 0xFFFFu) * homes) >> 16)) >> 16;
}

uint32_t sweep_crowd(uintptr_t lo, uintptr_t self)
{
    const struct profile_state *s = &profile_state;
    if (!s->running || s->nslots < 2)
        return 0;
    uint32_t homes = s->nslots - 1, want = crowd_home((uint32_t)lo, (uint32_t)self, homes);
    uintptr_t site[3] = { lo };
    int n = 1;
    for (uintptr_t f = lo + 2; n < 3 && f < lo + 0x10000; f += 2)
        if (crowd_home((uint32_t)f, (uint32_t)self, homes) == want)
            site[n++] = f;
    /* and a second callee of the first site with that home too: a lookup that finds the
     * site's other arc in a fast slot (one site, two callees, whatever the table held) */
    uintptr_t other = 0;
    for (uintptr_t g = self + 2; !other && g < self + 0x10000; g += 2)
        if (crowd_home((uint32_t)lo, (uint32_t)g, homes) == want)
            other = g;
    if (n < 3 || !other)
        firmware_failed("sweep_crowd: no three call sites and two callees share a home slot");
    static const int times[3] = { 1, 1, 3 };
    uint32_t calls = 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < times[i]; k++, calls++)
            __profile_mcount(site[i], self);
    for (int k = 0; k < 2; k++, calls++)
        __profile_mcount(lo, other);
    return calls;
}

/* sweep_overflow's calls (owned by it; main's context only). */
static unsigned overflow_calls;

void sweep_overflow(uintptr_t pc)
{
    struct profile_state *s = &profile_state;
    hal_profile_irq_state irq = profile_lock();
    if (profile_slow_path(s)) {
        uint32_t b = profile_range_bin(s, pc);
        if (b == UINT32_MAX || profile_is_overhead(s, pc))
            firmware_failed("sweep_overflow: not a bucket");
        /* To 2 below a carry of the 8-bit bin, so that the samples below take the fast
         * path, then the promotion's; every other time past 0xFFFF first (gmon.out's split
         * records), the others new entries among the taken ones. */
        uint32_t count = profile_bin_count(s, b);
        uint32_t n = (overflow_calls++ & 1) && count < 0x10000 ? 0x10000 - count : 0;
        n += (PROFILE_BIN_MAX - 2 - (count + n) % PROFILE_BIN_MAX + PROFILE_BIN_MAX) %
             PROFILE_BIN_MAX;
        profile_bin_store(s, b, (uint64_t)count + n, 0);
        s->samples += n;                /* (the running task's too, as a sample's) */
        sweep_samples_taken += n;
    }
    profile_unlock(irq);
    for (int i = 0; i < 3; i++) {
        /* (the wrapper counts it; masked, as in the profile timer's interrupt, so that the
         * timer's own sample cannot land inside the wrapper's increment) */
        irq = hal_profile_irq_save();
        __profile_hit(pc);
        hal_profile_irq_restore(irq);
    }
}

void sweep_discard(const struct profile_range *ranges)
{
    hal_profile_irq_state irq = hal_profile_irq_save();
    profile_set_busy(1);
    if (!profile_state.reset_pending) {
        struct profile_gmon_reader r;
        profile_gmon_reader_init(&r);
        size_t size = profile_gmon_size(&r);
        if (size > sizeof image || profile_gmon_read(&r, 0, image, size) != size)
            firmware_failed("the live image");
        add_image(image, size, &sweep_discarded);
    }
    if (!ranges)
        profile_reset();        /* (its own section ends the busy one) */
    else if (profile_on_ranges(ranges, 2, 16, SWEEP_SAMPLE_US) != 0)
        firmware_failed("profile_on_ranges again");
    hal_profile_irq_restore(irq);
}
