/* tgprof: command line, and the order of work (as gprof's main). */
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis.h"
#include "clones.h"
#include "cg_arcs.h"
#include "cg_print.h"
#include "diff.h"
#include "elfsym.h"
#include "error.h"
#include "execcount.h"
#include "fetch.h"
#include "heap.h"
#include "gmon_io.h"
#include "hist.h"
#include "mapfile.h"
#include "options.h"
#include "order.h"
#include "outputs.h"
#include "respfile.h"
#include "source.h"
#include "stacks.h"
#include "sum.h"
#include "symspec.h"
#include "symtab.h"
#include "tasks.h"
#include "watch.h"

#define TGPROF_VERSION "0.1"

static const char *default_excluded[] = {
	"_gprof_mcount", "mcount", "_mcount", "__mcount", "__mcount_internal",
	"__mcleanup", NULL,
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: tgprof [options] [@FILE] [executable [gmon.out ...]]\n"
"Reads an executable (ELF) and gmon.out files and prints the flat profile and the\n"
"call graph exactly as GNU gprof 2.40 does.\n"
"\n"
"gprof options:\n"
"  -b, --brief                 no explanations (blurbs)\n"
"  -p[SPEC], --flat-profile[=SPEC]     flat profile (of SPEC's symbols only)\n"
"  -P[SPEC], --no-flat-profile[=SPEC]  no flat profile (or leave SPEC out of it)\n"
"  -q[SPEC], --graph[=SPEC]    call graph (from SPEC only; SPEC may be FROM/TO)\n"
"  -Q[SPEC], --no-graph[=SPEC] no call graph (or leave SPEC out of it)\n"
"  -n SPEC, --time=SPEC        propagate time only from SPEC\n"
"  -N SPEC, --no-time=SPEC     propagate no time from SPEC\n"
"  -k FROM/TO                  delete arcs from FROM to TO\n"
"  -e NAME / -E NAME           (old style) leave NAME out of the call graph / and its\n"
"                              time too\n"
"  -f NAME / -F NAME           (old style) call graph of NAME only / and only its time\n"
"  -z, --display-unused-functions  list functions that were never called or sampled\n"
"  -a, --no-static             leave out static functions (their time goes to the\n"
"                              function before them)\n"
"  -D, --ignore-non-functions  ignore symbols that are not functions\n"
"  -i, --file-info             summary of each profile file\n"
"  -l, --line                  line-by-line: one entry per source line (DWARF)\n"
"  -r, --function-ordering     a function order for the linker, from the arcs\n"
"  -c, --static-call-graph     x86: add calls found in the code (count 0)\n"
"  -C[SPEC], --exec-counts[=SPEC]  call counts per function (file:line order)\n"
"  -Z[SPEC], --no-exec-counts[=SPEC]\n"
"  -A[SPEC], --annotated-source[=SPEC]  source files with call counts per line\n"
"  -J[SPEC], --no-annotated-source[=SPEC]\n"
"  -x, --all-lines             -A: annotate every line (with its block's count)\n"
"  -y, --separate-files        -A: write FILE-ann files instead\n"
"  -I DIRS, --directory-path=DIRS  -A: where to look for sources (DIR:DIR...)\n"
"  -t N, --table-length=N      -A: lines in the top table (default 10)\n"
"  -m N, --min-count=N         -A: '#####' for counts under N (default 1)\n"
"  -s, --sum                   write the sum of the profile files to gmon.sum\n"
"                              (implies -l, as in gprof)\n"
"  -T, --traditional           BSD-style output\n"
"  -w N, --width=N             width of the index (default 80)\n"
"  -L, --print-path            full source paths in the index\n"
"  -O FMT, --file-format=FMT   auto (default), magic (GNU) or bsd\n"
"  --no-demangle               print C++ names as in the symbol table\n"
"  --inline-file-names         file and line after every name\n"
"  -S FILE, --external-symbol-table=FILE  symbols from an nm-style listing\n"
"  -v, --version               version\n"
"  -h, --help                  this help\n"
"  -R MAP, --file-ordering=MAP  an object file order for the linker, from the arcs;\n"
"                              MAP maps functions to object files (nm -A's lines)\n"
"  -d[NUM], --debug[=NUM]      accepted for gprof's scripts; tgprof prints no\n"
"                              debugging output\n"
"SPEC is FUNCTION, FILE (has a dot), LINE, FILE:FUNCTION or FILE:LINE.\n"
"\n"
"Beyond gprof:\n"
"  --dot=FILE                  call graph in Graphviz DOT\n"
"  --svg=FILE                  call graph as SVG (runs graphviz's dot; temporary\n"
"                              file in $TMPDIR)\n"
"  --graph-threshold=PCT       leave out of DOT/SVG functions under PCT%% total time\n"
"                              (0 to 100, default 0.5)\n"
"  --callgrind=FILE            callgrind format for KCachegrind\n"
"  --json=FILE                 everything as JSON\n"
"  --time-unit=s|ms|us         print times in the flat profile and call graph in\n"
"                              this unit (default s, as gprof)\n"
"  --stacks=FILE               the calling-context tree (gmon.stacks; default: the\n"
"                              gmon file's NAME.stacks beside it, if there is one):\n"
"                              the call graph's times are then measured\n"
"  --folded=FILE               the stacks, folded (one line per stack: a;b;c N)\n"
"  --flame-graph=FILE          the stacks as a flame graph (SVG, click to zoom)\n"
"  --speedscope=FILE           the stacks in speedscope's JSON file format\n"
"  --tasks-file=FILE           the tasks' samples (gmon.tasks; default: the gmon file's\n"
"                              NAME.tasks beside it, if there is one); the stacks'\n"
"                              thread contexts are then named after their tasks\n"
"  --tasks                     the per-task table: samples, share of the CPU, calls\n"
"  --task=NAME                 the task's row and its flat profile measured from\n"
"                              gmon.stacks; the stacks' outputs of that task only\n"
"  --clones=fold|own           GCC's clones (f.part.0, f.isra.0, f.cold...): fold\n"
"                              charges them to the symbol before them everywhere, as\n"
"                              gprof; own to themselves everywhere.  Default: the\n"
"                              flat profile, call graph, DOT and SVG fold (gprof's),\n"
"                              --callgrind, --json and the stacks' outputs own\n"
"  --diff OLD.elf OLD.out NEW.elf NEW.out  (or ELF OLD.out NEW.out) compare two\n"
"                              profiles: per function, the change in calls, self and\n"
"                              total time (--json=FILE: the same as JSON)\n"
"  --fail-slower=PCT           --diff: exit 2 if the program or a function's self time\n"
"                              rose by more than PCT%% (and more than sampling error)\n"
"  --fail-calls                --diff: exit 2 if any function's call count changed\n"
"  --tftp=HOST[:PORT]          first fetch gmon.out (and gmon.stacks, gmon.tasks) from\n"
"                              the target's TFTP daemon into the current directory\n"
"  --gdb=HOST:PORT             the same through a gdb remote stub (QEMU, OpenOCD,\n"
"                              pyOCD), with gdb-multiarch and gprof.gdb's gprof_dump\n"
"  --watch=SECONDS             with --tftp or --gdb: a live view, refreshed every\n"
"                              SECONDS (q or Ctrl-C quits; the session's whole profile\n"
"                              is left in gmon.out)\n"
"Warnings gprof does not give (saturated bins, merged files with different rates,\n"
"zero profiling rate, arcs outside every symbol, the target's samples outside the\n"
"histogram and calls in no arc, samples and calls in GCC clones gprof folds) and the\n"
"target's profiler overhead go to standard error.\n");
}

enum { OPT_DEMANGLE = 300, OPT_NO_DEMANGLE, OPT_INLINE_FILES,
       OPT_DOT = 256, OPT_SVG, OPT_CALLGRIND, OPT_JSON, OPT_THRESHOLD, OPT_UNIT,
       OPT_STACKS = 320, OPT_FOLDED, OPT_FLAME, OPT_SPEEDSCOPE, OPT_TASKS_FILE, OPT_TASKS,
       OPT_TASK, OPT_CLONES,
       OPT_DIFF = 340, OPT_FAIL_SLOWER, OPT_FAIL_CALLS, OPT_TFTP, OPT_GDB, OPT_WATCH };

static const struct option longopts[] = {
	{"brief", no_argument, 0, 'b'},
	{"flat-profile", optional_argument, 0, 'p'},
	{"no-flat-profile", optional_argument, 0, 'P'},
	{"graph", optional_argument, 0, 'q'},
	{"no-graph", optional_argument, 0, 'Q'},
	{"time", required_argument, 0, 'n'},
	{"no-time", required_argument, 0, 'N'},
	{"display-unused-functions", no_argument, 0, 'z'},
	{"no-static", no_argument, 0, 'a'},
	{"ignore-non-functions", no_argument, 0, 'D'},
	{"file-info", no_argument, 0, 'i'},
	{"line", no_argument, 0, 'l'},
	{"function-ordering", no_argument, 0, 'r'},
	{"file-ordering", required_argument, 0, 'R'},
	{"debug", optional_argument, 0, 'd'},
	{"annotated-source", optional_argument, 0, 'A'},
	{"no-annotated-source", optional_argument, 0, 'J'},
	{"all-lines", no_argument, 0, 'x'},
	{"separate-files", no_argument, 0, 'y'},
	{"directory-path", required_argument, 0, 'I'},
	{"table-length", required_argument, 0, 't'},
	{"min-count", required_argument, 0, 'm'},
	{"static-call-graph", no_argument, 0, 'c'},
	{"exec-counts", optional_argument, 0, 'C'},
	{"no-exec-counts", optional_argument, 0, 'Z'},
	{"sum", no_argument, 0, 's'},
	{"traditional", no_argument, 0, 'T'},
	{"width", required_argument, 0, 'w'},
	{"print-path", no_argument, 0, 'L'},
	{"file-format", required_argument, 0, 'O'},
	{"version", no_argument, 0, 'v'},
	{"help", no_argument, 0, 'h'},
	{"dot", required_argument, 0, OPT_DOT},
	{"svg", required_argument, 0, OPT_SVG},
	{"graph-threshold", required_argument, 0, OPT_THRESHOLD},
	{"callgrind", required_argument, 0, OPT_CALLGRIND},
	{"json", required_argument, 0, OPT_JSON},
	{"time-unit", required_argument, 0, OPT_UNIT},
	{"stacks", required_argument, 0, OPT_STACKS},
	{"folded", required_argument, 0, OPT_FOLDED},
	{"flame-graph", required_argument, 0, OPT_FLAME},
	{"speedscope", required_argument, 0, OPT_SPEEDSCOPE},
	{"tasks-file", required_argument, 0, OPT_TASKS_FILE},
	{"tasks", no_argument, 0, OPT_TASKS},
	{"task", required_argument, 0, OPT_TASK},
	{"clones", required_argument, 0, OPT_CLONES},
	{"diff", no_argument, 0, OPT_DIFF},
	{"fail-slower", required_argument, 0, OPT_FAIL_SLOWER},
	{"fail-calls", no_argument, 0, OPT_FAIL_CALLS},
	{"tftp", required_argument, 0, OPT_TFTP},
	{"gdb", required_argument, 0, OPT_GDB},
	{"watch", required_argument, 0, OPT_WATCH},
	{"demangle", optional_argument, 0, OPT_DEMANGLE},
	{"no-demangle", no_argument, 0, OPT_NO_DEMANGLE},
	{"inline-file-names", no_argument, 0, OPT_INLINE_FILES},
	{"external-symbol-table", required_argument, 0, 'S'},
	{0, 0, 0, 0},
};

/* The gmon file's companion file beside it, of the same snapshot (NAME.out: NAME.EXT; else
 * .EXT appended: gmon.stacks, gmon.tasks), when one gmon file was read and that file
 * exists; else NULL. */
static char *companion_beside(const struct profile *p, const char *ext)
{
	if (p->nfiles != 1)
		return NULL;
	const char *g = p->files[0].name;
	size_t len = strlen(g), base = len >= 4 && !strcmp(g + len - 4, ".out") ? len - 4 : len;
	char *s = xmalloc(base + strlen(ext) + 1);
	memcpy(s, g, base);
	strcpy(s + base, ext);
	if (access(s, F_OK) == 0)
		return s;
	free(s);
	return NULL;
}

/* --folded, --flame-graph, --speedscope: 0, or 1 after an error. */
static int stacks_outputs(const struct options *o, const struct analysis *a)
{
	int rc = 0;
	if (o->folded && stacks_write_folded(a->stacks, a, o->folded))
		rc = 1;
	if (o->flame && stacks_write_flame(a->stacks, a, o->flame))
		rc = 1;
	if (o->speedscope && stacks_write_speedscope(a->stacks, a, o->speedscope))
		rc = 1;
	return rc;
}

static void print_file_info(const struct profile *p, unsigned i)
{
	const struct gmon_file_info *f = &p->files[i];
	printf("File `%s' (version %d) contains:\n", f->name, f->version);
	printf(f->nhist == 1 ? "\t%d histogram record\n" : "\t%d histogram records\n", f->nhist);
	printf(f->narcs == 1 ? "\t%d call-graph record\n" : "\t%d call-graph records\n", f->narcs);
	printf(f->nbbs == 1 ? "\t%d basic-block count record\n" : "\t%d basic-block count records\n",
	       f->nbbs);
}

/* Everything one run holds, from the options to the analysis. */
struct run {
	struct options o;
	struct elf_opts eo;
	int format;                /* -O: 0 auto, 1 magic (GNU), 2 bsd */
	const char *ext_syms, *map_path, *aout;
	char **gmon;               /* the gmon files named (none: gmon.out) */
	int ngmon;
	struct symtab tab;
	struct profile prof;
	struct analysis a;
	struct stacks stacks;
	struct fmap map;
	char *beside;              /* the gmon.stacks found beside the gmon file */
	struct tasks tasks;
	char *tasks_beside;        /* the gmon.tasks found beside the gmon file */
	unsigned char *chosen;     /* --task: a flag per task */
	struct clones_view clones;
	struct analysis *shown;    /* the reports' (and DOT's) analysis: a, or clones.a */
	struct analysis *own;      /* tgprof's files': clones.a unless --clones=fold */
	int style;                 /* STYLE_* printed */
	int diff;                  /* --diff: this run is one of two compared */
	struct diff_limits limits; /* --fail-slower, --fail-calls */
	struct fetch_target fetch; /* --tftp, --gdb: where the profile comes from */
	double watch;              /* --watch: seconds between refreshes (0: no live view) */
	int first_output;          /* nothing printed yet */
};

/* The outputs gprof turns on and off, with or without a SPEC: -p/-P, -q/-Q, -C/-Z, -A/-J.
 * A SPEC with a '/' names arcs (ARCS tables, -q/-Q only). */
static const struct style_opt {
	int on, off, style, incl, excl, incl_arcs, excl_arcs;
} style_opts[] = {
	{'p', 'P', STYLE_FLAT, INCL_FLAT, EXCL_FLAT, -1, -1},
	{'q', 'Q', STYLE_GRAPH, INCL_GRAPH, EXCL_GRAPH, INCL_ARCS, EXCL_ARCS},
	{'C', 'Z', STYLE_EXEC, INCL_EXEC, EXCL_EXEC, -1, -1},
	{'A', 'J', STYLE_ANNO, INCL_ANNO, EXCL_ANNO, -1, -1},
};

/* Options that add their argument to one or two symspec tables (-1: none). */
static const struct spec_opt { int c, table, table2; } spec_opts[] = {
	{'e', EXCL_GRAPH, -1}, {'E', EXCL_GRAPH, EXCL_TIME}, {'f', INCL_GRAPH, -1},
	{'F', INCL_GRAPH, INCL_TIME}, {'k', EXCL_ARCS, -1}, {'n', INCL_TIME, -1},
	{'N', EXCL_TIME, -1},
};

/* Options that name an output file (struct options' field). */
static const struct file_opt { int c; size_t field; } file_opts[] = {
	{OPT_DOT, offsetof(struct options, dot)},
	{OPT_SVG, offsetof(struct options, svg)},
	{OPT_CALLGRIND, offsetof(struct options, callgrind)},
	{OPT_JSON, offsetof(struct options, json)},
	{OPT_STACKS, offsetof(struct options, stacks)},
	{OPT_FOLDED, offsetof(struct options, folded)},
	{OPT_FLAME, offsetof(struct options, flame)},
	{OPT_SPEEDSCOPE, offsetof(struct options, speedscope)},
	{OPT_TASKS_FILE, offsetof(struct options, tasks_file)},
};

/* What an option handler made of an option. */
enum { OPT_DONE, OPT_BAD_VALUE, OPT_NOT_MINE };

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

static const char *const format_names[] = {"auto", "magic", "bsd", NULL};
static const char *const unit_names[] = {"s", "ms", "us", NULL};
static const char *const clones_names[] = {"default", "fold", "own", NULL};

/* The index of ARG in NAMES, or -1. */
static int name_index(const char *arg, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

/* The options of the tables above. */
static int table_option(struct options *o, int c, char *arg)
{
	for (size_t i = 0; i < ARRAY_SIZE(style_opts); i++) {
		const struct style_opt *s = &style_opts[i];
		if (c != s->on && c != s->off)
			continue;
		int arcs = arg && s->incl_arcs >= 0 && strchr(arg, '/');
		if (arg)
			symspec_add(o, arg, c == s->on ? (arcs ? s->incl_arcs : s->incl)
						       : (arcs ? s->excl_arcs : s->excl));
		if (c == s->on || arg)
			o->style |= s->style;
		else
			o->style &= ~s->style;
		o->user_specified |= s->style;
		return OPT_DONE;
	}
	for (size_t i = 0; i < ARRAY_SIZE(spec_opts); i++)
		if (c == spec_opts[i].c) {
			symspec_add(o, arg, spec_opts[i].table);
			if (spec_opts[i].table2 >= 0)
				symspec_add(o, arg, spec_opts[i].table2);
			return OPT_DONE;
		}
	for (size_t i = 0; i < ARRAY_SIZE(file_opts); i++)
		if (c == file_opts[i].c) {
			*(const char **)((char *)o + file_opts[i].field) = arg;
			return OPT_DONE;
		}
	return OPT_NOT_MINE;
}

/* An output style of its own: -i, -r, -R, -s. */
static void style_option(struct run *r, int style)
{
	r->o.style |= style;
	r->o.user_specified |= style;
}

/* The options with values to check. */
static int value_option(struct run *r, int c, char *arg)
{
	struct options *o = &r->o;
	char *end;
	switch (c) {
	case 'O':
		if ((r->format = name_index(arg, format_names)) < 0)
			return error("unknown file format %s", arg), OPT_BAD_VALUE;
		return OPT_DONE;
	case OPT_UNIT:
		if ((o->units = name_index(arg, unit_names)) < 0)
			return error("unknown time unit %s (s, ms or us)", arg), OPT_BAD_VALUE;
		return OPT_DONE;
	case OPT_THRESHOLD:
		o->dot_threshold = strtod(arg, &end);
		if (end == arg || *end || !(o->dot_threshold == o->dot_threshold) ||
		    o->dot_threshold < 0 || o->dot_threshold > 100)
			return error("--graph-threshold=%s: not a percentage (a number from 0 to "
				     "100)", arg), OPT_BAD_VALUE;
		return OPT_DONE;
	case 'w':
		o->width = atoi(arg);
		if (o->width < 1)
			o->width = 1;
		return OPT_DONE;
	case OPT_CLONES:
		if ((o->clones = name_index(arg, clones_names)) < 1)
			return error("unknown --clones=%s (fold or own)", arg), OPT_BAD_VALUE;
		return OPT_DONE;
	case OPT_TASK:
		o->task = arg;
		style_option(r, STYLE_TASKS);
		return OPT_DONE;
	case 't': o->table_length = atoi(arg); return OPT_DONE;
	case 'm': o->min_count = atoi(arg); return OPT_DONE;
	case OPT_FAIL_SLOWER:
		r->limits.slower_pct = strtod(arg, &end);
		if (end == arg || *end || !(r->limits.slower_pct >= 0) ||
		    isinf(r->limits.slower_pct))
			return error("--fail-slower=%s: not a percentage (a number, 0 or more)",
				     arg), OPT_BAD_VALUE;
		r->limits.slower_set = 1;
		return OPT_DONE;
	case OPT_TFTP:
	case OPT_GDB:
		if (r->fetch.kind)
			return error("only one of --tftp and --gdb"), OPT_BAD_VALUE;
		return fetch_parse(&r->fetch, c == OPT_TFTP ? FETCH_TFTP : FETCH_GDB, arg)
			? OPT_BAD_VALUE : OPT_DONE;
	case OPT_WATCH:
		r->watch = strtod(arg, &end);
		if (end == arg || *end || !(r->watch >= 0.1 && r->watch <= 3600))
			return error("--watch=%s: seconds between refreshes, from 0.1 to 3600", arg),
			       OPT_BAD_VALUE;
		return OPT_DONE;
	case 'I':
		for (char *d = strtok(arg, ":"); d; d = strtok(NULL, ":")) {
			o->search = xrealloc(o->search, (o->nsearch + 1) * sizeof *o->search);
			o->search[o->nsearch++] = d;
		}
		return OPT_DONE;
	}
	return OPT_NOT_MINE;
}

/* The flags (and -R, -S, which keep their argument). */
static int flag_option(struct run *r, int c, char *arg)
{
	struct options *o = &r->o;
	switch (c) {
	case 'a': r->eo.ignore_static = 1; break;
	case 'b': o->brief = 1; break;
	case 'c': o->static_calls = 1; r->eo.want_text = 1; break;
	case 'd': break;        /* gprof's debugging output: none here */
	case 'D': r->eo.ignore_non_functions = 1; break;
	case 'i': style_option(r, STYLE_INFO); break;
	case 'l': o->lines = 1; r->eo.want_code_syms = 1; break;
	case 'L': o->print_path = 1; break;
	case 'r': style_option(r, STYLE_ORDER); break;
	case OPT_TASKS: style_option(r, STYLE_TASKS); break;
	case 'R': r->map_path = arg; style_option(r, STYLE_FILE_ORDER); break;
	case 's':
		/* gprof sets line granularity for -s: everything is as with -l */
		style_option(r, STYLE_SUM);
		o->lines = 1;
		r->eo.want_code_syms = 1;
		break;
	case 'S': r->ext_syms = arg; break;
	case 'T': o->bsd = 1; break;
	case 'x': o->all_lines = 1; break;
	case 'y': o->separate_files = 1; break;
	case 'z': o->ignore_zeros = 0; break;
	case OPT_INLINE_FILES: o->inline_files = 1; break;
	case OPT_DIFF: r->diff = 1; break;
	case OPT_FAIL_CALLS: r->limits.calls = 1; break;
	case OPT_DEMANGLE: o->no_demangle = 0; break;
	case OPT_NO_DEMANGLE: o->no_demangle = 1; break;
	default: return OPT_NOT_MINE;
	}
	return OPT_DONE;
}

/* The command line: -1 to go on, or the exit status (after -h, -v or an error). */
static int parse_options(struct run *r, int argc, char **argv)
{
	static const char shortopts[] =
		"abC::De:E:f:F:hik:lLn:N:O:p::P::q::Q::sS:Tvw:zZ::A::J::rR:cxyI:t:m:d::";
	struct options *o = &r->o;
	int c, v = OPT_DONE;
	o->ignore_zeros = 1;
	o->width = 80;
	o->table_length = 10;
	o->min_count = 1;
	o->dot_threshold = 0.5;
	r->eo.want_lines = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout), 0;
		if (c == 'v')
			return printf("tgprof %s (compatible with GNU gprof 2.40)\n",
				      TGPROF_VERSION), 0;
		if ((v = table_option(o, c, optarg)) == OPT_NOT_MINE &&
		    (v = flag_option(r, c, optarg)) == OPT_NOT_MINE)
			v = value_option(r, c, optarg);
		if (v == OPT_NOT_MINE)
			usage(stderr);
		if (v != OPT_DONE)
			return 1;
	}
	if ((o->user_specified & STYLE_ORDER) && (o->user_specified & STYLE_FILE_ORDER))
		return error("only one of --function-ordering (-r) and --file-ordering (-R) may "
			     "be given (as in gprof)"), 1;
	if ((r->limits.slower_set || r->limits.calls) && !r->diff)
		return error("--fail-slower and --fail-calls go with --diff"), 1;
	o->extra_warnings = 1;
	r->aout = optind < argc ? argv[optind++] : "a.out";
	r->gmon = argv + optind;
	r->ngmon = argc - optind;
	if (r->watch && !r->fetch.kind)
		return error("--watch needs a target: --tftp=HOST[:PORT] or --gdb=HOST:PORT"), 1;
	if (r->fetch.kind && (r->ngmon || r->diff))
		return error("--%s fetches gmon.out itself: name only the program (tgprof --%s=%s "
			     "app.elf)%s", r->fetch.kind == FETCH_TFTP ? "tftp" : "gdb",
			     r->fetch.kind == FETCH_TFTP ? "tftp" : "gdb", r->fetch.spec,
			     r->diff ? ", and not with --diff" : ""), 1;
	for (const char **e = default_excluded; *e; e++) {
		symspec_add(o, *e, EXCL_TIME);
		symspec_add(o, *e, EXCL_GRAPH);
		symspec_add(o, *e, EXCL_FLAT);
	}
	return -1;
}

/* Whether any output asked for can show a function's source file or line, or a symspec
 * select by it.  Only a flat profile (with -i's summaries and -r's order) shows none
 * (the call graph's index names the file of every static function): then the DWARF is
 * not read at all. */
static int needs_source_lines(const struct run *r)
{
	const struct options *o = &r->o;
	if (!o->style || (o->style & ~(STYLE_FLAT | STYLE_INFO | STYLE_ORDER)) || o->lines ||
	    o->inline_files || o->dot || o->svg || o->callgrind || o->json || o->folded ||
	    o->flame || o->speedscope || o->task || r->diff || r->watch)
		return 1;
	for (size_t k = 0; k < o->nspecs; k++)
		if (o->specs[k].file || o->specs[k].rfile)
			return 1;
	return 0;
}

/* The symbols: the ELF's (or -S's listing's), -R's mapping, -l's lines, the specs. */
static int read_symbols(struct run *r)
{
	struct symtab *tab = &r->tab;
	r->eo.want_lines = needs_source_lines(r);
	if (r->map_path && fmap_read(&r->map, r->map_path))
		return -1;
	if (symtab_read_elf(tab, r->aout, &r->eo))
		return -1;
	if (r->ext_syms && symtab_read_listing(tab, r->ext_syms))
		return -1;
	if (r->map_path && !r->ext_syms) {
		fmap_apply(&r->map, tab);
		if (!tab->len)
			return error("%s: file has no symbols (every one is mapped to a file after "
				     "another's)", r->aout);
	}
	symtab_finalize(tab);
	if (r->o.lines && symtab_add_lines(tab, r->aout))
		return -1;
	if (r->o.static_calls && tab->machine != 3 /* EM_386 */ &&
	    tab->machine != 62 /* EM_X86_64 */) {
		fprintf(stderr, "%s: -c not supported on this architecture (gprof's is x86 only "
			"here)\n", progname);
		r->o.static_calls = 0;
	}
	symspec_apply(&r->o, tab);
	return 0;
}

/* gmon.stacks: --stacks's, or the one beside the gmon file if it fits. */
static int read_stacks(struct run *r)
{
	const struct options *o = &r->o;
	const char *path = o->stacks ? o->stacks : (r->beside = companion_beside(&r->prof, ".stacks"));
	if (path && stacks_read(&r->stacks, path))
		return -1;
	int fit = path ? stacks_fit_gmon(&r->stacks, &r->prof, o->stacks != NULL) : 1;
	if (fit < 0)
		return -1;      /* --stacks named it: an error; found beside: ignored (1) */
	if (fit == 0)
		r->a.stacks = &r->stacks;
	if ((o->folded || o->flame || o->speedscope) && !r->a.stacks)
		/* before any output: the report is not what was asked for */
		return error("--folded, --flame-graph and --speedscope need gmon.stacks (from "
			     "the target's stack-profiling mode; --stacks=FILE names it)%s",
			     path ? ": the one found beside was not this profile's" : "");
	return 0;
}

/* gmon.tasks: --tasks-file's, or the one beside the gmon file if it fits; --task's
 * choice among its tasks. */
static int read_tasks(struct run *r)
{
	const struct options *o = &r->o;
	const char *path = o->tasks_file ? o->tasks_file
					 : (r->tasks_beside = companion_beside(&r->prof, ".tasks"));
	if (path && tasks_read(&r->tasks, path))
		return -1;
	int fit = path ? tasks_fit_gmon(&r->tasks, &r->prof, o->tasks_file != NULL) : 1;
	if (fit < 0)
		return -1;      /* --tasks-file named it: an error; found beside: ignored (1) */
	if (fit == 0)
		r->a.tasks = &r->tasks;
	if (r->a.tasks && !(o->style & STYLE_TASKS) && !quiet)
		/* standard output stays gprof's: the table only when asked, said here */
		fprintf(stderr, "%s: %s: %u task%s (--tasks prints each one's share of the CPU)\n",
			progname, path, r->tasks.n, r->tasks.n == 1 ? "" : "s");
	/* before any output, as for the stacks' outputs */
	if ((o->style & STYLE_TASKS) && !r->a.tasks)
		return error("--tasks and --task need gmon.tasks (from the target's per-task "
			     "time; --tasks-file=FILE names it)%s",
			     path ? ": the one found beside was not this profile's" : "");
	if (o->task && !r->a.stacks)
		return error("--task=%s: a task's own profile is measured in gmon.stacks (the "
			     "target's stack-profiling mode; --stacks=FILE names it): gmon.out "
			     "and gmon.tasks do not say where a task's time went", o->task);
	if (o->task && tasks_select(&r->tasks, o->task, &r->chosen))
		return -1;
	r->a.chosen_tasks = r->chosen;
	return 0;
}

/* The gmon files (-i: each one's summary as it is read), then gmon.stacks and
 * gmon.tasks. */
static int read_profiles(struct run *r)
{
	struct profile *prof = &r->prof;
	prof->is64 = r->tab.is64;
	prof->big_endian = r->tab.big_endian;
	strcpy(prof->dimension, "seconds");
	prof->abbrev = 's';
	int i = 0;
	do {
		if (gmon_read(prof, i < r->ngmon ? r->gmon[i] : "gmon.out", r->format))
			return -1;
		if (r->o.style & STYLE_INFO) {
			print_file_info(prof, prof->nfiles - 1);
			r->first_output = 0;
		}
	} while (++i < r->ngmon);
	gmon_report_overhead(prof);
	if (read_stacks(r) || read_tasks(r))
		return -1;
	if (prof->nbbs && r->o.lines)
		bb_assign(&r->tab, prof);
	else if (prof->nbbs)
		warning("ignoring basic-block exec counts (use -l or --line)");
	if (prof->input_hist && prof->hz == 0)
		warning("profiling rate is 0: times are infinite or not a number (as in gprof)");
	return 0;
}

/* The outputs: those asked for, else gprof's defaults for the data read. */
static int choose_style(struct run *r)
{
	const struct profile *prof = &r->prof;
	int style = r->o.style;
	if (style == 0) {
		if (prof->input_hist || prof->input_cg) {
			if (prof->input_hist)
				style |= STYLE_FLAT;
			if (prof->input_cg)
				style |= STYLE_GRAPH;
		} else {
			style = STYLE_EXEC;
		}
		style &= ~r->o.user_specified;
	}
	if ((style & STYLE_FLAT) && !prof->input_hist)
		return error("gmon.out file is missing histogram");
	if ((style & STYLE_GRAPH) && !prof->input_cg)
		return error("gmon.out file is missing call-graph data");
	r->style = style;
	return 0;
}

/* The call graph, -s's gmon.sum, the histogram's times and their propagation. */
static int compute(struct run *r)
{
	struct analysis *a = &r->a;
	const struct options *o = &r->o;
	if (choose_style(r))
		return -1;
	a->tab = &r->tab;
	a->prof = &r->prof;
	a->opt = &r->o;
	a->tscale = o->units == 2 ? 1e6 : o->units == 1 ? 1e3 : 1.0;
	a->tunit = o->units == 2 ? "us" : o->units == 1 ? "ms" : r->prof.dimension;
	if (cg_build(a))
		return -1;
	if ((r->style & STYLE_SUM) && gmon_write_sum(&r->prof, a, "gmon.sum"))
		return -1;
	if (r->prof.input_hist)
		hist_assign(a);
	if (r->prof.input_cg)
		cg_assemble(a);
	return 0;
}

/* GCC's clones: the view that keeps them, where the symbols are the ELF's (not -l's lines,
 * -S's listing or -R's files), and which analysis each output takes. */
static int choose_clones(struct run *r)
{
	const struct options *o = &r->o;
	r->shown = r->own = &r->a;
	if (o->clones == CLONES_FOLD || o->lines || r->ext_syms || r->map_path)
		return 0;
	/* the call graph of clones for the outputs that show it; else the counts the warning
	 * needs are enough */
	int shown = o->clones == CLONES_OWN || o->json || o->callgrind || o->folded || o->flame ||
		    o->speedscope || o->task;
	if (clones_view_build(&r->clones, &r->a, r->aout, &r->eo, shown))
		return -1;
	if (!r->clones.active)
		return 0;
	r->own = &r->clones.a;
	if (o->clones == CLONES_OWN)
		r->shown = r->own;
	else
		clones_warn(&r->clones);
	return 0;
}

/* The flat profile, after a form feed if something came before. */
static void print_flat(struct run *r)
{
	if (!r->first_output)
		fputs("\f\n", stdout);
	r->first_output = 0;
	flat_print(r->shown, stdout);
}

/* The reports on standard output, in gprof's order: 0, or 1 after an error. */
static int print_reports(struct run *r)
{
	struct analysis *a = r->shown;
	int style = r->style, bsd = r->o.bsd, rc = 0;
	int want_flat = style & STYLE_FLAT, want_graph = (style & STYLE_GRAPH) && a->cg_sorted;
	if (style & STYLE_TASKS) {
		tasks_print(a->tasks, a->stacks, a->chosen_tasks, stdout);
		if (a->chosen_tasks)
			task_profile_print(r->own, stdout);
		r->first_output = 0;
	}
	if (want_flat && !bsd)
		print_flat(r);
	if (want_graph) {
		cg_print(a, stdout, !r->first_output);
		r->first_output = 0;
		if (!bsd)
			cg_print_index(a, stdout);
	}
	if (want_flat && bsd)
		print_flat(r);
	if (want_graph && bsd)
		cg_print_index(a, stdout);
	if (style & STYLE_EXEC) {
		if (!r->first_output)
			fputs("\f\n", stdout);
		r->first_output = 0;
		exec_counts_print(a, stdout);
	}
	if ((style & STYLE_ANNO) && annotated_source_print(a, &r->first_output))
		rc = 1;
	if (style & STYLE_ORDER)
		function_order_print(a, stdout);
	if (style & STYLE_FILE_ORDER)
		file_order_print(a, &r->map, stdout);
	return rc;
}

/* The files beside the reports (--dot, --svg, --callgrind, --json, the stacks'): 0, or 1
 * after an error. */
static int write_files(struct run *r)
{
	const struct options *o = &r->o;
	struct analysis *a = r->own;
	int rc = 0;
	/* DOT and SVG draw the call graph the report prints */
	if (o->dot && dot_write(r->shown, o->dot, o->dot_threshold))
		rc = 1;
	if (o->svg && svg_write(r->shown, o->svg, o->dot_threshold))
		rc = 1;
	if (o->callgrind && callgrind_write(a, o->callgrind))
		rc = 1;
	if (o->json && json_write(a, o->json))
		rc = 1;
	if (a->stacks && stacks_outputs(o, a))
		rc = 1;
	return rc;
}

static void run_release(struct run *r)
{
	order_release(&r->a);
	stacks_release(&r->stacks);
	free(r->beside);
	tasks_release(&r->tasks);
	free(r->tasks_beside);
	free(r->chosen);
	clones_view_release(&r->clones);
	free(r->a.cg_sorted);
	free(r->a.cycles);
	free(r->a.arcs);
	profile_release(&r->prof);
	symtab_release(&r->tab);
	fmap_release(&r->map);
	free(r->o.search);
	symspec_release(&r->o);
}

/* The symbols, the profile and what is computed from them: 0, or -1 after an error. */
static int analyse(struct run *r)
{
	return read_symbols(r) || read_profiles(r) || compute(r) ? -1 : 0;
}

/* --tftp, --gdb: gmon.out (and its companions) fetched into the current directory, and
 * read from there. */
static int fetch_first(struct run *r)
{
	static char *fetched[] = {"gmon.out"};
	if (!r->fetch.kind)
		return 0;
	r->fetch.elf = r->aout;
	if (fetch_profile(&r->fetch, "."))
		return -1;
	r->gmon = fetched;
	r->ngmon = 1;
	return 0;
}

/* --diff's files: OLD.elf OLD.out NEW.elf NEW.out, or ELF OLD.out NEW.out. */
static int diff_files(struct run r[2])
{
	char **p = r[0].gmon - 1;     /* the executable, then the gmon files */
	int n = r[0].ngmon + 1;
	if (n == 4) {
		r[0].aout = p[0], r[0].gmon = p + 1;
		r[1].aout = p[2], r[1].gmon = p + 3;
	} else if (n == 3) {
		r[0].aout = r[1].aout = p[0];
		r[0].gmon = p + 1;
		r[1].gmon = p + 2;
	} else {
		return error("--diff takes OLD.elf OLD.out NEW.elf NEW.out, or ELF OLD.out "
			     "NEW.out (%d file%s given)", r[0].ngmon ? n : 0, n == 1 ? "" : "s");
	}
	r[0].ngmon = r[1].ngmon = 1;
	return 0;
}

/* --diff: both profiles analysed as a run each, then compared. 0, 1 after an error, 2 if
 * --fail-slower or --fail-calls found a change past its limit. */
static int main_diff(struct run r[2], int argc, char **argv)
{
	optind = 0;                  /* the second run: the same options, parsed afresh */
	if (parse_options(&r[1], argc, argv) >= 0 || diff_files(r) || analyse(&r[0]) ||
	    analyse(&r[1]))
		return 1;
	char names[2][512];
	const char *const name[2] = {names[0], names[1]};
	for (int i = 0; i < 2; i++)
		snprintf(names[i], sizeof names[i], "%s, %s", r[i].aout, r[i].gmon[0]);
	struct diff d;
	diff_build(&d, &r[0].a, &r[1].a);
	diff_print(&d, name, r[1].a.tscale, r[1].a.tunit, stdout);
	int rc = r[0].o.json && diff_write_json(&d, name, &r[0].limits, r[0].o.json) ? 1 : 0;
	if (!rc && diff_failures(&d, &r[0].limits, stderr))
		rc = 2;
	diff_release(&d);
	return rc;
}

/* --watch's analyses: each a run of its own, with the command line's options. */
struct watch_runs {
	int argc;
	char **argv;
	const char *aout;
	struct run slot[2];
	int used[2];
};

static const struct analysis *watch_analyse(void *ctx, int slot, char **gmon, int n,
					    const char *sum_path)
{
	struct watch_runs *w = ctx;
	struct run *r = &w->slot[slot];
	if (w->used[slot])
		run_release(r);
	memset(r, 0, sizeof *r);
	r->first_output = 1;
	w->used[slot] = 1;
	optind = 0;
	if (parse_options(r, w->argc, w->argv) >= 0)
		return NULL;
	r->aout = w->aout;
	r->gmon = gmon;
	r->ngmon = n;
	if (analyse(r) || (sum_path && gmon_write_sum(&r->prof, &r->a, sum_path)))
		return NULL;
	return &r->a;
}

/* --watch: the live view, then nothing more (its gmon.out is there to analyse). */
static int main_watch(struct run *r, int argc, char **argv)
{
	static struct watch_runs w;
	w.argc = argc;
	w.argv = argv;
	w.aout = r->fetch.elf = r->aout;
	const struct watch_analyser an = {watch_analyse, &w};
	int rc = watch_run(&r->fetch, r->watch, r->aout, &an);
	for (int i = 0; i < 2; i++)
		if (w.used[i])
			run_release(&w.slot[i]);
	return rc;
}

int main(int argc, char **argv)
{
	struct run r = {.first_output = 1};
	heap_prepare();
	if (args_expand_files(&argc, &argv) < 0)
		return 1;
	int rc = parse_options(&r, argc, argv);
	if (rc >= 0)
		return rc;
	if (r.diff) {
		struct run two[2] = {r, {.first_output = 1}};
		rc = main_diff(two, argc, argv);
		if (fflush(stdout) || ferror(stdout)) {
			error("write error on standard output");
			rc = 1;
		}
		run_release(&two[0]);
		run_release(&two[1]);
		return rc;
	}
	if (r.watch) {
		rc = main_watch(&r, argc, argv);
		run_release(&r);
		return rc;
	}
	rc = 1;
	if (!fetch_first(&r) && !read_symbols(&r) && !read_profiles(&r) && !compute(&r) &&
	    !choose_clones(&r)) {
		rc = print_reports(&r);
		rc |= write_files(&r);
		if (fflush(stdout) || ferror(stdout)) {
			error("write error on standard output");
			rc = 1;
		}
	}
	/* (exit gives the memory back at once: freeing a table of tens of thousands of
	 * symbols one by one was a twentieth of a run with -l; where a leak checker
	 * looks, everything is freed) */
#if defined(__SANITIZE_ADDRESS__) || defined(TGPROF_FREE_AT_EXIT)
	run_release(&r);
#endif
	return rc;
}
