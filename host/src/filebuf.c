/* A whole file in memory, and fields decoded from it one by one in the byte order the
 * file states, whatever the host's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "error.h"
#include "filebuf.h"

/* The file at PATH into *BUF (*LEN bytes; the caller frees it): 0, or -1 after an error
 * naming the file.  Files past 1 GiB are refused: no target writes one. */
int filebuf_read(const char *path, unsigned char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return error_errno("%s: cannot open", path);
	unsigned char *b = NULL;
	size_t n = 0, cap = 0, got;
	do {
		if (n == cap) {
			if (cap >= ((size_t)1 << 30)) {
				fclose(f);
				free(b);
				return error("%s: offset %zu: file too large", path, n);
			}
			cap = cap ? 2 * cap : 4096;
			b = xrealloc(b, cap);
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		fclose(f);
		free(b);
		return error("%s: read error", path);
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

/* The N-byte unsigned field at P. */
uint64_t filebuf_get(const unsigned char *p, unsigned n, int big)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

/* The byte-order mark 0x01020304 as the target wrote it: 0 little-endian, 1 big-endian,
 * -1 neither. */
static int byte_order(const unsigned char *mark)
{
	if (!memcmp(mark, "\x04\x03\x02\x01", 4))
		return 0;
	if (!memcmp(mark, "\x01\x02\x03\x04", 4))
		return 1;
	return -1;
}

/* The start every companion file of gmon.out shares (KIND: gmon.stacks, gmon.tasks): at
 * least SIZE bytes of header, MAGIC, version 1, the byte-order mark (into *BIG) and the
 * address width, 4 or 8 (into *ADDR).  0, or -1 after an error naming PATH and the
 * offset. */
int filebuf_check_start(const char *path, const unsigned char *b, size_t len,
			const char *kind, unsigned size, const char *magic, int *big,
			unsigned *addr)
{
	if (len < size)
		return error("%s: offset %zu: file too short for a %s header (%u bytes)", path,
			     len, kind, size);
	if (memcmp(b, magic, 4))
		return error("%s: offset 0: not a %s file (bad magic)", path, kind);
	if ((*big = byte_order(b + 8)) < 0)
		return error("%s: offset 8: bad byte-order mark", path);
	uint32_t version = (uint32_t)filebuf_get(b + 4, 4, *big);
	if (version != 1)
		return error("%s: offset 4: version %u (this tgprof reads version 1)", path, version);
	*addr = b[12];
	if (*addr != 4 && *addr != 8)
		return error("%s: offset 12: address width %u (4 or 8)", path, *addr);
	return 0;
}

int filebuf_refuse(int named, const char *why, const char *hint)
{
	if (named)
		return error("%s%s", why, hint);
	warning("%s, ignored%s", why, hint);
	return 1;
}
