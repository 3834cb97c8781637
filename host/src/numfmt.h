/* numfmt.c: the report's numbers formatted as printf formats them, without printf. */
#ifndef TGPROF_NUMFMT_H
#define TGPROF_NUMFMT_H

/* Each appends at P and returns the new end.  A field takes at most NUMFMT_MAX bytes. */
#define NUMFMT_MAX 400
char *fmt_f(char *p, double v, int width, int prec);       /* "%*.*f" */
char *fmt_lu(char *p, unsigned long v, int width);         /* "%*lu"; width < 0: "%-*lu" */
char *fmt_s(char *p, const char *s, int width, int prec);  /* "%*.*s"; width < 0: "%-*.*s" */
char *fmt_blank(char *p, int n);                           /* "%*s" of "" */
char *fmt_d(char *p, long v);                              /* "%ld" */

#endif
