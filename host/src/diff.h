/* diff.c: two profiles of one program compared function by function (--diff), and the
 * limits a CI job sets on the change (--fail-slower, --fail-calls). */
#ifndef TGPROF_DIFF_H
#define TGPROF_DIFF_H

#include <stddef.h>
#include <stdio.h>

struct analysis;

/* One function, matched by its symbol name in the old and the new profile. */
struct diff_row {
	const char *name;          /* as printed (demangled unless --no-demangle) */
	int in_old, in_new;        /* present in that program's symbols */
	unsigned long calls[2];    /* [0] old, [1] new */
	double self[2], total[2];  /* seconds */
};

struct diff {
	struct diff_row *rows;     /* every function with calls or time in either */
	size_t n;
	double total[2];           /* the programs' sampled seconds */
	double sample[2];          /* one sample's seconds in each (1 / rate) */
};

/* What makes a difference a failure (exit status 2). */
struct diff_limits {
	double slower_pct;         /* --fail-slower=PCT: self time (or the program's) up by more */
	int slower_set;
	int calls;                 /* --fail-calls: any call count changed */
};

void diff_build(struct diff *d, const struct analysis *old, const struct analysis *new);
int diff_row_changed(const struct diff_row *r);
/* The rows that break the limits, each named on `why` (NULL: silently): their number. */
size_t diff_failures(const struct diff *d, const struct diff_limits *lim, FILE *why);
void diff_print(const struct diff *d, const char *const names[2], double tscale,
		const char *unit, FILE *out);
int diff_write_json(const struct diff *d, const char *const names[2],
		    const struct diff_limits *lim, const char *path);
void diff_release(struct diff *d);

#endif
