/* tgprof: a gprof-compatible profile analyzer.  The modules' headers, and what is not
 * yet in one of its own. */
#ifndef TGPROF_H
#define TGPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "addrtrie.h"
#include "analysis.h"
#include "blurb.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "demangle.h"
#include "elfsym.h"
#include "error.h"
#include "execcount.h"
#include "gmon_io.h"
#include "hist.h"
#include "linetab.h"
#include "mapfile.h"
#include "msort.h"
#include "options.h"
#include "order.h"
#include "outputs.h"
#include "respfile.h"
#include "source.h"
#include "srcinfo.h"
#include "stacks.h"
#include "sum.h"
#include "symspec.h"
#include "symtab.h"

#endif
