/*
 * Per-task time: every timer sample is counted for the task that was running when it was
 * taken (profile_task_switch, which an RTOS calls from its switch hook), and the task table
 * leaves the target as gmon.tasks beside gmon.out (doc/format.md).
 *
 * The sample path does nothing for it: the running task's samples are those counted since
 * it was switched in (profile_samples_since_on(), which only a sample moves, against the
 * table's folded_at), and a switch adds them to its slot. The switch runs masked, so every
 * sample is counted for exactly one task whatever the interleaving (a switch from any
 * handler, a sample in any handler).
 * A sample in an interrupt handler counts for the task it interrupted, as FreeRTOS's
 * run-time statistics do.
 */
#include <errno.h>
#include <string.h>
#include <cyg/profile/gmon.h>
#include "profile_priv.h"

#define TASKS      ((uint32_t)CYGNUM_PROFILE_TASKS)
#define OTHER      TASKS        /* the slot of the tasks that found none */
#define NAME_MAX_BYTES 255u     /* gmon.tasks keeps a name's first 255 bytes */
#define ENDED_NAME_BYTES ((uint32_t)CYGNUM_PROFILE_TASK_NAME_BYTES)

/* The task table (profile_priv.h): owned by this file; changed in lock sections
 * (profile_task_switch, a reset, a snapshot); read by gdb/gprof.gdb. */
struct profile_tasks profile_tasks = {
    .used = 1,
    .slots = { [0] = { .id = 0, .name = "main" },
               [TASKS] = { .id = UINTPTR_MAX, .name = "(other tasks)" } },
};

/* The running task's samples into its slot. In a lock section. */
static void fold_running(struct profile_tasks *t)
{
    uint32_t now = profile_samples_since_on();
    t->slots[t->current].samples += now - t->folded_at;
    t->folded_at = now;
}

/* The slots in use (registered, and "(other tasks)"), in order: what the loops visit. */
#define FOR_EACH_SLOT(i, t) \
    for (uint32_t i = 0; i <= TASKS; i = i + 1 == (t)->used ? OTHER : i + 1)

#if CYGNUM_PROFILE_TASK_NAME_BYTES
/* The names of ended tasks, by slot (profile_task_end): the RTOS frees a task's string with
 * it, and gmon.tasks is written later. A slot is never given to another task, so its copy
 * stays as the table and its frozen and kept copies (which point here) need it. Owned by
 * this file; written in profile_task_end's lock section, once a slot. */
static char ended_names[CYGNUM_PROFILE_TASKS][CYGNUM_PROFILE_TASK_NAME_BYTES];
#endif

static void copies_renamed(uint32_t i, uintptr_t id, uintptr_t ended_id, const char *was,
                           const char *kept);

/* Slot i's name, kept: copied into ended_names[i] (truncated), or dropped if none are
 * kept; the table's copies that still point at the task's string point at the copy. */
static const char *keep_name(uint32_t i, const char *name)
{
    const char *kept = NULL;
#if CYGNUM_PROFILE_TASK_NAME_BYTES
    if (name) {
        uint32_t n = 0;
        while (n + 1 < ENDED_NAME_BYTES && name[n]) {
            ended_names[i][n] = name[n];
            n++;
        }
        ended_names[i][n] = '\0';
        kept = ended_names[i];
    }
#endif
    return kept;
}

int profile_task_end(uintptr_t id)
{
    struct profile_tasks *t = &profile_tasks;
    int rc = -ENOENT;
    hal_profile_irq_state irq = profile_lock();
    for (uint32_t i = 0; i < t->used; i++) {
        struct profile_task *k = &t->slots[i];
        if (k->id != id)
            continue;
        const char *was = k->name;
        k->name = keep_name(i, was);
        k->id = PROFILE_TASK_ENDED_ID(t->ended);
        t->ended++;
        copies_renamed(i, id, k->id, was, k->name);
#if PROFILE_STACKS
        profile_stack_end(id, k->id);
#endif
        rc = 0;
        break;
    }
    profile_unlock(irq);
    return rc;
}

int profile_task_switch(uintptr_t id, const char *name)
{
    struct profile_tasks *t = &profile_tasks;
    int rc = 0;
    hal_profile_irq_state irq = profile_lock();
    fold_running(t);
    uint32_t i = 0;
    while (i < t->used && t->slots[i].id != id)
        i++;
    if (i == t->used) {
        if (t->used < TASKS) {
            t->slots[i] = (struct profile_task){ .id = id, .name = name };
            t->used++;
        } else {
            t->unregistered++;
            i = OTHER;
            rc = -ENOMEM;
        }
    } else if (name) {
        t->slots[i].name = name;
    }
    t->current = i;
#if PROFILE_STACKS
    if (profile_stack_select(id) != 0)
        rc = -ENOMEM;
#endif
    profile_unlock(irq);
    return rc;
}

int profile_stack_switch(uintptr_t id)
{
    return profile_task_switch(id, NULL);
}

void profile_task_clear(void)
{
    struct profile_tasks *t = &profile_tasks;
    t->folded_at = profile_samples_since_on();  /* (the running task's: dropped too) */
    FOR_EACH_SLOT(i, t)
        t->slots[i].samples = 0;
    t->unregistered = 0;
}

/* A copy of the table at one moment, with what gmon.tasks's header says of it. */
struct table_copy {
    uint32_t valid;
    uint32_t prof_rate, samples_total;      /* of the gmon.out it goes with */
    struct profile_tasks table;
};

/* The memory of frozen and kept (below): when the daemon keeps a delivered snapshot's
 * table, the two pointers swap (in the release's masked section: nothing is copied). Owned
 * by this file, through the two pointers. */
static struct table_copy copies[1 + PROFILE_TFTP];

/* The table a snapshot froze (profile_snapshot_take), taken out of the live one in the same
 * step as gmon.out's data: the same moment. Owned by this file; changed in the snapshot's
 * lock sections (freeze, thaw, forget) and by profile_stop (forget). */
static struct table_copy *frozen = &copies[0];

#if PROFILE_TFTP
/* The table of the last gmon.out a TFTP client took delivery of, which `get gmon.tasks`
 * serves until the next gmon.out is delivered (as gmon.stacks's, stacks.c). Owned by this
 * file: set by profile_task_thaw (PROFILE_SNAPSHOT_DELIVERED_GMON), dropped by
 * profile_task_forget; read by the daemon through profile_task_kept_read, which checks
 * kept_generation (counts every change of kept, owned with it). */
static struct table_copy *kept = &copies[1];
static uint32_t kept_generation;
#endif

/* Slot i's task (id, named was) ended: the table's copies that have it take its new id and
 * the name kept, as the stack mode's context node (shared by every copy of the tree) takes
 * the id: gmon.stacks and gmon.tasks of one snapshot name the task alike. */
static void copies_renamed(uint32_t i, uintptr_t id, uintptr_t ended_id, const char *was,
                           const char *kept)
{
    for (uint32_t c = 0; c < sizeof copies / sizeof copies[0]; c++) {
        struct profile_task *k = &copies[c].table.slots[i];
        if (copies[c].valid && i < copies[c].table.used && k->id == id) {
            k->id = ended_id;
            if (k->name == was)
                k->name = kept;
        }
    }
}

void profile_task_freeze(void)
{
    struct profile_tasks *t = &profile_tasks;
    fold_running(t);
    frozen->valid = 1;
    frozen->prof_rate = profile_frozen.prof_rate;
    frozen->samples_total = profile_frozen.samples;
    frozen->table.current = t->current;
    frozen->table.used = t->used;
    frozen->table.unregistered = t->unregistered;
    FOR_EACH_SLOT(i, t)
        frozen->table.slots[i] = t->slots[i];
    profile_task_clear();
}

void profile_task_thaw(int delivered)
{
    struct profile_tasks *t = &profile_tasks;
    if (!frozen->valid)
        return;
    if (!delivered) {
        /* (the slots registered meanwhile come after the frozen ones: same indices) */
        FOR_EACH_SLOT(i, &frozen->table)
            t->slots[i].samples += frozen->table.slots[i].samples;
        t->unregistered += frozen->table.unregistered;
    }
#if PROFILE_TFTP
    if (delivered == PROFILE_SNAPSHOT_DELIVERED_GMON) {
        struct table_copy *was_kept = kept;
        kept = frozen;
        frozen = was_kept;
        kept_generation++;
    }
#endif
    frozen->valid = 0;
}

void profile_task_forget(void)
{
    frozen->valid = 0;
#if PROFILE_TFTP
    kept->valid = 0;
    kept_generation++;
#endif
}

/* gmon.tasks (doc/format.md): a 32-byte header, then a record per task in slot order, the
 * "(other tasks)" record last if a switch found no slot or it has samples. */
#define HEADER_BYTES 32u
#define ADDR_BYTES   ((unsigned)sizeof(uintptr_t))

static uint32_t records(const struct profile_tasks *t)
{
    const struct profile_task *other = &t->slots[OTHER];
    return t->used + (t->unregistered || other->samples ? 1u : 0u);
}

static const struct profile_task *record_task(const struct profile_tasks *t, uint32_t r)
{
    return &t->slots[r < t->used ? r : OTHER];
}

static uint32_t name_len(const struct profile_task *k)
{
    uint32_t n = 0;
    while (k->name && n < NAME_MAX_BYTES && k->name[n])
        n++;
    return n;
}

static size_t record_bytes(const struct profile_task *k)
{
    return ADDR_BYTES + 8u + (name_len(k) + 3u) / 4u * 4u;
}

static size_t image_size(const struct table_copy *c)
{
    if (!c->valid)
        return 0;
    size_t size = HEADER_BYTES;
    for (uint32_t r = 0; r < records(&c->table); r++)
        size += record_bytes(record_task(&c->table, r));
    return size;
}

/* Record index (0: the header, r + 1: task record r) of c into rec; its size. */
static size_t render(const struct table_copy *c, uint32_t index, uint8_t *rec)
{
    const struct profile_tasks *t = &c->table;
    uint8_t *p = rec;
    if (index == 0) {
        memcpy(p, "gmtk", 4);
        p = profile_put_uint(p + 4, 1, 4);
        p = profile_put_uint(p, 0x01020304u, 4);
        p = profile_put_uint(p, ADDR_BYTES, 1);
        p = profile_put_uint(p, 0, 3);
        p = profile_put_uint(p, c->prof_rate, 4);
        p = profile_put_uint(p, records(t), 4);
        p = profile_put_uint(p, c->samples_total, 4);
        p = profile_put_uint(p, t->unregistered, 4);
    } else {
        const struct profile_task *k = record_task(t, index - 1);
        uint32_t n = name_len(k);
        p = profile_put_uint(p, k->id, ADDR_BYTES);
        p = profile_put_uint(p, k->samples, 4);
        p = profile_put_uint(p, n, 4);
        memcpy(p, k->name ? k->name : "", n);
        memset(p + n, 0, (4u - n % 4u) % 4u);
        p += (n + 3u) / 4u * 4u;
    }
    return (size_t)(p - rec);
}

static size_t image_read(const struct table_copy *c, size_t offset, void *buf, size_t len)
{
    uint8_t rec[sizeof(uintptr_t) + 8 + NAME_MAX_BYTES + 1];
    size_t size = image_size(c), done = 0, start = 0;
    for (uint32_t index = 0; done < len && offset + done < size; index++) {
        size_t n = render(c, index, rec), at = offset + done;
        if (at < start + n) {
            size_t from = at - start, take = n - from < len - done ? n - from : len - done;
            memcpy((uint8_t *)buf + done, rec + from, take);
            done += take;
        }
        start += n;
    }
    return done;
}

size_t profile_task_image_size(void)
{
    return image_size(frozen);
}

size_t profile_task_image_read(size_t offset, void *buf, size_t len)
{
    return image_read(frozen, offset, buf, len);
}

#if PROFILE_TFTP
size_t profile_task_kept_size(uint32_t *generation)
{
    *generation = kept_generation;
    return image_size(kept);
}

size_t profile_task_kept_read(size_t offset, void *buf, size_t len)
{
    return image_read(kept, offset, buf, len);
}

int profile_task_kept_ended(uint32_t generation)
{
    return generation != kept_generation;
}
#endif
