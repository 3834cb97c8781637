/*
 * Serializer: the profiling state as a GNU gmon.out (version 1) image.
 *
 * The histogram goes out as one record per range (profile_on_ranges), in address order;
 * GNU gprof (hist.c, hist_read_rec) reads records side by side that do not overlap. And
 * gmon.out's bins are 16-bit, whatever the target's (8-bit or 16-bit, with overflow entries: hist.c):
 * a bucket's true count goes out as its 16-bit bin while it is below 0xFFFF; within a
 * range, the bins between two buckets of 0xFFFF or more go out as a record, and each such
 * bucket as ceil(count / 65535) records of that one bucket whose counts (65535 each, the
 * last the rest) add up to its count, which gprof does for records of an identical range.
 * Every record has the same scale (bucket bytes / 2 per bin), as gprof requires.
 * gdb/gprof.gdb writes the same records.
 */
#include <string.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

#define ADDR_BYTES      sizeof(uintptr_t)
#define HDR_BYTES       20
#define HIST_HDR_BYTES  (1 + 2 * ADDR_BYTES + 4 + 4 + 15 + 1)
#define ARC_BYTES       (1 + 2 * ADDR_BYTES + 4)
#define GMON_TAG_HIST   0
#define GMON_TAG_ARC    1

/* Fields go out one by one in the target's byte order (the serializer runs on the
 * target, so that is the CPU's own), never as a compiler struct. */
uint8_t *profile_put_uint(uint8_t *p, uint64_t v, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        p[bytes - 1 - i] = (uint8_t)(v >> (8 * i));
#else
        p[i] = (uint8_t)(v >> (8 * i));
#endif
    }
    return p + bytes;
}

static uint8_t *put_bytes(uint8_t *p, const void *src, size_t n)
{
    memcpy(p, src, n);
    return p + n;
}

void profile_gmon_reader_init(struct profile_gmon_reader *r)
{
    memset(r, 0, sizeof *r);
    r->state = &profile_state;
}

#define PIECE           PROFILE_GMON_BIN_MAX    /* the most a record's bin holds */
#define PIECE_BYTES     (HIST_HDR_BYTES + 2)    /* a record of one bin */
#define BIN_CHUNK       16u     /* gmon.out bins built per piece (from the target's bins) */

/* Records of one bin that a bucket of this count takes (count >= 0xFFFF). */
static uint32_t pieces(uint32_t count)
{
    return count / PIECE + (count % PIECE != 0);
}

/* Whether entry e's bucket goes out as records of its own: a true count that a 16-bit
 * bin of gmon.out cannot hold (the smaller ones go out in the record around them). */
static int split(const struct profile_state *s, const struct profile_ovf *e)
{
    return e->high + s->bins[e->bin] >= PIECE;
}

/* The first entry at or after j whose bucket is split (ovf_used if none). */
static uint32_t next_split(const struct profile_state *s, uint32_t j)
{
    while (j < s->ovf_used && !split(s, &s->ovf[j]))
        j++;
    return j;
}

/* gmon.out's 16-bit bins of buckets [b, b + n), none of them split, at p: the bin and
 * what its overflow entry holds beyond it. */
static void put_bins(const struct profile_state *s, uint8_t *p, uint32_t b, uint32_t n)
{
    uint32_t j = profile_ovf_lower_bound(s, b);
    for (uint32_t k = b; k < b + n; k++) {
        uint32_t count = s->bins[k];
        if (j < s->ovf_used && s->ovf[j].bin == k)
            count += s->ovf[j++].high;
        p = profile_put_uint(p, count, 2);
    }
}

uint64_t profile_gmon_bytes_max(uint64_t nbins, uint64_t nranges, uint64_t narcs)
{
    /* A record per range; every entry splits one in two and adds the pieces of a bucket
     * of 2^32-1 */
    uint64_t split = PROFILE_OVF_CAPACITY;
    return HDR_BYTES + (nranges + split) * HIST_HDR_BYTES + nbins * 2 +
           split * pieces(UINT32_MAX) * PIECE_BYTES + narcs * ARC_BYTES;
}

/*
 * One histogram record of the image, found by offset: either bins [bin, bin + nbins) with
 * their true counts (count 0: put_bins), or one piece of a split bucket (nbins 1, count
 * its share); low is where its first bin starts. The records come range by range (address
 * order) and in bin order within one: before each split bucket the bins since the last
 * one, if any, then the bucket's pieces; then the bins after the last.
 */
struct hist_rec {
    size_t    at;           /* its offset in the image */
    uint32_t  bin, nbins;
    uint32_t  count;
    uintptr_t low;
};

/* Where bin b of range g starts. */
static uintptr_t bin_low(const struct profile_state *s, const struct profile_hist_range *g,
                         uint32_t b)
{
    return g->low + ((uintptr_t)(b - g->first) << s->bucket_shift);
}

/* The record that holds the image's byte pos; or, if pos lies past the histogram, 0 and
 * rec->at the offset where the histogram ends. */
static int hist_locate(const struct profile_state *s, size_t pos, struct hist_rec *rec)
{
    size_t at = HDR_BYTES;
    for (uint32_t r = 0; r < s->nranges; r++) {
        const struct profile_hist_range *g = &s->ranges[r];
        uint32_t b = g->first, end = g->first + g->nbins;
        for (uint32_t j = next_split(s, profile_ovf_lower_bound(s, b));;
             j = next_split(s, j + 1)) {
            uint32_t stop = j < s->ovf_used && s->ovf[j].bin < end ? s->ovf[j].bin : end;
            if (stop > b) {
                size_t len = HIST_HDR_BYTES + (size_t)(stop - b) * 2;
                if (pos < at + len) {
                    *rec = (struct hist_rec){ at, b, stop - b, 0, bin_low(s, g, b) };
                    return 1;
                }
                at += len;
            }
            if (stop == end)
                break;
            uint32_t count = s->ovf[j].high + s->bins[stop];
            uint32_t n = pieces(count);
            if (pos < at + (size_t)n * PIECE_BYTES) {
                uint32_t k = (uint32_t)((pos - at) / PIECE_BYTES);
                *rec = (struct hist_rec){ at + (size_t)k * PIECE_BYTES, stop, 1,
                                          k + 1 < n ? PIECE : count - (n - 1) * PIECE,
                                          bin_low(s, g, stop) };
                return 1;
            }
            at += (size_t)n * PIECE_BYTES;
            b = stop + 1;
        }
    }
    rec->at = at;
    return 0;
}

static size_t arcs_start(const struct profile_state *s)
{
    struct hist_rec end;
    hist_locate(s, SIZE_MAX, &end);
    return end.at;
}

size_t profile_gmon_size(const struct profile_gmon_reader *r)
{
    const struct profile_state *s = r->state;
    /* (profile_on made sure that even the largest image fits 32 bits) */
    return s->bins ? arcs_start(s) + (size_t)s->arcs_used * ARC_BYTES : 0;
}

/* The first record in use at or after slot (nslots if none). */
static uint32_t next_arc(const struct profile_state *s, uint32_t slot)
{
    while (slot < s->nslots && s->arcs[slot].from == 0)
        slot++;
    return slot;
}

/* Moves the cursor to the arc with the given ordinal in file order (table slot order).
 * Returns 0 if there is no such arc. */
static const struct profile_arc *seek_arc(struct profile_gmon_reader *r, uint32_t ordinal)
{
    const struct profile_state *s = r->state;
    if (!r->arc_index || ordinal < r->arc_ordinal) {
        r->arc_ordinal = 0;
        r->arc_slot = next_arc(s, 0);
        r->arc_index = 1;   /* the cursor is set */
    }
    while (r->arc_ordinal < ordinal && r->arc_slot < s->nslots) {
        r->arc_slot = next_arc(s, r->arc_slot + 1);
        r->arc_ordinal++;
    }
    return r->arc_slot < s->nslots ? &s->arcs[r->arc_slot] : 0;
}

/* The header's word at offset 16 (doc/format.md): the calls not recorded, held at 2^24-1,
 * and above them the check byte that tells the package's counters from the uninitialised
 * spare bytes of another writer's header (GNU gprof -s leaves them so). */
static uint32_t counters_word(const struct profile_state *s)
{
    uint64_t lost = (uint64_t)s->arcs_dropped + s->arcs_out_of_range;
    uint32_t arcs = lost > 0xFFFFFFu ? 0xFFFFFFu : (uint32_t)lost;
    uint32_t x = s->samples ^ s->samples_overhead ^ arcs;
    uint32_t check = 0xA5u ^ (x & 0xFFu) ^ ((x >> 8) & 0xFFu) ^ ((x >> 16) & 0xFFu) ^ (x >> 24);
    return check << 24 | arcs;
}

size_t profile_gmon_read(struct profile_gmon_reader *r, size_t offset, void *buf, size_t len)
{
    const struct profile_state *s = r->state;
    size_t size = profile_gmon_size(r);
    size_t hist_end = size ? arcs_start(s) : 0;
    uint8_t *out = buf;
    size_t done = 0;

    while (done < len && offset + done < size) {
        size_t pos = offset + done;
        /* the largest piece built here: a record's header, or BIN_CHUNK bins */
        uint8_t piece[HIST_HDR_BYTES > 2 * BIN_CHUNK ? HIST_HDR_BYTES : 2 * BIN_CHUNK];
        size_t piece_start, piece_len;

        if (pos < HDR_BYTES) {
            uint8_t *p = put_bytes(piece, "gmon", 4);
            p = profile_put_uint(p, 1, 4);
            p = profile_put_uint(p, s->samples, 4);
            p = profile_put_uint(p, s->samples_overhead, 4);
            profile_put_uint(p, counters_word(s), 4);
            piece_start = 0;
            piece_len = HDR_BYTES;
        } else if (pos < hist_end) {
            struct hist_rec rec;
            hist_locate(s, pos, &rec);
            if (pos < rec.at + HIST_HDR_BYTES) {
                static const char dimen[15] = "seconds";
                uint8_t *p = profile_put_uint(piece, GMON_TAG_HIST, 1);
                p = profile_put_uint(p, rec.low, ADDR_BYTES);
                p = profile_put_uint(p, rec.low + ((uintptr_t)rec.nbins << s->bucket_shift), ADDR_BYTES);
                p = profile_put_uint(p, rec.nbins, 4);
                p = profile_put_uint(p, s->prof_rate, 4);
                p = put_bytes(p, dimen, sizeof dimen);
                profile_put_uint(p, 's', 1);
                piece_start = rec.at;
                piece_len = HIST_HDR_BYTES;
            } else if (rec.count) {
                profile_put_uint(piece, rec.count, 2);
                piece_start = rec.at + HIST_HDR_BYTES;
                piece_len = 2;
            } else {
                uint32_t k = (uint32_t)((pos - rec.at - HIST_HDR_BYTES) / 2);  /* pos's bin */
                uint32_t n = rec.nbins - k < BIN_CHUNK ? rec.nbins - k : BIN_CHUNK;
                put_bins(s, piece, rec.bin + k, n);
                piece_start = rec.at + HIST_HDR_BYTES + (size_t)k * 2;
                piece_len = (size_t)n * 2;
            }
        } else {
            uint32_t ordinal = (uint32_t)((pos - hist_end) / ARC_BYTES);
            const struct profile_arc *a = seek_arc(r, ordinal);
            if (!a)
                break;
            uint8_t *p = profile_put_uint(piece, GMON_TAG_ARC, 1);
            p = profile_put_uint(p, HAL_PROFILE_PC(profile_arc_addr(s, a->from)), ADDR_BYTES);
            p = profile_put_uint(p, HAL_PROFILE_PC(profile_arc_addr(s, a->self)), ADDR_BYTES);
            profile_put_uint(p, a->count, 4);
            piece_start = hist_end + (size_t)ordinal * ARC_BYTES;
            piece_len = ARC_BYTES;
        }
        size_t skip = pos - piece_start;
        size_t n = piece_len - skip;
        if (n > len - done)
            n = len - done;
        memcpy(out + done, piece + skip, n);
        done += n;
    }
    return done;
}
