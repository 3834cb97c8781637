/* sum.c: -s, the sum of the profiles written as gmon.sum. */
#ifndef TGPROF_SUM_H
#define TGPROF_SUM_H

struct analysis;
struct profile;

int gmon_write_sum(const struct profile *p, const struct analysis *a, const char *path);

#endif
