/* Serializer: the profiling state as a GNU gmon.out (version 1) image. */
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
static uint8_t *put_uint(uint8_t *p, uint64_t v, size_t bytes)
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

static size_t bins_start(void) { return HDR_BYTES + HIST_HDR_BYTES; }

static size_t arcs_start(const struct profile_state *s)
{
    return (size_t)profile_gmon_bytes(s->nbins, 0);
}

uint64_t profile_gmon_bytes(uint64_t nbins, uint64_t narcs)
{
    return bins_start() + nbins * 2 + narcs * ARC_BYTES;
}

size_t profile_gmon_size(const struct profile_gmon_reader *r)
{
    const struct profile_state *s = r->state;
    /* (profile_on made sure that even a full table's image fits 32 bits) */
    return s->bins ? (size_t)profile_gmon_bytes(s->nbins, s->arcs_used) : 0;
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

size_t profile_gmon_read(struct profile_gmon_reader *r, size_t offset, void *buf, size_t len)
{
    const struct profile_state *s = r->state;
    size_t size = profile_gmon_size(r);
    uint8_t *out = buf;
    size_t done = 0;

    while (done < len && offset + done < size) {
        size_t pos = offset + done;
        uint8_t piece[HIST_HDR_BYTES];  /* the largest piece built here */
        const uint8_t *src = piece;
        size_t piece_start, piece_len;

        if (pos < HDR_BYTES) {
            uint8_t *p = put_bytes(piece, "gmon", 4);
            p = put_uint(p, 1, 4);
            p = put_uint(p, s->samples, 4);
            p = put_uint(p, s->samples_overhead, 4);
            put_uint(p, (uint64_t)s->arcs_dropped + s->arcs_out_of_range, 4);
            piece_start = 0;
            piece_len = HDR_BYTES;
        } else if (pos < bins_start()) {
            static const char dimen[15] = "seconds";
            uint8_t *p = put_uint(piece, GMON_TAG_HIST, 1);
            p = put_uint(p, s->low_pc, ADDR_BYTES);
            p = put_uint(p, s->high_pc, ADDR_BYTES);
            p = put_uint(p, s->nbins, 4);
            p = put_uint(p, s->prof_rate, 4);
            p = put_bytes(p, dimen, sizeof dimen);
            put_uint(p, 's', 1);
            piece_start = HDR_BYTES;
            piece_len = HIST_HDR_BYTES;
        } else if (pos < arcs_start(s)) {
            /* u16 counters in the CPU's byte order are already the file's encoding. */
            src = (const uint8_t *)s->bins;
            piece_start = bins_start();
            piece_len = (size_t)s->nbins * 2;
        } else {
            uint32_t ordinal = (uint32_t)((pos - arcs_start(s)) / ARC_BYTES);
            const struct profile_arc *a = seek_arc(r, ordinal);
            if (!a)
                break;
            uint8_t *p = put_uint(piece, GMON_TAG_ARC, 1);
            p = put_uint(p, HAL_PROFILE_PC(profile_arc_addr(s, a->from)), ADDR_BYTES);
            p = put_uint(p, HAL_PROFILE_PC(profile_arc_addr(s, a->self)), ADDR_BYTES);
            put_uint(p, a->count, 4);
            piece_start = arcs_start(s) + (size_t)ordinal * ARC_BYTES;
            piece_len = ARC_BYTES;
        }
        size_t skip = pos - piece_start;
        size_t n = piece_len - skip;
        if (n > len - done)
            n = len - done;
        memcpy(out + done, src + skip, n);
        done += n;
    }
    return done;
}
