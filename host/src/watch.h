/* watch.c: a live view of a running target (--watch SECONDS), like perf top: fetched
 * every interval over TFTP or gdb, each function's share of the last interval and since
 * the start, calls per second, and the target's loss and overhead counters. */
#ifndef TGPROF_WATCH_H
#define TGPROF_WATCH_H

struct analysis;
struct fetch_target;

/* main's analysis pipeline, run afresh on some gmon files: gmon[0..n) analysed as one
 * profile in slot 0 (the last interval) or 1 (since the start), the slot's previous
 * analysis released; with sum_path, their sum also written there. NULL after an error. */
struct watch_analyser {
	const struct analysis *(*analyse)(void *ctx, int slot, char **gmon, int n,
					  const char *sum_path);
	void *ctx;
};

/* Refresh every `interval` seconds until q, Ctrl-C or SIGTERM; then the whole session's
 * profile (every interval summed) is left in the current directory's gmon.out. 0, or 1
 * after an error that stopped it. */
int watch_run(const struct fetch_target *t, double interval, const char *program,
	      const struct watch_analyser *an);

#endif
