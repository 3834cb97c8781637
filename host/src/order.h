/* order.c: -r and -R, gprof's suggested function and object file orders. */
#ifndef TGPROF_ORDER_H
#define TGPROF_ORDER_H

#include <stdio.h>

struct analysis;
struct fmap;

void function_order_print(struct analysis *a, FILE *out);
void file_order_print(struct analysis *a, const struct fmap *m, FILE *out);
void order_release(struct analysis *a);

#endif
