#include "tgprof.h"

/* Placeholders until the extra outputs exist. */
int dot_write(struct analysis *a, const char *path, double threshold) { (void)a; (void)threshold; return error("%s: DOT output not implemented yet", path); }
int svg_write(struct analysis *a, const char *path, double threshold) { (void)a; (void)threshold; return error("%s: SVG output not implemented yet", path); }
int callgrind_write(struct analysis *a, const char *path) { (void)a; return error("%s: callgrind output not implemented yet", path); }
int json_write(struct analysis *a, const char *path) { (void)a; return error("%s: JSON output not implemented yet", path); }
