/* tgprof: command line, and the order of work (as gprof's main). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tgprof.h"

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
"Warnings gprof does not give (saturated bins, merged files with different rates,\n"
"zero profiling rate, arcs outside every symbol, data lost on the target) and the\n"
"target's profiler overhead go to standard error.\n");
}

enum { OPT_DEMANGLE = 300, OPT_NO_DEMANGLE, OPT_INLINE_FILES,
       OPT_DOT = 256, OPT_SVG, OPT_CALLGRIND, OPT_JSON, OPT_THRESHOLD, OPT_UNIT,
       OPT_STACKS = 320, OPT_FOLDED, OPT_FLAME, OPT_SPEEDSCOPE };

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
	{"demangle", optional_argument, 0, OPT_DEMANGLE},
	{"no-demangle", no_argument, 0, OPT_NO_DEMANGLE},
	{"inline-file-names", no_argument, 0, OPT_INLINE_FILES},
	{"external-symbol-table", required_argument, 0, 'S'},
	{0, 0, 0, 0},
};

/* The gmon file's calling-context tree beside it (NAME.out: NAME.stacks; else NAME.stacks
 * appended), when one gmon file was read and that file exists; else NULL. */
static char *stacks_beside(const struct profile *p)
{
	if (p->nfiles != 1)
		return NULL;
	const char *g = p->files[0].name;
	size_t len = strlen(g), base = len >= 4 && !strcmp(g + len - 4, ".out") ? len - 4 : len;
	char *s = xmalloc(base + sizeof ".stacks");
	memcpy(s, g, base);
	strcpy(s + base, ".stacks");
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

int main(int argc, char **argv)
{
	struct options o = {0};
	struct elf_opts eo = {.want_lines = 1};
	int format = 0, c;
	const char *ext_syms = NULL, *map_path = NULL;
	o.ignore_zeros = 1;
	o.width = 80;
	o.table_length = 10;
	o.min_count = 1;
	argv = args_expand(&argc, argv);
	o.dot_threshold = 0.5;

	while ((c = getopt_long(argc, argv, "abC::De:E:f:F:hik:lLn:N:O:p::P::q::Q::sS:Tvw:zZ::A::J::rR:cxyI:t:m:d::", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a': eo.ignore_static = 1; break;
		case 'b': o.brief = 1; break;
		case 'C':
			if (optarg)
				symspec_add(&o, optarg, INCL_EXEC);
			o.style |= STYLE_EXEC;
			o.user_specified |= STYLE_EXEC;
			break;
		case 'Z':
			if (optarg) {
				symspec_add(&o, optarg, EXCL_EXEC);
				o.style |= STYLE_EXEC;
			} else {
				o.style &= ~STYLE_EXEC;
			}
			o.user_specified |= STYLE_EXEC;
			break;
		case 'l': o.lines = 1; eo.want_code_syms = 1; break;
		case 'S': ext_syms = optarg; break;
		case 'r': o.style |= STYLE_ORDER; o.user_specified |= STYLE_ORDER; break;
		case 'c': o.static_calls = 1; eo.want_text = 1; break;
		case 'A':
			if (optarg)
				symspec_add(&o, optarg, INCL_ANNO);
			o.style |= STYLE_ANNO;
			o.user_specified |= STYLE_ANNO;
			break;
		case 'J':
			if (optarg) {
				symspec_add(&o, optarg, EXCL_ANNO);
				o.style |= STYLE_ANNO;
			} else {
				o.style &= ~STYLE_ANNO;
			}
			o.user_specified |= STYLE_ANNO;
			break;
		case 'x': o.all_lines = 1; break;
		case 'y': o.separate_files = 1; break;
		case 't': o.table_length = atoi(optarg); break;
		case 'm': o.min_count = atoi(optarg); break;
		case 'I':
			for (char *d = strtok(optarg, ":"); d; d = strtok(NULL, ":")) {
				o.search = xrealloc(o.search, (o.nsearch + 1) * sizeof *o.search);
				o.search[o.nsearch++] = d;
			}
			break;
		case 'R':
			map_path = optarg;
			o.style |= STYLE_FILE_ORDER;
			o.user_specified |= STYLE_FILE_ORDER;
			break;
		case 'd': break;        /* gprof's debugging output: none here */
		case 'D': eo.ignore_non_functions = 1; break;
		case 'e': symspec_add(&o, optarg, EXCL_GRAPH); break;
		case 'E': symspec_add(&o, optarg, EXCL_GRAPH); symspec_add(&o, optarg, EXCL_TIME); break;
		case 'f': symspec_add(&o, optarg, INCL_GRAPH); break;
		case 'F': symspec_add(&o, optarg, INCL_GRAPH); symspec_add(&o, optarg, INCL_TIME); break;
		case 'h': usage(stdout); return 0;
		case 'i': o.style |= STYLE_INFO; o.user_specified |= STYLE_INFO; break;
		case 'k': symspec_add(&o, optarg, EXCL_ARCS); break;
		case 'L': o.print_path = 1; break;
		case 'n': symspec_add(&o, optarg, INCL_TIME); break;
		case 'N': symspec_add(&o, optarg, EXCL_TIME); break;
		case 'O':
			if (!strcmp(optarg, "auto")) format = 0;
			else if (!strcmp(optarg, "magic")) format = 1;
			else if (!strcmp(optarg, "bsd")) format = 2;
			else { error("unknown file format %s", optarg); return 1; }
			break;
		case 'p':
			if (optarg)
				symspec_add(&o, optarg, INCL_FLAT);
			o.style |= STYLE_FLAT;
			o.user_specified |= STYLE_FLAT;
			break;
		case 'P':
			if (optarg) {
				symspec_add(&o, optarg, EXCL_FLAT);
				o.style |= STYLE_FLAT;
			} else {
				o.style &= ~STYLE_FLAT;
			}
			o.user_specified |= STYLE_FLAT;
			break;
		case 'q':
			if (optarg)
				symspec_add(&o, optarg, strchr(optarg, '/') ? INCL_ARCS : INCL_GRAPH);
			o.style |= STYLE_GRAPH;
			o.user_specified |= STYLE_GRAPH;
			break;
		case 'Q':
			if (optarg) {
				symspec_add(&o, optarg, strchr(optarg, '/') ? EXCL_ARCS : EXCL_GRAPH);
				o.style |= STYLE_GRAPH;
			} else {
				o.style &= ~STYLE_GRAPH;
			}
			o.user_specified |= STYLE_GRAPH;
			break;
		case 's':
			/* gprof sets line granularity for -s: everything is as with -l */
			o.style |= STYLE_SUM;
			o.user_specified |= STYLE_SUM;
			o.lines = 1;
			eo.want_code_syms = 1;
			break;
		case 'T': o.bsd = 1; break;
		case 'v': printf("tgprof %s (compatible with GNU gprof 2.40)\n", TGPROF_VERSION); return 0;
		case 'w':
			o.width = atoi(optarg);
			if (o.width < 1)
				o.width = 1;
			break;
		case 'z': o.ignore_zeros = 0; break;
		case OPT_INLINE_FILES: o.inline_files = 1; break;
		case OPT_DEMANGLE: o.no_demangle = 0; break;
		case OPT_NO_DEMANGLE: o.no_demangle = 1; break;
		case OPT_DOT: o.dot = optarg; break;
		case OPT_SVG: o.svg = optarg; break;
		case OPT_CALLGRIND: o.callgrind = optarg; break;
		case OPT_JSON: o.json = optarg; break;
		case OPT_STACKS: o.stacks = optarg; break;
		case OPT_FOLDED: o.folded = optarg; break;
		case OPT_FLAME: o.flame = optarg; break;
		case OPT_SPEEDSCOPE: o.speedscope = optarg; break;
		case OPT_THRESHOLD: {
			char *end;
			o.dot_threshold = strtod(optarg, &end);
			if (end == optarg || *end || !(o.dot_threshold == o.dot_threshold) ||
			    o.dot_threshold < 0 || o.dot_threshold > 100) {
				error("--graph-threshold=%s: not a percentage (a number from 0 to 100)",
				      optarg);
				return 1;
			}
			break;
		}
		case OPT_UNIT:
			if (!strcmp(optarg, "s")) o.units = 0;
			else if (!strcmp(optarg, "ms")) o.units = 1;
			else if (!strcmp(optarg, "us")) o.units = 2;
			else { error("unknown time unit %s (s, ms or us)", optarg); return 1; }
			break;
		default: usage(stderr); return 1;
		}
	}
	if ((o.user_specified & STYLE_ORDER) && (o.user_specified & STYLE_FILE_ORDER)) {
		error("only one of --function-ordering (-r) and --file-ordering (-R) may be given "
		      "(as in gprof)");
		return 1;
	}
	o.extra_warnings = 1;
	const char *aout = optind < argc ? argv[optind++] : "a.out";
	for (const char **e = default_excluded; *e; e++) {
		symspec_add(&o, *e, EXCL_TIME);
		symspec_add(&o, *e, EXCL_GRAPH);
		symspec_add(&o, *e, EXCL_FLAT);
	}

	int rc = 1;
	struct symtab tab;
	struct profile prof = {0};
	struct analysis a = {0};
	struct stacks stacks = {0};
	struct fmap map = {0};
	char *beside = NULL;
	if (map_path && fmap_read(&map, map_path))
		goto out_opts;
	if (symtab_read_elf(&tab, aout, &eo))
		goto out_opts;
	if (ext_syms && symtab_read_listing(&tab, ext_syms))
		goto out;
	if (map_path && !ext_syms) {
		fmap_apply(&map, &tab);
		if (!tab.len) {
			error("%s: file has no symbols (every one is mapped to a file after "
			      "another's)", aout);
			goto out;
		}
	}
	symtab_finalize(&tab);
	if (o.lines && symtab_add_lines(&tab, aout))
		goto out;
	if (o.static_calls && tab.machine != 3 /* EM_386 */ && tab.machine != 62 /* EM_X86_64 */) {
		fprintf(stderr, "%s: -c not supported on this architecture (gprof's is x86 only "
			"here)\n", progname);
		o.static_calls = 0;
	}
	symspec_apply(&o, &tab);

	prof.is64 = tab.is64;
	prof.big_endian = tab.big_endian;
	strcpy(prof.dimension, "seconds");
	prof.abbrev = 's';
	int first_output = 1;
	do {
		const char *g = optind < argc ? argv[optind] : "gmon.out";
		if (gmon_read(&prof, g, format))
			goto out;
		if (o.style & STYLE_INFO) {
			print_file_info(&prof, prof.nfiles - 1);
			first_output = 0;
		}
	} while (++optind < argc);
	gmon_report_overhead(&prof);
	const char *stacks_path = o.stacks ? o.stacks : (beside = stacks_beside(&prof));
	if (stacks_path && stacks_read(&stacks, stacks_path))
		goto out;
	int fit = stacks_path ? stacks_fit_gmon(&stacks, &prof, o.stacks != NULL) : 1;
	if (fit < 0)
		goto out;       /* --stacks named it: an error; found beside: ignored (1) */
	if (fit == 0)
		a.stacks = &stacks;
	if ((o.folded || o.flame || o.speedscope) && !a.stacks) {
		/* before any output: the report is not what was asked for */
		error("--folded, --flame-graph and --speedscope need gmon.stacks (from the "
		      "target's stack-profiling mode; --stacks=FILE names it)%s",
		      stacks_path ? ": the one found beside was not this profile's" : "");
		goto out;
	}
	if (prof.nbbs && o.lines)
		bb_assign(&tab, &prof);
	else if (prof.nbbs)
		warning("ignoring basic-block exec counts (use -l or --line)");
	if (prof.input_hist && prof.hz == 0)
		warning("profiling rate is 0: times are infinite or not a number (as in gprof)");

	int style = o.style;
	if (style == 0) {
		if (prof.input_hist || prof.input_cg) {
			if (prof.input_hist)
				style |= STYLE_FLAT;
			if (prof.input_cg)
				style |= STYLE_GRAPH;
		} else {
			style = STYLE_EXEC;
		}
		style &= ~o.user_specified;
	}
	if ((style & STYLE_FLAT) && !prof.input_hist) {
		error("gmon.out file is missing histogram");
		goto out;
	}
	if ((style & STYLE_GRAPH) && !prof.input_cg) {
		error("gmon.out file is missing call-graph data");
		goto out;
	}
	a.tab = &tab;
	a.prof = &prof;
	a.opt = &o;
	a.tscale = o.units == 2 ? 1e6 : o.units == 1 ? 1e3 : 1.0;
	a.tunit = o.units == 2 ? "us" : o.units == 1 ? "ms" : prof.dimension;
	if (cg_build(&a))
		goto out;
	if ((style & STYLE_SUM) && gmon_write_sum(&prof, &a, "gmon.sum"))
		goto out;
	if (prof.input_hist)
		hist_assign(&a);
	if (prof.input_cg)
		cg_assemble(&a);

	int want_flat = style & STYLE_FLAT, want_graph = (style & STYLE_GRAPH) && a.cg_sorted;
	if (want_flat && !o.bsd) {
		if (!first_output)
			fputs("\f\n", stdout);
		first_output = 0;
		flat_print(&a, stdout);
	}
	if (want_graph) {
		cg_print(&a, stdout, !first_output);
		first_output = 0;
		if (!o.bsd)
			cg_print_index(&a, stdout);
	}
	if (want_flat && o.bsd) {
		if (!first_output)
			fputs("\f\n", stdout);
		first_output = 0;
		flat_print(&a, stdout);
	}
	if (want_graph && o.bsd)
		cg_print_index(&a, stdout);
	if (style & STYLE_EXEC) {
		if (!first_output)
			fputs("\f\n", stdout);
		first_output = 0;
		exec_counts_print(&a, stdout);
	}
	if ((style & STYLE_ANNO) && annotated_source_print(&a, &first_output))
		rc = 2;
	if (style & STYLE_ORDER)
		function_order_print(&a, stdout);
	if (style & STYLE_FILE_ORDER)
		file_order_print(&a, &map, stdout);
	rc = rc == 2;
	if (o.dot && dot_write(&a, o.dot, o.dot_threshold))
		rc = 1;
	if (o.svg && svg_write(&a, o.svg, o.dot_threshold))
		rc = 1;
	if (o.callgrind && callgrind_write(&a, o.callgrind))
		rc = 1;
	if (o.json && json_write(&a, o.json))
		rc = 1;
	if (a.stacks && stacks_outputs(&o, &a))
		rc = 1;
	if (fflush(stdout) || ferror(stdout)) {
		error("write error on standard output");
		rc = 1;
	}
out:
	order_release(&a);
	stacks_release(&stacks);
	free(beside);
	free(a.cg_sorted);
	free(a.cycles);
	free(a.arcs);
	profile_release(&prof);
	symtab_release(&tab);
out_opts:
	fmap_release(&map);
	free(o.search);
	symspec_release(&o);
	return rc;
}
