/*
 * profile_write(): gmon.out into a file through the C library (open/write/close), which on
 * QEMU and through a debug probe is semihosting, so that the file lands on the host;
 * gmon.tasks beside it (and in the stack-profiling mode gmon.stacks), of the same snapshot.
 *
 * Exactness is the TFTP daemon's (snapshot.c): the data is frozen at the start, written
 * from the frozen set while recording goes on into the spare one, then dropped when the
 * file is complete (what was written is reset) or merged back when it is not (nothing is
 * lost). A configuration without snapshots (no TFTP: no spare set) lends one for the
 * write: the live data moves into it, and once the write is over the package's own set,
 * now the spare, is freed and the lent one kept in its place.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

/* The image goes out through a buffer from the heap of up to BUFFER_MAX bytes, halved
 * while the heap has no room, down to BUFFER_MIN; below that, the stack's: every request
 * through a probe halts and resumes the target, so few large ones. */
#define BUFFER_MAX      16384
#define BUFFER_MIN      512
#define BUFFER_FALLBACK 128

/* A set lent for one write (see the top), and the profile it was lent to. */
struct lent_set {
    void *set;              /* NULL: none lent */
    uint32_t generation;    /* profile_state.lasting.generation when lent */
};

/*
 * Nonzero while a profile_write() runs: a second one (another thread) is refused with
 * -EBUSY before it lends anything, so that lending and taking back never interleave.
 * Owned by profile_write, changed with interrupts masked.
 */
static uint32_t profile_writing;

/* Gives the live data a spare set to freeze against if the configuration has none.
 * 0 or a negative errno (nothing changed). */
static int spare_lend(struct lent_set *l)
{
    struct profile_state *s = &profile_state;
    l->set = NULL;
    hal_profile_irq_state irq = profile_lock();
    int running = s->running;
    /* Only a single-set layout: the package's set then starts at s->memory. */
    int needed = running && !s->spare && !profile_frozen.bins && s->memory_bytes == s->set_bytes;
    size_t bytes = s->set_bytes;
    l->generation = s->lasting.generation;
    profile_unlock(irq);
    if (!running)
        return -ENODATA;
    if (!needed)
        return 0;       /* a spare is there, or a snapshot is out: profile_snapshot_take says */
    void *set = malloc(bytes);
    if (!set) {
        profile_enomem_bytes = bytes;
        return -ENOMEM;
    }
    memset(set, 0, bytes);  /* a spare's arrays are zero */
    irq = profile_lock();
    if (s->lasting.generation == l->generation && !s->spare && !profile_frozen.bins) {
        s->spare = set;
        l->set = set;
        set = NULL;
    }
    profile_unlock(irq);
    free(set);          /* (profile_on/profile_off meanwhile: not needed) */
    return 0;
}

/*
 * After the snapshot's release the lent set holds the live data and the package's own set
 * (s->memory) is the spare: the lent one becomes the package's, the other is freed. If
 * profile_on()/profile_off() came in between, the lent set belongs to nobody any more.
 */
static void spare_return(const struct lent_set *l)
{
    struct profile_state *s = &profile_state;
    void *unused = l->set;
    if (!l->set)
        return;
    hal_profile_irq_state irq = profile_lock();
    if (s->lasting.generation == l->generation) {
        if (s->spare == s->memory) {
            unused = s->memory;
            s->memory = l->set;
            s->spare = NULL;
        } else if (s->spare == l->set) {
            s->spare = NULL;    /* lent, but no snapshot was taken */
        } else {
            /* Firmware that calls profile_snapshot_take() itself, from another thread, in
             * a configuration without snapshots, took the lent spare in between: both sets
             * are in use, the lent one stays (it is not freed by profile_off: a leak, never
             * a use after free). */
            unused = NULL;
        }
    }
    profile_unlock(irq);
    free(unused);
}

/* write() all of buf, or a negative errno. */
static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n <= 0)
            return n < 0 && errno > 0 ? -errno : -EIO;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* An image to write: its size and a reader of its pieces (gmon.c's, stacks.c's, tasks.c's). */
typedef size_t (*image_read_fn)(struct profile_gmon_reader *r, size_t at, void *buf,
                                size_t len);

static size_t gmon_piece(struct profile_gmon_reader *r, size_t at, void *buf, size_t len)
{
    return profile_gmon_read(r, at, buf, len);
}

/* The snapshot's image into fd, in pieces read by read. 0, -ECANCELED if
 * profile_on()/profile_off() ended the snapshot, or write()'s error. */
static int write_image(int fd, struct profile_gmon_reader *r, size_t size, image_read_fn read)
{
    uint8_t small[BUFFER_FALLBACK];
    size_t chunk = size < BUFFER_MAX ? size : BUFFER_MAX;
    uint8_t *buf = NULL;
    while (chunk > sizeof small && !(buf = malloc(chunk)))
        chunk = chunk / 2 >= BUFFER_MIN ? chunk / 2 : sizeof small;
    if (!buf) {
        buf = small;
        chunk = sizeof small;
    }
    int rc = 0;
    for (size_t at = 0; at < size && rc == 0;) {
        size_t n = size - at < chunk ? size - at : chunk;
        if (profile_snapshot_ended(r) || read(r, at, buf, n) != n)
            rc = -ECANCELED;
        else
            rc = write_all(fd, buf, n);
        at += n;
    }
    if (buf != small)
        free(buf);
    return rc;
}

/* The image into the file path (created or truncated). 0 or a negative errno. */
static int write_file(const char *path, struct profile_gmon_reader *r, size_t size,
                      image_read_fn read)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return errno > 0 ? -errno : -EIO;
    int rc = write_image(fd, r, size, read);
    if (close(fd) != 0 && rc == 0)
        rc = errno > 0 ? -errno : -EIO;
    return rc;
}

static size_t tasks_piece(struct profile_gmon_reader *r, size_t at, void *buf, size_t len)
{
    (void)r;
    return profile_task_image_read(at, buf, len);
}

#if PROFILE_STACKS
static size_t stacks_piece(struct profile_gmon_reader *r, size_t at, void *buf, size_t len)
{
    (void)r;
    return profile_stack_image_read(at, buf, len);
}
#endif

/* A companion file of the snapshot beside path, its name with suffix ".stacks" or
 * ".tasks": NAME.out gets NAME.SUFFIX, any other name .SUFFIX appended (as gdb's
 * gprof_fetch names them). */
static int write_companion(const char *path, const char *suffix, struct profile_gmon_reader *r,
                           size_t size, image_read_fn read)
{
    size_t len = strlen(path), extra = strlen(suffix) + 1;
    size_t base = len >= 4 && strcmp(path + len - 4, ".out") == 0 ? len - 4 : len;
    char small[BUFFER_FALLBACK];    /* (a short name needs no heap: it may be full) */
    char *name = base + extra <= sizeof small ? small : malloc(base + extra);
    if (!name) {
        profile_enomem_bytes = base + extra;
        return -ENOMEM;
    }
    memcpy(name, path, base);
    memcpy(name + base, suffix, extra);
    int rc = write_file(name, r, size, read);
    if (name != small)
        free(name);
    return rc;
}

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
/* The longest file name (a path's component) every host's file system takes. */
#define NAME_MAX_HOST 255

/* Is path short enough to open, with the companions' names beside it (gmon.tasks; and
 * gmon.stacks in the stack-profiling mode)?  A longer one is refused before anything
 * changes: the host says ENAMETOOLONG, which semihosting's errno (1..34 only,
 * hal/common/src/syscalls.c) turns into EIO. */
static int path_fits(const char *path)
{
    size_t len = strlen(path), name = len, extra = sizeof ".tasks" - 1;
    const char *slash = strrchr(path, '/');
    if (slash)
        name = len - (size_t)(slash + 1 - path);
#if PROFILE_STACKS
    extra = sizeof ".stacks" - 1;
#endif
    for (const char *p = path, *q; *p; p = q + (*q != 0)) {
        q = strchr(p, '/');
        if (!q)
            q = p + strlen(p);
        if ((size_t)(q - p) > NAME_MAX_HOST)
            return 0;
    }
    return len + extra < PATH_MAX && name + extra <= NAME_MAX_HOST;
}

int profile_write(const char *path)
{
    /* It allocates, and waits for the host: thread context only, as profile_on(). */
    if (hal_profile_in_interrupt())
        return -EPERM;
    if (!path)
        return -EINVAL;
    if (!path_fits(path))
        return -ENAMETOOLONG;
    hal_profile_irq_state irq = hal_profile_irq_save();
    int busy = profile_writing;
    profile_writing = 1;
    hal_profile_irq_restore(irq);
    if (busy)
        return -EBUSY;

    profile_enomem_bytes = 0;
    struct lent_set lent;
    int rc = spare_lend(&lent);
    struct profile_gmon_reader r;
    if (rc == 0)
        rc = profile_snapshot_take(&r);
    if (rc == 0) {
        rc = write_file(path, &r, profile_gmon_size(&r), gmon_piece);
#if PROFILE_STACKS
        if (rc == 0)
            rc = write_companion(path, ".stacks", &r, profile_stack_image_size(), stacks_piece);
#endif
        if (rc == 0)
            rc = write_companion(path, ".tasks", &r, profile_task_image_size(), tasks_piece);
        /* Complete: the data is in the file(s), and dropped here. Else it goes back. */
        profile_snapshot_release(&r, rc == 0);
    }
    spare_return(&lent);
    irq = hal_profile_irq_save();
    profile_writing = 0;
    hal_profile_irq_restore(irq);
    return rc;
}
