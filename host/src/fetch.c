/* The profile fetched from a running target: a TFTP client (RFC 1350, octet mode) for the
 * package's daemon, or gdb with gprof.gdb through a remote stub. Files land in a private
 * directory first and are moved into place only when the fetch is whole, so that a
 * failed fetch changes nothing. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <unistd.h>
#include "error.h"
#include "fetch.h"

/* What one fetch gets: gmon.out, then its companions (which belong to it: a stale one
 * beside a new gmon.out is removed). */
static const char *const profile_files[] = {"gmon.out", "gmon.stacks", "gmon.tasks"};
#define NFILES (sizeof profile_files / sizeof profile_files[0])
/* A file in a directory whose name is under PATH_MAX: room for the longest name above. */
#define JOINED_MAX (PATH_MAX + 16)

int fetch_parse(struct fetch_target *t, enum fetch_kind kind, const char *spec)
{
	const char *opt = kind == FETCH_TFTP ? "--tftp" : "--gdb";
	const char *colon = strrchr(spec, ':');
	size_t hlen = colon ? (size_t)(colon - spec) : strlen(spec);
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->spec = spec;
	t->port = kind == FETCH_TFTP ? 69 : 0;
	if (spec[0] == '[' && colon && colon > spec && colon[-1] == ']')
		spec++, hlen -= 2;             /* [IPv6]:PORT */
	if (hlen == 0 || hlen >= sizeof t->host)
		return error("%s=%s: no host name (HOST%s)", opt, t->spec,
			     kind == FETCH_TFTP ? "[:PORT]" : ":PORT");
	memcpy(t->host, spec, hlen);
	if (colon) {
		char *end;
		unsigned long p = strtoul(colon + 1, &end, 10);
		if (end == colon + 1 || *end || p == 0 || p > 65535)
			return error("%s=%s: the port must be a number from 1 to 65535", opt,
				     t->spec);
		t->port = (unsigned)p;
	}
	if (!t->port)
		return error("%s=%s: name the gdb stub's port (HOST:PORT, e.g. localhost:1234 for "
			     "QEMU's -gdb tcp::1234, 3333 for OpenOCD)", opt, t->spec);
	return 0;
}

/* ---- TFTP -------------------------------------------------------------------------- */

enum { TFTP_RRQ = 1, TFTP_DATA = 3, TFTP_ACK = 4, TFTP_ERROR = 5, TFTP_OACK = 6 };
/* RFC 1350's block, and the one asked for (RFC 2348): a 1500-byte Ethernet frame's worth,
 * for 2.8 times fewer round trips; a server without options answers with 512. */
enum { TFTP_BLOCK = 512, TFTP_BLKSIZE = 1428, TFTP_TRIES = 5, TFTP_WAIT_MS = 1000,
       TFTP_DALLY_MS = 200 };
#define TFTP_BLKSIZE_TEXT "1428"  /* (TFTP_BLKSIZE, as the request spells it) */

/* One transfer's state. */
struct tftp_xfer {
	int fd;
	struct sockaddr_storage server, tid;
	socklen_t server_len, tid_len;
	int have_tid;
	unsigned char last[4 + 520];   /* the packet to send again on a timeout */
	size_t last_len;
	unsigned expected;             /* the next DATA block's number */
	unsigned blksize;              /* TFTP_BLOCK, or what the server's OACK granted */
	FILE *out;
};

static int same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)a)->sin_addr,
			       &((const struct sockaddr_in *)b)->sin_addr, sizeof(struct in_addr));
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
}

static int same_tid(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (!same_host(a, b))
		return 0;
	return a->ss_family == AF_INET
		? ((const struct sockaddr_in *)a)->sin_port == ((const struct sockaddr_in *)b)->sin_port
		: ((const struct sockaddr_in6 *)a)->sin6_port ==
			  ((const struct sockaddr_in6 *)b)->sin6_port;
}

static void xfer_send(struct tftp_xfer *x, const void *pkt, size_t len)
{
	const struct sockaddr_storage *to = x->have_tid ? &x->tid : &x->server;
	socklen_t to_len = x->have_tid ? x->tid_len : x->server_len;
	if (pkt != x->last) {
		memcpy(x->last, pkt, len);
		x->last_len = len;
	}
	(void)sendto(x->fd, x->last, x->last_len, 0, (const struct sockaddr *)to, to_len);
}

static void xfer_ack(struct tftp_xfer *x, unsigned block)
{
	unsigned char ack[4] = {0, TFTP_ACK, (unsigned char)(block >> 8), (unsigned char)block};
	xfer_send(x, ack, sizeof ack);
}

/* A packet from a port other than the transfer's gets an ERROR (RFC 1350, 4). */
static void send_unknown_tid(int fd, const struct sockaddr_storage *from, socklen_t len)
{
	static const unsigned char err[] = "\0\5\0\5unknown transfer ID";
	(void)sendto(fd, err, sizeof err, 0, (const struct sockaddr *)from, len);
}

/* The next packet of this transfer into buf: its length, 0 on a timeout, -1 on an error. */
static ssize_t xfer_recv(struct tftp_xfer *x, unsigned char *buf, size_t size, int wait_ms)
{
	for (;;) {
		struct pollfd p = {x->fd, POLLIN, 0};
		int r = poll(&p, 1, wait_ms);
		if (r <= 0)
			return r < 0 && errno != EINTR ? -1 : 0;
		struct sockaddr_storage from;
		socklen_t from_len = sizeof from;
		ssize_t n = recvfrom(x->fd, buf, size, 0, (struct sockaddr *)&from, &from_len);
		if (n < 0)
			return errno == EINTR ? 0 : -1;
		if (!x->have_tid && same_host(&from, &x->server)) {
			x->tid = from;
			x->tid_len = from_len;
			x->have_tid = 1;
		}
		if (x->have_tid && same_tid(&from, &x->tid))
			return n;
		send_unknown_tid(x->fd, &from, from_len);
	}
}

/* One DATA packet: 1 when it was the last, 0 to go on, -1 after an error. */
static int xfer_data(struct tftp_xfer *x, const unsigned char *pkt, size_t n, const char *name)
{
	unsigned block = (unsigned)pkt[2] << 8 | pkt[3];
	if (block == ((x->expected - 1) & 0xffff)) {
		xfer_ack(x, block);            /* our ACK was lost: the block again */
		return 0;
	}
	if (block != (x->expected & 0xffff))
		return 0;                      /* a stray old block: the next timeout resends */
	if (fwrite(pkt + 4, 1, n - 4, x->out) != n - 4)
		return error_errno("%s: write failed", name);
	xfer_ack(x, block);
	x->expected++;
	return n - 4 < x->blksize;
}

/* After the last ACK: answer the server's repeats of the last block for a moment, so that
 * a lost final ACK does not make the daemon keep the data for the next get too. */
static void xfer_dally(struct tftp_xfer *x)
{
	unsigned char buf[4 + TFTP_BLKSIZE];
	while (xfer_recv(x, buf, sizeof buf, TFTP_DALLY_MS) > 0)
		xfer_send(x, x->last, x->last_len);
}

/* An OACK (RFC 2347): the block size granted, at most the one asked for, then ACK 0. 0,
 * or -1 when it grants what was not asked. */
static int xfer_oack(struct tftp_xfer *x, const unsigned char *pkt, size_t n, const char *spec)
{
	const char *p = (const char *)pkt + 2, *end = (const char *)pkt + n;
	while (p < end) {
		const char *val = memchr(p, 0, (size_t)(end - p));
		if (!val++ || val >= end || !memchr(val, 0, (size_t)(end - val)))
			return error("TFTP from %s: a malformed OACK", spec);
		if (!strcasecmp(p, "blksize")) {
			unsigned long b = strtoul(val, NULL, 10);
			if (b < 8 || b > TFTP_BLKSIZE)
				return error("TFTP from %s: the OACK grants blksize %s (asked %d)", spec,
					     val, TFTP_BLKSIZE);
			x->blksize = (unsigned)b;
		}
		p = val + strlen(val) + 1;
	}
	xfer_ack(x, 0);
	return 0;
}

/* The packets of a read request until the file is whole: 0, 1 when the server refused an
 * optional file, -1 after an error. */
static int xfer_run(struct tftp_xfer *x, const char *spec, const char *name, int optional)
{
	unsigned char buf[4 + TFTP_BLKSIZE + 1];
	for (int tries = 0;;) {
		ssize_t n = xfer_recv(x, buf, sizeof buf, TFTP_WAIT_MS);
		if (n < 0)
			return error_errno("TFTP %s from %s", name, spec);
		if (n == 0) {
			if (++tries == TFTP_TRIES)
				return error("TFTP %s from %s: no answer in %d s (is the daemon up, "
					     "and the port forwarded?)", name, spec,
					     TFTP_TRIES * TFTP_WAIT_MS / 1000);
			xfer_send(x, x->last, x->last_len);
			continue;
		}
		tries = 0;
		unsigned op = n >= 4 ? (unsigned)buf[0] << 8 | buf[1] : 0;
		if (op == TFTP_ERROR) {
			unsigned code = (unsigned)buf[2] << 8 | buf[3];
			buf[n < (ssize_t)sizeof buf ? n : (ssize_t)sizeof buf - 1] = 0;
			if (optional)
				return 1;
			return error("TFTP %s from %s: the daemon says: %.200s (error %u)", name,
				     spec, (const char *)buf + 4, code);
		}
		if (op == TFTP_OACK && x->expected == 1) {
			if (xfer_oack(x, buf, (size_t)n, spec))
				return -1;
			continue;
		}
		if (op == TFTP_DATA && n <= 4 + (ssize_t)x->blksize) {
			int r = xfer_data(x, buf, (size_t)n, name);
			if (r)
				return r < 0 ? -1 : (xfer_dally(x), 0);
			continue;
		}
		return error("TFTP %s from %s: an unexpected packet (opcode %u, %zd bytes)%s",
			     name, spec, op, n, op == TFTP_DATA ? ": a block larger than agreed" : "");
	}
}

/* name from the daemon into path: 0, 1 when an optional file is not served, -1 after an
 * error. */
static int tftp_get(const struct fetch_target *t, const char *name, const char *path,
		    int optional)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM}, *ai;
	char port[8];
	snprintf(port, sizeof port, "%u", t->port);
	int gai = getaddrinfo(t->host, port, &hints, &ai);
	if (gai)
		return error("--tftp=%s: %s: %s", t->spec, t->host, gai_strerror(gai));
	struct tftp_xfer x = {.fd = socket(ai->ai_family, SOCK_DGRAM, 0), .expected = 1,
			      .blksize = TFTP_BLOCK};
	memcpy(&x.server, ai->ai_addr, ai->ai_addrlen);
	x.server_len = ai->ai_addrlen;
	freeaddrinfo(ai);
	if (x.fd < 0)
		return error_errno("--tftp=%s: socket", t->spec);
	int rc = -1;
	if (!(x.out = fopen(path, "wb"))) {
		error_errno("%s", path);
	} else {
		/* opcode, then NUL-terminated fields: the name, the mode, blksize and its value */
		const char *fields[] = {name, "octet", "blksize", TFTP_BLKSIZE_TEXT};
		unsigned char rrq[2 + 64] = {0, TFTP_RRQ};
		size_t len = 2;
		for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
			size_t f = strlen(fields[i]) + 1;
			memcpy(rrq + len, fields[i], f);   /* (the names are ours: they fit) */
			len += f;
		}
		xfer_send(&x, rrq, len);
		rc = xfer_run(&x, t->spec, name, optional);
		if (fclose(x.out) && rc == 0)
			rc = error_errno("%s: write failed", path);
	}
	close(x.fd);
	return rc;
}

/* Every file the daemon serves, into tmp. */
static int tftp_fetch(const struct fetch_target *t, const char *tmp)
{
	char path[JOINED_MAX];
	for (size_t i = 0; i < NFILES; i++) {
		snprintf(path, sizeof path, "%s/%s", tmp, profile_files[i]);
		int r = tftp_get(t, profile_files[i], path, i > 0);
		if (r < 0)
			return -1;
		if (r > 0)
			unlink(path);          /* not served: this target has none */
	}
	return 0;
}

/* ---- gdb --------------------------------------------------------------------------- */

/* gprof.gdb: $TGPROF_GDB_SCRIPT, else installed beside tgprof (PREFIX/share/gprof-rtos),
 * else the source tree's (tgprof in BUILD/host, BUILD in the tree). */
static int find_gdb_script(char out[JOINED_MAX], size_t size)
{
	const char *env = getenv("TGPROF_GDB_SCRIPT");
	if (env && *env)
		return snprintf(out, size, "%s", env) < (int)size && access(out, R_OK) == 0 ? 0
			: error("TGPROF_GDB_SCRIPT=%s: cannot read it", env);
	char exe[PATH_MAX - 40];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		static const char *const rel[] = {"../share/gprof-rtos/gprof.gdb",
						  "../../gdb/gprof.gdb"};
		for (size_t i = 0; i < 2; i++)
			if (snprintf(out, size, "%s/%s", exe, rel[i]) < (int)size &&
			    access(out, R_OK) == 0)
				return 0;
	}
	return error("--gdb: gprof.gdb not found beside tgprof (PREFIX/share/gprof-rtos/) nor "
		     "in its source tree: set TGPROF_GDB_SCRIPT to the board install tree's "
		     "share/gprof.gdb");
}

/* The last lines of gdb's log on standard error: what went wrong, in gdb's words. */
static void show_log_tail(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[512], keep[6][512];
	int n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		memcpy(keep[n++ % 6], line, sizeof line);
	fclose(f);
	for (int i = n > 6 ? n - 6 : 0; i < n; i++)
		fprintf(stderr, "  gdb: %s", keep[i % 6]);
}

/* gdb in tmp: connect, gprof_dump (the target's counts restart, as a TFTP get's do),
 * detach (the target runs on). */
static int gdb_fetch(const struct fetch_target *t, const char *tmp)
{
	char script[JOINED_MAX], elf[PATH_MAX], remote[300], log[JOINED_MAX];
	if (find_gdb_script(script, sizeof script))
		return -1;
	if (!realpath(t->elf, elf))
		return error_errno("%s", t->elf);
	snprintf(remote, sizeof remote, "target remote %s:%u", t->host, t->port);
	snprintf(log, sizeof log, "%s/gdb.log", tmp);
	const char *gdb = getenv("TGPROF_GDB");
	gdb = gdb && *gdb ? gdb : "gdb-multiarch";
	pid_t pid = fork();
	if (pid < 0)
		return error_errno("fork");
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || chdir(tmp) || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(126);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0)
			dup2(null, 0);
		execlp(gdb, gdb, "-nx", "-batch", "-ex", "set pagination off", "-ex",
		       "set confirm off", "-ex", "set tcp connect-timeout 5", "-x", script, elf,
		       "-ex", remote, "-ex", "gprof_dump", "-ex", "detach", (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", gdb, strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char out[JOINED_MAX];
	snprintf(out, sizeof out, "%s/gmon.out", tmp);
	if (access(out, R_OK) == 0)
		return 0;
	error("--gdb=%s: gdb did not write gmon.out (%s):", t->spec,
	      WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "gdb-multiarch not found: "
		      "install it, or set TGPROF_GDB" : "its last lines follow");
	show_log_tail(log);
	return -1;
}

/* ---- into place -------------------------------------------------------------------- */

static void remove_tmp(const char *tmp)
{
	char path[JOINED_MAX];
	static const char *const extra[] = {"gdb.log"};
	for (size_t i = 0; i < NFILES + 1; i++) {
		snprintf(path, sizeof path, "%s/%s", tmp, i < NFILES ? profile_files[i] : extra[0]);
		unlink(path);
	}
	rmdir(tmp);
}

/* tmp's files into dir: gmon.out and each companion fetched; a companion not fetched is
 * removed from dir (it described the gmon.out replaced). */
static int move_into(const char *tmp, const char *dir)
{
	char from[JOINED_MAX], to[JOINED_MAX];
	for (size_t i = 0; i < NFILES; i++) {
		snprintf(from, sizeof from, "%s/%s", tmp, profile_files[i]);
		snprintf(to, sizeof to, "%s/%s", dir, profile_files[i]);
		if (access(from, F_OK) == 0) {
			if (rename(from, to))
				return error_errno("%s", to);
		} else if (unlink(to) && errno != ENOENT) {
			return error_errno("%s: a stale file that does not belong to the new gmon.out",
					   to);
		}
	}
	return 0;
}

int fetch_profile(const struct fetch_target *t, const char *dir)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof tmp, "%s/.tgprof-fetch.XXXXXX", dir) >= (int)sizeof tmp)
		return error("%s: path too long", dir);
	if (!mkdtemp(tmp))
		return error_errno("%s: cannot make a directory for the fetch", dir);
	int rc = t->kind == FETCH_TFTP ? tftp_fetch(t, tmp) : gdb_fetch(t, tmp);
	if (rc == 0)
		rc = move_into(tmp, dir);
	remove_tmp(tmp);
	return rc;
}
