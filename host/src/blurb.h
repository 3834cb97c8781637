/* blurb.c: the explanations gprof prints with its tables. */
#ifndef TGPROF_BLURB_H
#define TGPROF_BLURB_H

extern const char flat_blurb[], callg_blurb[], bsd_callg_blurb[];

#endif
