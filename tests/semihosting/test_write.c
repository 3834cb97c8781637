/*
 * Unit tests of profile_write() (target/src/write.c) on the host, with the C library's
 * open/write/close wrapped (-Wl,--wrap): the "file" is a buffer here, each write request
 * can fail, come up short, or let interrupts and other threads in (samples, calls, a gdb
 * dump, profile_on/profile_off, another profile_write). Built with snapshots (the spare set
 * of a TFTP configuration) and without (profile_write lends itself one). Checked:
 *   - the file is the serializer's image of the data at the call, byte for byte;
 *   - what arrives during the write stays for the next file, what was written is reset:
 *     files + what remains = everything recorded, exactly, wherever gdb dumps meanwhile;
 *   - a failed write (open, a write request, close) keeps everything;
 *   - refusals change nothing: interrupt handler, profiling off, another write under way;
 *   - the memory: no leak, no use after free (ASan), the package's own set given back.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <cmocka.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "../unit/fake_hal.h"

#define LOW   ((uintptr_t)0x100000)
#define RANGE 0x40000              /* 16384 bins of 16 bytes; ~900 arc records */
#define FAKE_FD 100

static void *at(uintptr_t a) { return (void *)a; }

/* ---- the wrapped file I/O ---------------------------------------------------------- */

static struct {
    int fail_open;          /* errno open() fails with */
    int fail_write_at;      /* 1-based write request that fails (with ENOSPC) */
    int fail_close;         /* errno close() fails with */
    size_t short_writes;    /* nonzero: each request writes at most this many bytes */
    int is_open, opens, closes, requests;
    char path[64];
    uint8_t *data;          /* the file */
    size_t size, capacity;
    size_t largest;         /* the largest request */
    void (*hook)(int request); /* runs after each request: an interrupt, another thread */
} file;

/* The companion gmon.tasks (a name ending in ".tasks"), kept apart from file (gmon.out),
 * which the failures above are about. */
static struct {
    int is_open, opens;
    uint8_t *data;
    size_t size;
} tasks_file;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int __wrap_open(const char *path, int flags, ...)
{
    assert_int_equal(flags, O_WRONLY | O_CREAT | O_TRUNC);
    if (ends_with(path, ".tasks")) {
        assert_false(file.is_open || tasks_file.is_open);
        tasks_file.is_open = 1;
        tasks_file.opens++;
        tasks_file.size = 0;
        return FAKE_FD;
    }
    file.opens++;
    if (file.fail_open) {
        errno = file.fail_open;
        return -1;
    }
    assert_false(file.is_open);
    file.is_open = 1;
    strncpy(file.path, path, sizeof file.path - 1);
    file.size = 0;
    return FAKE_FD;
}

ssize_t __wrap_write(int fd, const void *buf, size_t len)
{
    assert_int_equal(fd, FAKE_FD);
    if (tasks_file.is_open) {
        tasks_file.data = realloc(tasks_file.data, tasks_file.size + len);
        memcpy(tasks_file.data + tasks_file.size, buf, len);
        tasks_file.size += len;
        return (ssize_t)len;
    }
    assert_true(file.is_open);
    int request = ++file.requests;
    if (request == file.fail_write_at) {
        errno = ENOSPC;
        return -1;
    }
    if (file.short_writes && len > file.short_writes)
        len = file.short_writes;
    if (file.size + len > file.capacity) {
        file.capacity = (file.size + len) * 2;
        file.data = realloc(file.data, file.capacity);
    }
    memcpy(file.data + file.size, buf, len);   /* (the host reads the memory now) */
    file.size += len;
    if (len > file.largest)
        file.largest = len;
    if (file.hook)
        file.hook(request);
    return (ssize_t)len;
}

int __wrap_close(int fd)
{
    assert_int_equal(fd, FAKE_FD);
    if (tasks_file.is_open) {
        tasks_file.is_open = 0;
        return 0;
    }
    file.is_open = 0;
    file.closes++;
    if (file.fail_close) {
        errno = file.fail_close;
        return -1;
    }
    return 0;
}

/* ---- helpers ----------------------------------------------------------------------- */

static int setup(void **state)
{
    (void)state;
    memset(&fake_hal, 0, sizeof fake_hal);
    hal_host_irq_enabled_hook = NULL;
    hal_host_in_interrupt = 0;
    free(file.data);
    memset(&file, 0, sizeof file);
    free(tasks_file.data);
    memset(&tasks_file, 0, sizeof tasks_file);
    profile_task_clear();
    profile_tasks.used = 1;
    profile_tasks.current = 0;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    hal_host_irq_enabled_hook = NULL;
    profile_off();
    assert_int_equal(hal_host_irq_depth, 0);
    assert_false(file.is_open);      /* every open was closed */
    assert_false(tasks_file.is_open);
    return 0;
}

static uint64_t get_uint(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = (v << 8) | p[i];
#else
        v |= (uint64_t)p[i] << (8 * i);
#endif
    return v;
}

/* What a gmon.out (this package's, host address width) holds. */
struct counts {
    uint32_t samples, spare2, not_recorded;   /* header (spare2: samples in no bin) */
    uint32_t in_bins, calls, arcs;
};

static struct counts parse(const uint8_t *p, size_t size)
{
    const size_t A = sizeof(uintptr_t);
    struct counts c = { 0 };
    assert_true(size >= 20 + 1 + 2 * A + 24);
    assert_memory_equal(p, "gmon", 4);
    assert_int_equal(get_uint(p + 4, 4), 1);
    c.samples = (uint32_t)get_uint(p + 8, 4);
    c.spare2 = (uint32_t)get_uint(p + 12, 4);
    c.not_recorded = (uint32_t)get_uint(p + 16, 4) & 0xFFFFFFu;   /* (the check byte above) */
    size_t pos = 20;
    assert_int_equal(p[pos], 0);
    uint32_t nbins = (uint32_t)get_uint(p + pos + 1 + 2 * A, 4);
    pos += 1 + 2 * A + 4 + 4 + 16;
    for (uint32_t i = 0; i < nbins; i++, pos += 2)
        c.in_bins += (uint32_t)get_uint(p + pos, 2);
    while (pos < size) {
        assert_int_equal(p[pos], 1);
        c.calls += (uint32_t)get_uint(p + pos + 1 + 2 * A, 4);
        c.arcs++;
        pos += 1 + 2 * A + 4;
    }
    assert_int_equal(pos, size);
    return c;
}

/* The serializer's image of the live data. */
static uint8_t *live_image(size_t *size)
{
    struct profile_gmon_reader r;
    profile_gmon_reader_init(&r);
    *size = profile_gmon_size(&r);
    uint8_t *buf = malloc(*size);
    assert_int_equal(profile_gmon_read(&r, 0, buf, *size), *size);
    return buf;
}

/* The live data, as the counts of a file (read through the serializer, as gdb's dump reads
 * the same fields). */
static struct counts live(void)
{
    size_t size;
    uint8_t *image = live_image(&size);
    struct counts c = parse(image, size);
    free(image);
    return c;
}

/* n samples in range, n calls over many call sites (many arcs), one call from outside the
 * range (counted in the header as not recorded). (No sample outside the range: then the
 * header's samples are its bins' sum, however the header counts those.) */
static void record(uint32_t seed, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        __profile_hit(LOW + ((seed + i) * 52) % RANGE);
        __profile_mcount(LOW + ((seed * 7 + i) * 36) % RANGE, LOW + (i % 5) * 0x100);
    }
    __profile_mcount(LOW - 4, LOW + 0x100);
}
#define RECORDED_SAMPLES(n) (n)
#define RECORDED_CALLS(n)   (n)        /* (+ 1 not recorded) */

static void expect_counts(struct counts got, uint32_t samples, uint32_t in_bins, uint32_t calls)
{
    assert_int_equal(got.samples, samples);
    assert_int_equal(got.in_bins, in_bins);
    assert_int_equal(got.spare2, 0);
    assert_int_equal(got.calls, calls);
}

/* ---- the file is the data, and the data is reset ------------------------------------ */

static void test_file_is_the_image_and_resets(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(1, 600);
    size_t size;
    uint8_t *image = live_image(&size);
    assert_true(size > 2 * 16384);                  /* several requests */
    void *memory = profile_state.memory;

    assert_int_equal(profile_write("gmon.out"), 0);
    assert_string_equal(file.path, "gmon.out");
    assert_int_equal(file.opens, 1);
    assert_int_equal(file.closes, 1);
    assert_int_equal(file.size, size);
    assert_memory_equal(file.data, image, size);
    free(image);
    /* Few requests: 16 KiB each. */
    assert_int_equal(file.largest, 16384);
    assert_int_equal(file.requests, (size + 16383) / 16384);

    /* Reset: nothing left but the counts' zeros; recording goes on. */
    struct counts c = live();
    expect_counts(c, 0, 0, 0);
    assert_int_equal(c.arcs, 0);
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(st.samples_total, RECORDED_SAMPLES(600));
    assert_int_equal(st.bytes_allocated, (1 + PROFILE_SNAPSHOT) * profile_state.set_bytes);
#if PROFILE_SNAPSHOT
    assert_ptr_equal(profile_state.memory, memory);
    assert_non_null(profile_state.spare);
#else
    /* The lent set is the package's now; its own was freed (ASan: no leak, no reuse). */
    assert_ptr_not_equal(profile_state.memory, memory);
    assert_null(profile_state.spare);
#endif
    assert_null(profile_frozen.bins);
    record(2, 10);
    expect_counts(live(), RECORDED_SAMPLES(10), 10, RECORDED_CALLS(10));
}

/* Short writes: write() is called again for the rest; the file is whole. */
static void test_short_writes(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(3, 100);
    size_t size;
    uint8_t *image = live_image(&size);
    file.short_writes = 1000;
    assert_int_equal(profile_write("gmon.out"), 0);
    assert_int_equal(file.size, size);
    assert_memory_equal(file.data, image, size);
    free(image);
}

#if PROFILE_SNAPSHOT
/* Little room on the heap: a smaller buffer (halved down to 512 bytes), or the stack's
 * 128 bytes; the file is the same. */
static void test_small_buffers(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(4, 300);
    size_t size;
    uint8_t *image = live_image(&size);
    fake_hal.malloc_limit = 5000;
    assert_int_equal(profile_write("gmon.out"), 0);
    assert_int_equal(file.size, size);
    assert_memory_equal(file.data, image, size);
    assert_int_equal(file.largest, 4096);
    assert_int_equal(file.requests, (size + 4095) / 4096);
    fake_hal.malloc_limit = 0;
    file.requests = 0;
    record(5, 300);
    free(image);
    image = live_image(&size);
    fake_hal.fail_malloc = 1;
    assert_int_equal(profile_write("gmon.out"), 0);
    fake_hal.fail_malloc = 0;
    assert_int_equal(file.size, size);
    assert_memory_equal(file.data, image, size);
    assert_int_equal(file.requests, (size + 127) / 128);
    free(image);
}
#endif

/* ---- what arrives during the write: the next file's --------------------------------- */

static uint32_t during_seed, during_calls;
static void record_during(int request)
{
    (void)request;
    during_calls++;
    record(during_seed++, 7);
}

static void test_recorded_during_write_is_next_files(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(5, 200);
    file.hook = record_during;
    during_seed = 100;
    assert_int_equal(profile_write("one.out"), 0);
    int during1 = file.requests;
    struct counts one = parse(file.data, file.size);
    expect_counts(one, RECORDED_SAMPLES(200), 200, RECORDED_CALLS(200));
    assert_int_equal(one.not_recorded, 1);
    /* Live: exactly what arrived during the write. */
    expect_counts(live(), during1 * RECORDED_SAMPLES(7), during1 * 7, during1 * RECORDED_CALLS(7));

    record(6, 50);
    file.requests = 0;
    assert_int_equal(profile_write("two.out"), 0);
    int during2 = file.requests;
    struct counts two = parse(file.data, file.size);
    expect_counts(two, during1 * RECORDED_SAMPLES(7) + RECORDED_SAMPLES(50),
                  during1 * 7 + 50, during1 * RECORDED_CALLS(7) + RECORDED_CALLS(50));
    assert_int_equal(two.not_recorded, during1 + 1);
    expect_counts(live(), during2 * RECORDED_SAMPLES(7), during2 * 7, during2 * RECORDED_CALLS(7));
}

/* ---- failures keep everything ------------------------------------------------------- */

static void check_kept(uint32_t samples, uint32_t in_bins, uint32_t calls, void *memory)
{
    expect_counts(live(), samples, in_bins, calls);
    assert_null(profile_frozen.bins);
#if PROFILE_SNAPSHOT
    assert_ptr_equal(profile_state.memory, memory);
    assert_non_null(profile_state.spare);
#else
    (void)memory;
    assert_null(profile_state.spare);
#endif
}

static void test_failures_keep_everything(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    void *memory = profile_state.memory;
    record(7, 300);
    uint32_t samples = RECORDED_SAMPLES(300), in_bins = 300, calls = RECORDED_CALLS(300);

    file.fail_open = ENOENT;
    assert_int_equal(profile_write("no/such/dir/gmon.out"), -ENOENT);
    file.fail_open = 0;
    check_kept(samples, in_bins, calls, memory);

    /* Each of the three write requests in turn fails; what arrived meanwhile is kept
     * too. */
    file.hook = record_during;
    for (int fail = 1; fail <= 3; fail++) {
        file.requests = 0;
        file.fail_write_at = fail;
        assert_int_equal(profile_write("gmon.out"), -ENOSPC);
        int during = file.requests - 1;     /* (the failing request records nothing) */
        samples += (uint32_t)during * RECORDED_SAMPLES(7);
        in_bins += (uint32_t)during * 7;
        calls += (uint32_t)during * RECORDED_CALLS(7);
        check_kept(samples, in_bins, calls, memory);
    }
    file.fail_write_at = 0;
    file.hook = NULL;

    file.fail_close = EIO;
    assert_int_equal(profile_write("gmon.out"), -EIO);
    file.fail_close = 0;
    check_kept(samples, in_bins, calls, memory);

    /* And the next write that works has all of it, once. */
    assert_int_equal(profile_write("gmon.out"), 0);
    struct counts c = parse(file.data, file.size);
    expect_counts(c, samples, in_bins, calls);
    expect_counts(live(), 0, 0, 0);
    struct profile_stats st;
    assert_int_equal(profile_get_stats(&st), 0);
    assert_int_equal(st.samples_total, samples);
}

/* ---- refusals change nothing -------------------------------------------------------- */

static void test_refusals(void **state)
{
    (void)state;
    assert_int_equal(profile_write("gmon.out"), -ENODATA);   /* never on */
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(8, 20);
    void *memory = profile_state.memory;

    hal_host_in_interrupt = 1;
    assert_int_equal(profile_write("gmon.out"), -EPERM);
    hal_host_in_interrupt = 0;
    assert_int_equal(profile_write(NULL), -EINVAL);
    /* Paths too long to open, a whole path or one name in it: refused before the C library
     * is asked (over semihosting the host's ENAMETOOLONG arrived as -EIO). */
    char *longer = malloc(PATH_MAX + 1);
    assert_non_null(longer);
    memset(longer, 'g', PATH_MAX);
    longer[PATH_MAX] = 0;
    for (size_t i = 200; i < PATH_MAX; i += 200)
        longer[i] = '/';
    assert_int_equal(profile_write(longer), -ENAMETOOLONG);
    memset(longer, 'g', 300);
    strcpy(longer + 300, ".out");
    assert_int_equal(profile_write(longer), -ENAMETOOLONG);
    strcpy(longer + 300, "/gmon.out");
    assert_int_equal(profile_write(longer), -ENAMETOOLONG);
    free(longer);
#if !PROFILE_SNAPSHOT
    /* No room to lend a set. */
    fake_hal.fail_malloc = 1;
    assert_int_equal(profile_write("gmon.out"), -ENOMEM);
    fake_hal.fail_malloc = 0;
    /* ... and how much it asked for, for autostart's message: one set. */
    assert_int_equal(profile_enomem_bytes, profile_state.set_bytes);
#else
    /* A TFTP transfer holds the snapshot. */
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    assert_int_equal(profile_write("gmon.out"), -EBUSY);
    profile_snapshot_release(&r, 0);
#endif
    assert_int_equal(file.opens, 0);
    check_kept(RECORDED_SAMPLES(20), 20, RECORDED_CALLS(20), memory);
    assert_ptr_equal(profile_state.memory, memory);

    profile_off();
    assert_int_equal(profile_write("gmon.out"), -ENODATA);
    assert_int_equal(file.opens, 0);
}

/* Another thread's profile_write while one is under way: refused, nothing changed. */
static int nested_rc;
static void write_again(int request)
{
    if (request == 2)
        nested_rc = profile_write("other.out");
}

static void test_second_writer_refused(void **state)
{
    (void)state;
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(9, 20);
    file.hook = write_again;
    nested_rc = 1;
    assert_int_equal(profile_write("gmon.out"), 0);
    assert_int_equal(nested_rc, -EBUSY);
    assert_int_equal(file.opens, 1);
    expect_counts(parse(file.data, file.size), RECORDED_SAMPLES(20), 20, RECORDED_CALLS(20));
}

/* ---- profile_on/profile_off from another thread during the write ------------------- */

static int restart_at, restart_with_on;
static void restart(int request)
{
    if (request != restart_at)
        return;
    if (restart_with_on)
        assert_int_equal(profile_on(at(LOW), at(LOW + 0x800), 8, 1000), 0);
    else
        assert_int_equal(profile_off(), 0);
}

static void test_profile_on_off_during_write(void **state)
{
    (void)state;
    for (restart_with_on = 0; restart_with_on < 2; restart_with_on++) {
        for (restart_at = 1; restart_at <= 3; restart_at++) {
            assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
            record(10, 300);
            size_t size;
            free(live_image(&size));
            int requests = (int)((size + 16383) / 16384);
            assert_int_equal(requests, 3);
            file.hook = restart;
            file.requests = 0;
            int rc = profile_write("gmon.out");
            file.hook = NULL;
            /* Ended before the last request: cancelled; at the last one the file is whole. */
            assert_int_equal(rc, restart_at < requests ? -ECANCELED : 0);
            assert_int_equal(file.requests, restart_at);
            assert_null(profile_frozen.bins);
            struct profile_stats st;
            if (restart_with_on) {
                /* The new profile is as profile_on made it (ASan: nothing of the old sets
                 * touched after they were freed). */
                assert_int_equal(profile_get_stats(&st), 0);
                assert_int_equal(st.samples_total, 0);
                struct counts c = live();
                assert_int_equal(c.in_bins + c.calls, 0);
                assert_true(PROFILE_SNAPSHOT ? profile_state.spare != NULL
                                             : profile_state.spare == NULL);
                assert_int_equal(st.bytes_allocated, (1 + PROFILE_SNAPSHOT) * profile_state.set_bytes);
            } else {
                assert_int_equal(profile_get_stats(&st), -ENODATA);
            }
            profile_off();
        }
    }
}

/* ---- gdb dumping wherever interrupts are on during a write --------------------------- */

static struct {
    int at, windows;
    uint32_t samples, in_bins, calls;
} gdb_dumped;

static void gdb_dump_here(void)
{
    const struct profile_state *s = &profile_state;
    assert_int_equal(s->lasting.busy, 0);
    gdb_dumped.windows++;
    if (gdb_dumped.windows != gdb_dumped.at && gdb_dumped.windows != gdb_dumped.at + 5)
        return;
    if (!s->running || s->reset_pending)
        return;
    void (*hook)(void) = hal_host_irq_enabled_hook;
    hal_host_irq_enabled_hook = NULL;   /* (reading it masks interrupts too) */
    struct counts c = live();
    hal_host_irq_enabled_hook = hook;
    assert_int_equal(c.samples, c.in_bins);
    gdb_dumped.samples += c.samples;
    gdb_dumped.in_bins += c.in_bins;
    gdb_dumped.calls += c.calls;
    /* gprof_reset */
    profile_state.reset_pending = 1;
    profile_state.armed_span = 0;
}

static void test_gdb_dump_anywhere_during_write(void **state)
{
    (void)state;
    int windows = 0;
    for (int window = 1;; window++) {
        assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
        memset(&gdb_dumped, 0, sizeof gdb_dumped);
        gdb_dumped.at = window;
        struct counts files = { 0 };
        record(11, 300);
        file.hook = record_during;
        file.requests = 0;
        during_calls = 0;
        hal_host_irq_enabled_hook = gdb_dump_here;
        assert_int_equal(profile_write("one.out"), 0);
        struct counts c = parse(file.data, file.size);
        files.samples += c.samples;
        files.in_bins += c.in_bins;
        files.calls += c.calls;
        record(12, 40);
        file.fail_write_at = file.requests + 2;     /* and one that fails: merged back */
        assert_int_equal(profile_write("two.out"), -ENOSPC);
        file.fail_write_at = 0;
        assert_int_equal(profile_write("three.out"), 0);
        c = parse(file.data, file.size);
        files.samples += c.samples;
        files.in_bins += c.in_bins;
        files.calls += c.calls;
        hal_host_irq_enabled_hook = NULL;
        file.hook = NULL;
        uint32_t during = during_calls;

        const struct profile_state *s = &profile_state;
        struct counts rest = { 0 };
        if (!s->reset_pending)
            rest = live();
        uint32_t samples = RECORDED_SAMPLES(300) + RECORDED_SAMPLES(40) + during * RECORDED_SAMPLES(7);
        assert_int_equal(gdb_dumped.samples + files.samples + rest.samples, samples);
        assert_int_equal(gdb_dumped.in_bins + files.in_bins + rest.in_bins,
                         300 + 40 + during * 7);
        assert_int_equal(gdb_dumped.calls + files.calls + rest.calls,
                         300 + 40 + during * 7);
        profile_off();
        if (window > gdb_dumped.windows)
            break;
        windows = gdb_dumped.windows;
    }
    assert_true(windows > 20);
}

/* ---- gmon.tasks: each sample for the task that ran, the same snapshot -------------- */

/* What a gmon.tasks holds: the header's samples and unregistered, and each record's id and
 * samples (up to 4 records); the records' names checked against names[]. */
struct task_counts {
    uint32_t samples, unregistered, n;
    uintptr_t id[4];
    uint32_t task_samples[4];
};

static struct task_counts parse_tasks(const uint8_t *p, size_t size, const char *const *names)
{
    const size_t A = sizeof(uintptr_t);
    struct task_counts c = { 0 };
    assert_true(size >= 32);
    assert_memory_equal(p, "gmtk", 4);
    assert_int_equal(get_uint(p + 4, 4), 1);
    assert_int_equal(get_uint(p + 8, 4), 0x01020304u);
    assert_int_equal(p[12], A);
    assert_int_equal(get_uint(p + 16, 4), 1000);        /* prof_rate: 1000 us */
    c.n = (uint32_t)get_uint(p + 20, 4);
    c.samples = (uint32_t)get_uint(p + 24, 4);
    c.unregistered = (uint32_t)get_uint(p + 28, 4);
    assert_true(c.n >= 1 && c.n <= 4);
    size_t pos = 32;
    uint32_t sum = 0;
    for (uint32_t i = 0; i < c.n; i++) {
        c.id[i] = (uintptr_t)get_uint(p + pos, A);
        c.task_samples[i] = (uint32_t)get_uint(p + pos + A, 4);
        sum += c.task_samples[i];
        size_t len = (size_t)get_uint(p + pos + A + 4, 4);
        assert_int_equal(len, strlen(names[i]));
        assert_memory_equal(p + pos + A + 8, names[i], len);
        pos += A + 8 + (len + 3) / 4 * 4;
    }
    assert_int_equal(pos, size);
    assert_int_equal(sum, c.samples);       /* every sample for exactly one task */
    return c;
}

/* During the write: task B runs and is sampled, then main again. */
static void tasks_during_write(int request)
{
    if (request != 1)
        return;
    assert_int_equal(profile_task_switch(0xB0, "task B"), 0);
    record(3, 5);
    assert_int_equal(profile_task_switch(0, NULL), 0);
    record(4, 2);
}

static void test_tasks_file(void **state)
{
    (void)state;
    static const char *const names[] = { "main", "task A", "task B", "(other tasks)" };
    assert_int_equal(profile_on(at(LOW), at(LOW + RANGE), 16, 1000), 0);
    record(1, 3);                                       /* main */
    assert_int_equal(profile_task_switch(0xA0, "task A"), 0);
    record(2, 7);
    /* Interrupted by a switch to B and back, not written: B's 11 stay for the next file. */
    assert_int_equal(profile_task_switch(0xB0, "task B"), 0);
    record(2, 11);
    assert_int_equal(profile_task_switch(0xA0, NULL), 0);
    record(2, 4);
    file.hook = tasks_during_write;
    assert_int_equal(profile_write("gmon.out"), 0);
    assert_int_equal(tasks_file.opens, 1);
    struct task_counts c = parse_tasks(tasks_file.data, tasks_file.size, names);
    assert_int_equal(c.samples, parse(file.data, file.size).samples);   /* gmon.out's */
    assert_int_equal(c.n, 3);
    assert_int_equal(c.id[0], 0);
    assert_int_equal(c.task_samples[0], 3);
    assert_int_equal(c.id[1], 0xA0);
    assert_int_equal(c.task_samples[1], 11);
    assert_int_equal(c.id[2], 0xB0);
    assert_int_equal(c.task_samples[2], 11);
    assert_int_equal(c.unregistered, 0);

    /* The next file: what came during the write (B 5, main 2); a write that fails keeps
     * everything, and a later one has it all, with the tasks that found no slot. */
    file.hook = NULL;
    for (uint32_t i = 3; i < CYGNUM_PROFILE_TASKS; i++)
        assert_int_equal(profile_task_switch(0x100 + i, "filler"), 0);
    assert_int_equal(profile_task_switch(0xC0, "task C"), -ENOMEM);
    record(5, 6);
    assert_int_equal(profile_task_switch(0xD0, NULL), -ENOMEM);
    record(5, 1);
    assert_int_equal(profile_task_switch(0, NULL), 0);
    file.fail_open = EACCES;
    assert_int_equal(profile_write("gmon.out"), -EACCES);
    file.fail_open = 0;
    assert_int_equal(profile_write("gmon.out"), 0);
    uint8_t *data = tasks_file.data;
    size_t size = tasks_file.size;
    const size_t A = sizeof(uintptr_t);
    assert_int_equal(get_uint(data + 20, 4), CYGNUM_PROFILE_TASKS + 1);
    assert_int_equal(get_uint(data + 24, 4), 14);
    assert_int_equal(get_uint(data + 28, 4), 2);
    assert_int_equal(get_uint(data + 32 + A, 4), 2);                    /* main */
    size_t pos = 32;
    for (uint32_t i = 0; i < CYGNUM_PROFILE_TASKS; i++)
        pos += A + 8 + (get_uint(data + pos + A + 4, 4) + 3) / 4 * 4;
    assert_int_equal(get_uint(data + pos, A), UINTPTR_MAX);            /* the others' */
    assert_int_equal(get_uint(data + pos + A, 4), 7);
    assert_memory_equal(data + pos + A + 8, "(other tasks)", 13);
    assert_int_equal(pos + A + 8 + 16, size);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
        T(test_file_is_the_image_and_resets),
        T(test_short_writes),
#if PROFILE_SNAPSHOT
        T(test_small_buffers),
#endif
        T(test_recorded_during_write_is_next_files),
        T(test_failures_keep_everything),
        T(test_refusals),
        T(test_second_writer_refused),
        T(test_profile_on_off_during_write),
        T(test_gdb_dump_anywhere_during_write),
        T(test_tasks_file),
    };
    int rc = cmocka_run_group_tests_name(PROFILE_SNAPSHOT ? "profile_write (snapshots)"
                                                          : "profile_write (no snapshots)",
                                         tests, NULL, NULL);
    free(file.data);
    free(tasks_file.data);
    return rc;
}
