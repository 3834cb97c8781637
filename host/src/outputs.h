/* The outputs beyond gprof's: DOT and SVG (dot.c), callgrind (callgrind.c), JSON
 * (json.c). */
#ifndef TGPROF_OUTPUTS_H
#define TGPROF_OUTPUTS_H

#include <stddef.h>
#include <stdio.h>

struct analysis;

int dot_write(struct analysis *a, const char *path, double threshold);
int svg_write(struct analysis *a, const char *path, double threshold);
void elide_templates(const char *name, char *out);
int callgrind_write(struct analysis *a, const char *path);
int json_write(struct analysis *a, const char *path);
/* A JSON file: opened for writing (NULL after an error, said), and closed with every
 * write checked (0, or -1 after an error, said). */
FILE *json_open(const char *path);
int json_close(FILE *f, const char *path);
/* The length of the UTF-8 character at s (1 to 4; 1 for the terminating 0), or 0 where
 * its bytes are not one (a stray continuation byte, an overlong form, a surrogate, past
 * U+10FFFF, or cut short). */
size_t utf8_char_len(const char *s);
/* JSON values: a string (escaped, a byte of no UTF-8 character as U+FFFD; NULL is
 * null), a number (not finite: null). */
void json_str(FILE *f, const char *s);
void json_num(FILE *f, double v);

#endif
