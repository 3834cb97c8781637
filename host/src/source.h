/* annotate.c: -A, annotated source. */
#ifndef TGPROF_SOURCE_H
#define TGPROF_SOURCE_H

struct analysis;

int annotated_source_print(struct analysis *a, int *first_output);

#endif
