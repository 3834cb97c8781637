/* -A: annotated source, as gprof prints it: each source file the profile knows (most
 * recently met first), every line prefixed with the call count of the function that
 * starts there and (-l) the counts of its basic blocks ("#####" under the -m minimum),
 * then the top lines and a summary.  -y
 * writes FILE-ann files instead, -I gives directories to look for the sources in. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "analysis.h"
#include "error.h"
#include "msort.h"
#include "options.h"
#include "source.h"
#include "symspec.h"
#include "symtab.h"

struct line_entry {
	unsigned long ncalls;
	int line, is_func, merged;
	uint64_t addr;                  /* 0 in a merged copy, as in gprof */
	const struct bbcounts *bb;      /* -l: the first symbol's basic-block counts */
};

struct srcfile {
	const char *name;
	int num_lines;
	unsigned long ncalls;
	struct line_entry **line;
};

static unsigned long last_count;        /* gprof keeps it across lines and files */

static void annotate_with_count(const struct options *o, char *buf, unsigned width, int line_num,
				const struct srcfile *sf, long *exec_lines, long *lines_done)
{
	const struct line_entry *b = line_num <= sf->num_lines ? sf->line[line_num - 1] : NULL;
	memset(buf, ' ', width);
	buf[width] = 0;
	if (!b)
		return;
	char tmp[NBBS * 30], *p = tmp;
	unsigned long ncalls = 0, last_print = (unsigned long)-1;
	int set = 0;
	++*exec_lines;
	*p = 0;
	/* A function's entry line shows its calls; with -x, a line whose first basic block
	 * starts after it continues the previous block's count. */
	if (b->is_func) {
		p += sprintf(p, "%lu", b->ncalls);
		last_count = b->ncalls;
		last_print = last_count;
		ncalls = b->ncalls;
		set = 1;
	} else if (o->all_lines && b->bb && b->bb->addr[0] && b->bb->addr[0] > b->addr) {
		p += sprintf(p, "%lu", last_count);
		last_print = last_count;
		ncalls = last_count;
		set = 1;
	}
	/* the line's basic blocks (-l), repeated counts left out with -x */
	for (int i = 0; b->bb && i < NBBS && b->bb->addr[i]; i++) {
		last_count = b->bb->calls[i];
		if (!set) {
			ncalls = 0;
			set = 1;
		}
		ncalls += last_count;
		if (o->all_lines && last_count == last_print)
			continue;
		if (p > tmp)
			*p++ = ',';
		p += sprintf(p, "%lu", last_count);
		last_print = last_count;
	}
	if (o->all_lines && p == tmp) {
		p += sprintf(p, "%lu", last_count);
		ncalls = last_count;
		set = 1;
	}
	if (!set)
		return;
	++*lines_done;
	if (ncalls < (unsigned long)o->min_count) {
		strcpy(tmp, "#####");
		p = tmp + 5;
	}
	strcpy(p, " -> ");
	p += 4;
	size_t len = (size_t)(p - tmp);
	if (len >= width) {
		memcpy(buf, tmp, width);
		buf[width] = 0;
	} else {
		memcpy(buf + width - len, tmp, len + 1);
	}
}

static int cmp_ncalls(const void *l, const void *r, void *ctx)
{
	const struct line_entry *a = l, *b = r;
	(void)ctx;
	if (!a)
		return 1;
	if (!b)
		return -1;
	if (a->ncalls < b->ncalls)
		return 1;
	if (a->ncalls > b->ncalls)
		return -1;
	return 0;
}

/* Regular files only: a hostile debug section could name /dev/zero or a FIFO. */
static FILE *open_regular(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return NULL;
	return fopen(path, "rb");
}

static FILE *open_source(const struct options *o, const char *name)
{
	FILE *f = open_regular(name);
	if (f || name[0] == '/' )
		goto done;
	for (size_t i = 0; !f && i < o->nsearch; i++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", o->search[i], name);
		f = open_regular(path);
	}
done:
	if (!f) {
		const char *base = strrchr(name, '/');
		for (size_t i = 0; base && !f && i < o->nsearch; i++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", o->search[i], base + 1);
			f = open_regular(path);
		}
	}
	return f;
}


/* The index in FILES of each symbol's source file, -1 for none. */
static int *syms_file_index(const struct symtab *tab, const struct srcfile *files, size_t nf)
{
	int *which = xmalloc((tab->len + 1) * sizeof *which);
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *s = &tab->base[i];
		which[i] = -1;
		if (!s->file)
			continue;
		for (size_t k = 0; k < nf; k++)
			if (!strcmp(files[k].name, s->file)) {
				which[i] = (int)k;
				break;
			}
	}
	return which;
}

/* Each selected symbol's count onto its line: ENTRIES holds a line's first symbol, a
 * second on the same line makes a merged copy that adds up the rest. */
static void collect_lines(const struct options *o, const struct symtab *tab,
			  struct srcfile *files, size_t nf, const int *which,
			  struct line_entry *entries)
{
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *s = &tab->base[i];
		if (which[i] >= 0 && s->line > files[which[i]].num_lines &&
		    symspec_selects(o, s, INCL_ANNO, EXCL_ANNO))
			files[which[i]].num_lines = s->line;
	}
	for (size_t k = 0; k < nf; k++)
		if (files[k].num_lines > 0)
			files[k].line = xcalloc((size_t)files[k].num_lines, sizeof *files[k].line);
	for (size_t i = 0; i < tab->len; i++) {
		const struct sym *s = &tab->base[i];
		if (which[i] < 0 || !files[which[i]].num_lines || s->line < 1 ||
		    !symspec_selects(o, s, INCL_ANNO, EXCL_ANNO))
			continue;
		struct srcfile *sf = &files[which[i]];
		sf->ncalls += s->ncalls;
		struct line_entry **slot = &sf->line[s->line - 1];
		if (!*slot) {
			entries[i] = (struct line_entry){s->ncalls, s->line, s->is_func, 0, s->addr,
							 s->bb};
			*slot = &entries[i];
		} else if ((*slot)->merged) {
			(*slot)->ncalls += s->ncalls;
		} else {
			struct line_entry *m = xmalloc(sizeof *m);
			*m = **slot;
			m->merged = 1;
			m->addr = 0;
			m->ncalls += s->ncalls;
			*slot = m;
		}
	}
}

/* Where SF's annotation goes: a FILE-ann file (-y), or stdout after a heading. */
static FILE *annotation_output(const struct options *o, const struct srcfile *sf,
			       int *first_file, int *first_output)
{
	if (o->separate_files) {
		const char *base = strrchr(sf->name, '/');
		char path[4096];
		snprintf(path, sizeof path, "%s-ann", base ? base + 1 : sf->name);
		FILE *out = fopen(path, "w");
		if (!out)
			error_errno("%s", path);
		return out;
	}
	if (*first_file)
		*first_file = 0;
	else
		fputc('\n', stdout);
	if (*first_output)
		*first_output = 0;
	else
		fputs("\f\n", stdout);
	fprintf(stdout, "*** File %s:\n", sf->name);
	return stdout;
}

/* The -t table of the most executed lines and the execution summary. */
static void annotation_summary(const struct options *o, FILE *out, struct srcfile *sf,
			       long exec_lines, long lines_done)
{
	if (o->table_length > 0) {
		fprintf(out, "\n\nTop %d Lines:\n\n     Line      Count\n\n", o->table_length);
		/* gprof sorts every line, those without a count last: the lines with one,
		 * sorted alone (stably), come out in the same order */
		void **counted = xmalloc(((size_t)sf->num_lines + 1) * sizeof *counted);
		size_t n = 0;
		for (int i = 0; i < sf->num_lines; i++)
			if (sf->line[i])
				counted[n++] = sf->line[i];
		msort_ptrs(counted, n, cmp_ncalls, NULL);
		for (size_t i = 0; i < n && i < (size_t)o->table_length; i++) {
			const struct line_entry *e = counted[i];
			if (e->ncalls == 0)
				break;
			fprintf(out, "%9d %10lu\n", e->line, e->ncalls);
		}
		free(counted);
	}
	fputs("\nExecution Summary:\n\n", out);
	fprintf(out, "%9ld   Executable lines in this file\n", exec_lines);
	fprintf(out, "%9ld   Lines executed\n", lines_done);
	fprintf(out, "%9.2f   Percent of the file executed\n",
		exec_lines ? 100.0 * lines_done / (double)exec_lines : 100.0);
	fprintf(out, "\n%9lu   Total number of line executions\n", sf->ncalls);
	fprintf(out, "%9.2f   Average executions per line\n",
		exec_lines ? (double)sf->ncalls / (double)exec_lines : 0.0);
}

/* The rest of IN, read whole (a read error ends it, as it ended getline's lines). */
static char *read_all(FILE *in, size_t *len)
{
	struct stat st;
	size_t cap = fstat(fileno(in), &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX / 2
			     ? (size_t)st.st_size + 1 : 4096;
	char *buf = xmalloc(cap);
	size_t n = 0, got;
	while ((got = fread(buf + n, 1, cap - n, in)) > 0) {
		n += got;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	*len = n;
	return buf;
}

/* The annotated lines gathered and written in large pieces (a getline, fputs and fwrite
 * a line, each taking the stream's lock, were a third of a run). */
struct outbuf {
	FILE *out;
	size_t n;
	char b[1 << 16];
};

static void outbuf_flush(struct outbuf *ob)
{
	fwrite(ob->b, 1, ob->n, ob->out);
	ob->n = 0;
}

static void outbuf_put(struct outbuf *ob, const char *s, size_t n)
{
	if (n > sizeof ob->b - ob->n) {
		outbuf_flush(ob);
		if (n > sizeof ob->b) {
			fwrite(s, 1, n, ob->out);
			return;
		}
	}
	memcpy(ob->b + ob->n, s, n);
	ob->n += n;
}

/* One source file, annotated: -1 if its output file cannot be made. */
static int annotate_file(const struct options *o, struct srcfile *sf, int *first_file,
			 int *first_output)
{
	FILE *in = open_source(o, sf->name);
	if (!in) {
		fprintf(stderr, "%s: could not locate `%s'\n", progname, sf->name);
		return 0;
	}
	FILE *out = annotation_output(o, sf, first_file, first_output);
	if (!out) {
		fclose(in);
		return -1;
	}
	long exec_lines = 0, lines_done = 0;
	size_t len;
	char ann[17], *text = read_all(in, &len);
	fclose(in);
	struct outbuf ob = {.out = out};
	const char *at = text, *end = text + len;
	for (int line_num = 1; at < end; line_num++) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		const char *next = nl ? nl + 1 : end;
		annotate_with_count(o, ann, 16, line_num, sf, &exec_lines, &lines_done);
		outbuf_put(&ob, ann, 16);
		outbuf_put(&ob, at, (size_t)(next - at));
		at = next;
	}
	outbuf_flush(&ob);
	free(text);
	annotation_summary(o, out, sf, exec_lines, lines_done);
	if (out != stdout)
		fclose(out);
	return 0;
}

static void srcfiles_free(struct srcfile *files, size_t nf)
{
	for (size_t k = 0; k < nf; k++) {
		if (files[k].line)
			for (int i = 0; i < files[k].num_lines; i++)
				if (files[k].line[i] && files[k].line[i]->merged)
					free(files[k].line[i]);
		free(files[k].line);
	}
	free(files);
}

int annotated_source_print(struct analysis *a, int *first_output)
{
	const struct options *o = a->opt;
	struct symtab *tab = a->tab;
	size_t nf = tab->nfiles;
	struct srcfile *files = xcalloc(nf + 1, sizeof *files);
	for (size_t i = 0; i < nf; i++)
		files[i].name = tab->files[i];
	int *which = syms_file_index(tab, files, nf);
	struct line_entry *entries = xcalloc(tab->len + 1, sizeof *entries);
	collect_lines(o, tab, files, nf, which, entries);
	int rc = 0, first_file = 1;
	for (size_t k = nf; k-- > 0;) {          /* gprof's list: latest first */
		struct srcfile *sf = &files[k];
		if (!sf->num_lines || (o->ignore_zeros && sf->ncalls == 0))
			continue;
		if (annotate_file(o, sf, &first_file, first_output))
			rc = -1;
	}
	srcfiles_free(files, nf);
	free(entries);
	free(which);
	return rc;
}
