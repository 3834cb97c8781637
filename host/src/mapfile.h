/* mapfile.c: -R, gprof's map of functions to object files. */
#ifndef TGPROF_MAPFILE_H
#define TGPROF_MAPFILE_H

#include <stddef.h>

struct symtab;

struct fmap_entry {
	char *file, *func;
	int is_first;              /* the first line of a run of lines of one file */
};
struct fmap {
	struct fmap_entry *e;      /* in the file's order */
	size_t n;
	void **byname;             /* the entries by function name (stable) */
};
int fmap_read(struct fmap *m, const char *path);
void fmap_apply(const struct fmap *m, struct symtab *tab);
void fmap_release(struct fmap *m);

#endif
