/*
 * Every option of the package with its default. The configuration (pkgconf/profile_gprof.h,
 * written by the CDL configurator) overrides; code tests the PROFILE_* values with #if.
 */
#ifndef CYGONCE_PROFILE_OPTS_H
#define CYGONCE_PROFILE_OPTS_H

#include <pkgconf/profile_gprof.h>

/* Call-graph (mcount) support. */
#ifdef CYGPKG_PROFILE_CALLGRAPH
#define PROFILE_CALLGRAPH 1
#else
#define PROFILE_CALLGRAPH 0
#endif

/* log2 of the bytes of code per arc hash slot. */
#ifndef CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT
#define CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT 8
#endif

/* Arc record space as a percentage of the profiled code size. */
#ifndef CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE
#define CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE 5
#endif

/* TFTP daemon serving gmon.out. */
#ifdef CYGPKG_PROFILE_TFTP
#define PROFILE_TFTP 1
#else
#define PROFILE_TFTP 0
#endif

#ifndef CYGNUM_PROFILE_TFTP_PORT
#define CYGNUM_PROFILE_TFTP_PORT 69
#endif

/* A spare set of arrays for snapshots (double buffering), which an extraction path that
 * takes a while needs so that profiling goes on during the transfer. */
#ifndef PROFILE_SNAPSHOT
#define PROFILE_SNAPSHOT PROFILE_TFTP
#endif

/* Call sites are stored as a 16-bit offset within their hash slot. */
_Static_assert(CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT >= 4 && CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT <= 16,
               "CYGNUM_PROFILE_CALLGRAPH_HASH_SHIFT must be 4..16 (cdl/profile_gprof.cdl)");
_Static_assert(CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE >= 1 && CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE <= 100,
               "CYGNUM_PROFILE_CALLGRAPH_ARC_PERCENTAGE must be 1..100");
_Static_assert(CYGNUM_PROFILE_TFTP_PORT >= 1 && CYGNUM_PROFILE_TFTP_PORT <= 65535,
               "CYGNUM_PROFILE_TFTP_PORT must be 1..65535");

#endif
