/* fetch.c: the profile fetched from a running target, by TFTP from the package's daemon
 * or through a gdb remote stub (QEMU's, OpenOCD's, pyOCD's), into a directory. */
#ifndef TGPROF_FETCH_H
#define TGPROF_FETCH_H

enum fetch_kind { FETCH_NONE, FETCH_TFTP, FETCH_GDB };

struct fetch_target {
	enum fetch_kind kind;
	char host[256];
	unsigned port;
	const char *elf;           /* gdb: the program, for its symbols */
	const char *spec;          /* HOST[:PORT] as given, for messages */
};

/* HOST[:PORT] (--tftp, port 69 by default) or HOST:PORT (--gdb): 0, or -1 after an error. */
int fetch_parse(struct fetch_target *t, enum fetch_kind kind, const char *spec);
/* gmon.out into dir, and gmon.stacks and gmon.tasks when the target has them; the
 * target's counts restart (the daemon's get and gdb's gprof_dump both reset). A failed
 * fetch leaves dir's files as they were. 0, or -1 after an error (said). */
int fetch_profile(const struct fetch_target *t, const char *dir);

#endif
