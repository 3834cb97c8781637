/*
 * Per-task time's core (target/src/tasks.c) on the host: profile_task_switch from any
 * context, each sample counted for the running task, the table through a snapshot (frozen
 * with gmon.out's data, merged back when abandoned, kept for the TFTP daemon when gmon.out
 * was delivered), gmon.tasks field by field, a full table. Built with the TFTP daemon's
 * snapshot code (CYGPKG_PROFILE_TFTP, no lwIP: profile_tftp_start is a stub here) and a
 * table of 3 slots (tests/tests.mk).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <cyg/profile/gmon.h>
#include <cyg/profile/profile.h>
#include "../../target/src/profile_priv.h"
#include "fake_hal.h"

_Static_assert(CYGNUM_PROFILE_TASKS == 3 && PROFILE_TFTP && PROFILE_SNAPSHOT,
               "tests/tests.mk builds this so");

#define LOW ((uintptr_t)0x100000)
#define A   ((uintptr_t)0xA0)
#define B   ((uintptr_t)0xB0)

int profile_tftp_start(void)
{
    return 0;
}

static int setup(void **state)
{
    (void)state;
    memset(&fake_hal, 0, sizeof fake_hal);
    hal_host_in_interrupt = 0;
    assert_int_equal(profile_on((void *)LOW, (void *)(LOW + 0x10000), 16, 1000), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    profile_off();
    assert_int_equal(profile_task_switch(0, NULL), 0);
    return 0;
}

static void samples(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        __profile_hit(LOW + 16 * (i % 64));
}

/* What a gmon.tasks image says: the header's samples and unregistered, each record's id,
 * samples and name. */
struct image {
    uint32_t n, samples, unregistered;
    uintptr_t id[4];
    uint32_t task_samples[4];
    char name[4][16];
};

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);           /* (the host's order is the image's) */
    return v;
}

static struct image parse(const uint8_t *p, size_t size)
{
    struct image m;
    memset(&m, 0, sizeof m);
    assert_true(size >= 32);
    assert_memory_equal(p, "gmtk", 4);
    assert_int_equal(get32(p + 4), 1);
    assert_int_equal(get32(p + 8), 0x01020304u);
    assert_int_equal(p[12], sizeof(uintptr_t));
    assert_int_equal(get32(p + 16), 1000);
    m.n = get32(p + 20);
    m.samples = get32(p + 24);
    m.unregistered = get32(p + 28);
    assert_true(m.n <= 4);
    size_t at = 32;
    for (uint32_t i = 0; i < m.n; i++) {
        memcpy(&m.id[i], p + at, sizeof(uintptr_t));
        m.task_samples[i] = get32(p + at + sizeof(uintptr_t));
        uint32_t len = get32(p + at + sizeof(uintptr_t) + 4);
        assert_true(len < sizeof m.name[i]);
        memcpy(m.name[i], p + at + sizeof(uintptr_t) + 8, len);
        at += sizeof(uintptr_t) + 8 + (len + 3) / 4 * 4;
    }
    assert_int_equal(at, size);
    return m;
}

/* The frozen image (read in pieces of 5 bytes: a record split anywhere). */
static struct image frozen_image(void)
{
    static uint8_t buf[256];
    size_t size = profile_task_image_size();
    assert_true(size > 0 && size <= sizeof buf);
    for (size_t at = 0; at < size; at += 5)
        assert_int_equal(profile_task_image_read(at, buf + at, 5),
                         size - at < 5 ? size - at : 5);
    return parse(buf, size);
}

static void test_samples_follow_the_running_task(void **state)
{
    (void)state;
    samples(2);                                         /* main */
    assert_int_equal(profile_task_switch(A, "task A"), 0);
    samples(7);
    hal_host_in_interrupt = 1;                          /* a switch from a handler */
    assert_int_equal(profile_task_switch(B, "task B"), 0);
    samples(3);                                         /* in the handler: B's */
    hal_host_in_interrupt = 0;
    samples(4);
    assert_int_equal(profile_task_switch(A, NULL), 0);  /* (A keeps its name) */
    samples(1);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    samples(5);                                         /* after the freeze: A's, live */
    struct image m = frozen_image();
    assert_int_equal(m.n, 3);
    assert_int_equal(m.samples, 17);
    assert_int_equal(m.unregistered, 0);
    assert_int_equal(m.id[0], 0);
    assert_string_equal(m.name[0], "main");
    assert_int_equal(m.task_samples[0], 2);
    assert_int_equal(m.id[1], A);
    assert_string_equal(m.name[1], "task A");
    assert_int_equal(m.task_samples[1], 8);
    assert_int_equal(m.id[2], B);
    assert_string_equal(m.name[2], "task B");
    assert_int_equal(m.task_samples[2], 7);

    /* Abandoned: merged back; the next snapshot has all of it. */
    profile_snapshot_release(&r, 0);
    assert_int_equal(profile_snapshot_take(&r), 0);
    m = frozen_image();
    assert_int_equal(m.samples, 22);
    assert_int_equal(m.task_samples[0] + m.task_samples[1] + m.task_samples[2], 22);
    assert_int_equal(m.task_samples[1], 13);

    /* Delivered (TFTP's gmon.out): kept for `get gmon.tasks`, the live counts start again. */
    uint32_t generation;
    assert_int_equal(profile_task_kept_size(&generation), 0);
    profile_snapshot_release(&r, PROFILE_SNAPSHOT_DELIVERED_GMON);
    size_t size = profile_task_kept_size(&generation);
    uint8_t buf[256];
    assert_true(size > 0 && size <= sizeof buf);
    assert_int_equal(profile_task_kept_read(0, buf, size), size);
    assert_false(profile_task_kept_ended(generation));
    m = parse(buf, size);
    assert_int_equal(m.samples, 22);
    assert_int_equal(m.task_samples[1], 13);
    samples(1);
    assert_int_equal(profile_snapshot_take(&r), 0);
    assert_int_equal(frozen_image().task_samples[1], 1);
    profile_snapshot_release(&r, PROFILE_SNAPSHOT_DELIVERED_GMON);
    assert_true(profile_task_kept_ended(generation));  /* replaced */
    profile_off();
    assert_int_equal(profile_task_kept_size(&generation), 0);   /* forgotten */
}

static void test_full_table_is_counted(void **state)
{
    (void)state;
    assert_int_equal(profile_task_switch(A, "task A"), 0);
    assert_int_equal(profile_task_switch(B, "task B"), 0);   /* 3 slots: main, A, B */
    samples(2);
    assert_int_equal(profile_task_switch(0xC0, "task C"), -ENOMEM);
    samples(3);
    assert_int_equal(profile_task_switch(0xD0, "task D"), -ENOMEM);
    samples(4);
    assert_int_equal(profile_task_switch(A, NULL), 0);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);
    struct image m = frozen_image();
    assert_int_equal(m.n, 4);
    assert_int_equal(m.unregistered, 2);
    assert_int_equal(m.id[3], UINTPTR_MAX);
    assert_string_equal(m.name[3], "(other tasks)");
    assert_int_equal(m.task_samples[3], 7);
    assert_int_equal(m.task_samples[2], 2);
    profile_snapshot_release(&r, 1);

    /* A reset (gdb's, profile_reset) zeroes the counts, keeps the tasks. */
    samples(3);
    profile_reset();
    samples(1);
    assert_int_equal(profile_snapshot_take(&r), 0);
    m = frozen_image();
    assert_int_equal(m.n, 3);                           /* no "(other tasks)": none this time */
    assert_int_equal(m.samples, 1);
    assert_int_equal(m.task_samples[1], 1);
    profile_snapshot_release(&r, 1);
}

/* A task that ends (profile_task_end, an RTOS's delete hook) keeps its row and a copy of its
 * name, in the live table and in a frozen one, and takes an id no task has: the RTOS frees
 * the name with the task, and a task made later at its address is another task. (Runs
 * last: A and B are registered, the 3 slots full.) */
static void test_ended_task_keeps_its_row(void **state)
{
    (void)state;
    char a_name[16] = "task A", b_name[16] = "task B";
    assert_int_equal(profile_task_switch(B, b_name), 0);
    assert_int_equal(profile_task_switch(A, a_name), 0);
    samples(3);
    struct profile_gmon_reader r;
    assert_int_equal(profile_snapshot_take(&r), 0);    /* A and B in the frozen table */
    assert_int_equal(profile_task_end(B), 0);          /* not running */
    assert_int_equal(profile_task_end(A), 0);          /* running: it goes on until a switch */
    samples(2);
    memset(a_name, 0xA5, sizeof a_name);               /* freed, reused */
    memset(b_name, '#', sizeof b_name);
    struct image m = frozen_image();    /* of the moment before, under the ids they take */
    assert_int_equal(m.id[1], UINTPTR_MAX - 2);        /* (as gmon.stacks names them) */
    assert_string_equal(m.name[1], "task A");
    assert_int_equal(m.task_samples[1], 3);
    assert_int_equal(m.id[2], UINTPTR_MAX - 1);
    assert_string_equal(m.name[2], "task B");
    profile_snapshot_release(&r, 0);

    /* A task at B's address later: not B's row (the table is full: "(other tasks)"). */
    assert_int_equal(profile_task_switch(B, "task B2"), -ENOMEM);
    samples(4);
    assert_int_equal(profile_task_end(0xE0), -ENOENT);
    assert_int_equal(profile_snapshot_take(&r), 0);
    m = frozen_image();
    assert_int_equal(m.n, 4);
    assert_int_equal(m.id[1], UINTPTR_MAX - 2);        /* the second to end */
    assert_string_equal(m.name[1], "task A");
    assert_int_equal(m.task_samples[1], 5);             /* 3 merged back, 2 after its end */
    assert_int_equal(m.id[2], UINTPTR_MAX - 1);
    assert_string_equal(m.name[2], "task B");
    assert_int_equal(m.id[3], UINTPTR_MAX);
    assert_int_equal(m.task_samples[3], 4);
    assert_int_equal(m.unregistered, 1);
    profile_snapshot_release(&r, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_samples_follow_the_running_task, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_table_is_counted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ended_task_keeps_its_row, setup, teardown),
    };
    return cmocka_run_group_tests_name("per-task time", tests, NULL, NULL);
}
