/* The live view. Each refresh fetches what the target gathered since the last one (a
 * TFTP get and gdb's gprof_dump both restart the target's counts), analyses it alone (the
 * last interval) and summed with every earlier one (since the start: the running sum is
 * kept as a gmon file, so a refresh reads two files however long the view runs), and
 * draws both. Messages go to a log in the session's directory while the screen is drawn;
 * the last one is shown on the status line. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "analysis.h"
#include "diff.h"
#include "error.h"
#include "fetch.h"
#include "gmon_io.h"
#include "watch.h"

/* Set by SIGINT and SIGTERM: the view ends after the refresh under way. */
static volatile sig_atomic_t watch_stop;

static void on_stop(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* The session: its directory, the terminal's state, what the screen shows. */
struct watch {
	char dir[PATH_MAX - 32];
	char latest[PATH_MAX], sum[PATH_MAX], sum_new[PATH_MAX], log[PATH_MAX];
	int have_sum;
	int tty_in, tty_out;
	struct termios saved;
	int saved_stderr;
	unsigned refreshes;
	double target_seconds;     /* since the start, by the target's sample count */
	char status[200];
};

static int watch_open(struct watch *w)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(w->dir, sizeof w->dir, "%s/tgprof-watch.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(w->dir))
		return error_errno("%s: cannot make the session's directory", w->dir);
	snprintf(w->latest, sizeof w->latest, "%s/gmon.out", w->dir);
	snprintf(w->sum, sizeof w->sum, "%s/sum.out", w->dir);
	snprintf(w->sum_new, sizeof w->sum_new, "%s/sum.new", w->dir);
	snprintf(w->log, sizeof w->log, "%s/messages.log", w->dir);
	w->tty_in = isatty(0);
	w->tty_out = isatty(1);
	if (w->tty_in && tcgetattr(0, &w->saved) == 0) {
		struct termios raw = w->saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);   /* keys at once; ^C still a signal */
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(0, TCSANOW, &raw);
	} else {
		w->tty_in = 0;
	}
	fflush(stderr);
	w->saved_stderr = dup(2);
	int fd = open(w->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
	signal(SIGINT, on_stop);
	signal(SIGTERM, on_stop);
	return 0;
}

/* The last line of the messages, as the status line. */
static void last_message(const struct watch *w, char *out, size_t size)
{
	FILE *f = fopen(w->log, "r");
	char line[512];
	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		size_t n = strcspn(line, "\n");
		if (line[0] == ' ' || !n)
			continue;
		n = n < size ? n : size - 1;
		memcpy(out, line, n);
		out[n] = 0;
	}
	fclose(f);
}

/* Wait up to `seconds`, or until q is pressed or a signal comes: 1 to stop. */
static int wait_key(const struct watch *w, double seconds)
{
	int ms = (int)(seconds * 1000);
	while (!watch_stop) {
		struct pollfd p = {0, POLLIN, 0};
		int r = w->tty_in ? poll(&p, 1, ms) : poll(NULL, 0, ms);
		if (r <= 0)
			return watch_stop;
		char c;
		if (read(0, &c, 1) == 1 && (c == 'q' || c == 'Q'))
			return 1;
	}
	return 1;
}

/* The target's seconds in an analysis: its sample count at the profile's rate (every
 * sample, overhead and outside the range included), else the histogram's. */
static double target_seconds(const struct analysis *a)
{
	uint64_t c[3];
	gmon_counters(a->prof, c);
	if (!a->prof->hz)
		return 0;
	return (c[0] ? (double)c[0] : a->total_time) / a->prof->hz;
}

static int by_last_share(const void *l, const void *r)
{
	const struct diff_row *a = l, *b = r;
	if (a->self[1] != b->self[1])
		return a->self[1] < b->self[1] ? 1 : -1;
	if (a->self[0] != b->self[0])
		return a->self[0] < b->self[0] ? 1 : -1;
	return strcmp(a->name, b->name);
}

static int screen_rows(const struct watch *w)
{
	struct winsize ws;
	if (w->tty_out && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 10)
		return ws.ws_row;
	return 24;
}

static double share(double part, double whole)
{
	return whole > 0 ? 100 * part / whole : 0;
}

static void draw_header(const struct watch *w, const struct fetch_target *t,
			const char *program, double interval, const struct analysis *last,
			const struct analysis *all)
{
	uint64_t cl[3], ca[3];
	gmon_counters(last->prof, cl);
	gmon_counters(all->prof, ca);
	const char *base = strrchr(program, '/');
	printf("tgprof --watch: %s over %s %s; refresh %u, every %g s; q quits\n",
	       base ? base + 1 : program, t->kind == FETCH_TFTP ? "TFTP" : "gdb", t->spec,
	       w->refreshes, interval);
	printf("target time: last %.2f s, since start %.2f s\n", target_seconds(last),
	       w->target_seconds);
	printf("samples: last %llu, since start %llu; profiler overhead %.1f%%; calls not "
	       "recorded %llu\n", (unsigned long long)cl[0], (unsigned long long)ca[0],
	       share((double)ca[1], (double)ca[0]), (unsigned long long)ca[2]);
	printf("%s\n\n", w->status);
	printf("%7s %8s %11s  %s\n", "last %", "total %", "calls/s", "function");
}

/* The screen: the header, then the functions by their share of the last interval. */
static void draw(struct watch *w, const struct fetch_target *t, const char *program,
		 double interval, const struct analysis *last, const struct analysis *all)
{
	struct diff d;
	diff_build(&d, all, last);
	qsort(d.rows, d.n, sizeof *d.rows, by_last_share);
	double secs = target_seconds(last);
	if (w->tty_out)
		fputs("\033[H\033[2J", stdout);
	else if (w->refreshes > 1)
		putchar('\n');
	draw_header(w, t, program, interval, last, all);
	int room = screen_rows(w) - 7;
	for (size_t i = 0; i < d.n && (int)i < room; i++) {
		const struct diff_row *r = &d.rows[i];
		printf("%7.1f %8.1f %11.1f  %s\n", share(r->self[1], d.total[1]),
		       share(r->self[0], d.total[0]), secs > 0 ? r->calls[1] / secs : 0.0, r->name);
	}
	fflush(stdout);
	diff_release(&d);
}

/* One refresh: fetch, analyse the interval and the running sum, draw. 0, or -1 when
 * this refresh failed (said on the status line; the view goes on). */
static int refresh(struct watch *w, const struct fetch_target *t, const char *program,
		   double interval, const struct watch_analyser *an)
{
	if (fetch_profile(t, w->dir))
		return -1;
	char *one[] = {w->latest}, *two[] = {w->sum, w->latest};
	const struct analysis *last = an->analyse(an->ctx, 0, one, 1, NULL);
	const struct analysis *all = last ? an->analyse(an->ctx, 1, w->have_sum ? two : one,
							 w->have_sum ? 2 : 1, w->sum_new) : NULL;
	if (!all || rename(w->sum_new, w->sum))
		return -1;
	w->have_sum = 1;
	w->refreshes++;
	w->target_seconds = target_seconds(all);
	w->status[0] = 0;
	draw(w, t, program, interval, last, all);
	return 0;
}

/* The terminal and standard error as they were; the session's profile into gmon.out. */
static int watch_close(struct watch *w)
{
	if (w->tty_in)
		tcsetattr(0, TCSANOW, &w->saved);
	if (w->saved_stderr >= 0) {
		fflush(stderr);
		dup2(w->saved_stderr, 2);
		close(w->saved_stderr);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	int rc = 0;
	if (w->have_sum) {
		FILE *in = fopen(w->sum, "rb"), *out = fopen("gmon.out", "wb");
		char buf[65536];
		size_t n;
		while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
			if (fwrite(buf, 1, n, out) != n)
				break;
		if (!in || !out || ferror(in) || fclose(out))
			rc = error_errno("gmon.out: the session's profile could not be written "
					 "(it stays in %s)", w->sum);
		else
			fprintf(stderr, "%s: %u refreshes, %.2f s of target time: the whole "
				"session's profile is in gmon.out\n", progname, w->refreshes,
				w->target_seconds);
		if (in)
			fclose(in);
	}
	if (!rc) {
		unlink(w->latest);
		unlink(w->sum);
		unlink(w->sum_new);
		unlink(w->log);
		rmdir(w->dir);
	}
	return rc;
}

int watch_run(const struct fetch_target *t, double interval, const char *program,
	      const struct watch_analyser *an)
{
	struct watch w = {.saved_stderr = -1};
	if (watch_open(&w))
		return 1;
	if (w.tty_out)
		printf("\033[H\033[2Jtgprof --watch: fetching from %s ...\n", t->spec);
	fflush(stdout);
	do {
		if (refresh(&w, t, program, interval, an)) {
			last_message(&w, w.status, sizeof w.status);
			printf("%s%s\n", w.tty_out ? "\r\033[K" : "", w.status);
			fflush(stdout);
		}
	} while (!wait_key(&w, interval));
	return watch_close(&w) ? 1 : 0;
}
