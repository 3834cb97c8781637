#include "tgprof.h"

/* Placeholders until the extra outputs exist. */
int dot_write(struct analysis *a, const char *path, double threshold) { (void)a; (void)threshold; return error("%s: DOT output not implemented yet", path); }
int svg_write(struct analysis *a, const char *path, double threshold) { (void)a; (void)threshold; return error("%s: SVG output not implemented yet", path); }
int callgrind_write(struct analysis *a, const char *path) { (void)a; return error("%s: callgrind output not implemented yet", path); }
int json_write(struct analysis *a, const char *path) { (void)a; return error("%s: JSON output not implemented yet", path); }
int gmon_write_sum(const struct profile *p, const struct symtab *tab, const char *path) { (void)p; (void)tab; return error("%s: -s not implemented yet", path); }
