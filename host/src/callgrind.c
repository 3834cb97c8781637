/* The profile in callgrind format, for KCachegrind: self cost in samples (rounded from
 * gprof's fractional shares), exact call counts, and the inclusive cost of each call as
 * gprof estimates it (call-count share of the callee's time). */
#include <errno.h>
#include <math.h>
#include <string.h>
#include "tgprof.h"

static unsigned long long samples(double t)
{
	return t > 0 ? (unsigned long long)llround(t) : 0;
}

int callgrind_write(struct analysis *a, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return error("%s: %s", path, strerror(errno));
	struct symtab *tab = a->tab;
	fprintf(f, "# callgrind format\nversion: 1\ncreator: tgprof\npositions: line\n"
		   "events: Samples\nsummary: %llu\n\n", samples(a->total_time));
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *s = &tab->base[i];
		if (s->time == 0 && !s->children && !s->parents)
			continue;
		if (s->file)
			fprintf(f, "fl=%s\n", s->file);
		else
			fputs("fl=???\n", f);
		fprintf(f, "fn=%s\n%d %llu\n", s->name, s->line, samples(s->time));
		for (const struct arc *arc = s->children; arc; arc = arc->next_child) {
			const struct sym *c = arc->child;
			if (c->file && c->file != s->file)
				fprintf(f, "cfi=%s\n", c->file);
			fprintf(f, "cfn=%s\ncalls=%lu %d\n%d %llu\n", c->name, arc->count, c->line,
				s->line, samples(arc->time + arc->child_time));
		}
		fputc('\n', f);
	}
	if (ferror(f) | fclose(f))
		return error("%s: write error", path);
	return 0;
}
