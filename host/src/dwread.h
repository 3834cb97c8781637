/* Reading DWARF's sections field by field: fixed-size numbers in the file's byte order and
 * LEB128 numbers, from a reader that never moves past its end.  Past the end a read gives
 * 0, stays at the end and marks the reader bad (BFD's safe reads, which the line tables
 * follow, do the same but for the mark). */
#ifndef DWREAD_H
#define DWREAD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rd {
	const unsigned char *p, *end;
	int big;                   /* the file is big-endian */
	int bad;                   /* a read ran past the end */
};

static inline uint64_t rd_fixed(struct rd *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n) {
		r->p = r->end;
		r->bad = 1;
		return 0;
	}
	if (n == 1)
		return *r->p++;
	uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (!r->big && (n == 2 || n == 4 || n == 8)) {  /* (a load, on such a host) */
		if (n == 2) {
			uint16_t x;
			memcpy(&x, r->p, 2);
			v = x;
		} else if (n == 4) {
			uint32_t x;
			memcpy(&x, r->p, 4);
			v = x;
		} else {
			memcpy(&v, r->p, 8);
		}
		r->p += n;
		return v;
	}
#endif
	for (size_t i = 0; i < n; i++)
		v = r->big ? v << 8 | r->p[i] : v | (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static inline uint64_t rd_leb_long(struct rd *r, int sign)
{
	uint64_t v = 0;
	unsigned sh = 0;
	unsigned char b = 0x80;
	while (r->p < r->end && (b & 0x80)) {
		b = *r->p++;
		if (sh < 64)
			v |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	}
	if (b & 0x80)
		r->bad = 1;         /* ran off the end */
	if (sign && sh < 64 && (b & 0x40))
		v |= ~(uint64_t)0 << sh;
	return v;
}

/* Most numbers are one byte. */
static inline uint64_t rd_leb(struct rd *r, int sign)
{
	if (r->p < r->end && !(*r->p & 0x80) && !(sign && (*r->p & 0x40)))
		return *r->p++;
	return rd_leb_long(r, sign);
}

static inline void rd_skip(struct rd *r, uint64_t n)
{
	if ((uint64_t)(r->end - r->p) < n) {
		r->p = r->end;
		r->bad = 1;
	} else {
		r->p += n;
	}
}

#endif
