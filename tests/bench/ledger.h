/*
 * The bench's Dhrystone-like workload (make bench: the whole cost of -pg and of the
 * stack-profiling mode on an ordinary program). Included twice into its firmware, by
 * ledger_pg.c (compiled with -pg, and -finstrument-functions in the stack mode's
 * configuration) and ledger_plain.c (without), each defining LEDGER(name) to give its copy
 * names of its own: the same code, measured both ways under QEMU -icount in one run.
 *
 * What it is like: a small stock ledger. Records with an enumeration, integers and a
 * fixed-size text field; each pass copies a record, compares and copies texts character
 * by character, updates counters through pointers, fills two tables and walks a short
 * chain: about a dozen calls of small procedures a pass, a few dozen instructions each at
 * -O2, as in the classic synthetic benchmarks of integer code. Written for this bench.
 */
#include <stdint.h>

#ifndef LEDGER_TYPES
#define LEDGER_TYPES
enum ledger_kind { KIND_RAW, KIND_PART, KIND_UNIT, KIND_KIT, KIND_SPARE };
#define LEDGER_TEXT 31
#define LEDGER_ROWS 16
struct ledger_item {
    struct ledger_item *next;
    enum ledger_kind kind;
    int32_t stock, price;
    char label[LEDGER_TEXT];
};
#endif

#define LEDGER_NOINLINE __attribute__((noinline, noclone))

/* Each copy's own state, so that the two runs are alike. */
static struct ledger_item LEDGER(items)[3];
static struct ledger_item *LEDGER(head);
static int32_t LEDGER(level);
static char LEDGER(grade), LEDGER(mark);
static int LEDGER(flag);
static int32_t LEDGER(row)[LEDGER_ROWS];
static int32_t LEDGER(grid)[LEDGER_ROWS][LEDGER_ROWS];
static char LEDGER(note_a)[LEDGER_TEXT], LEDGER(note_b)[LEDGER_TEXT];

/* A text copied up to its terminator (the C library's would not be instrumented). */
LEDGER_NOINLINE static void LEDGER(text_copy)(char *d, const char *s)
{
    while ((*d++ = *s++) != 0)
        ;
}

/* <0, 0, >0 as a sorts before, with or after b. */
LEDGER_NOINLINE static int LEDGER(text_order)(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

LEDGER_NOINLINE static char LEDGER(char_match)(char a, char b)
{
    return a == b ? 'Y' : 'N';
}

LEDGER_NOINLINE static int LEDGER(kind_stocked)(enum ledger_kind k)
{
    return k == KIND_UNIT || k == KIND_KIT;
}

/* Two labels compared the long way: a character pair, then the whole texts. */
LEDGER_NOINLINE static int LEDGER(label_after)(const char *a, const char *b)
{
    int i = 2;
    char c = 'A';
    while (i <= 2) {
        if (LEDGER(char_match)(a[i], b[i + 1]) == 'N') {
            c = 'B';
            i++;
        } else {
            i += 3;
        }
    }
    if (c >= 'W' && c < 'Z')
        i = 7;
    if (c == 'R')
        return 1;
    if (LEDGER(text_order)(a, b) > 0) {
        i += 7;
        LEDGER(level) = i;
        return 1;
    }
    return 0;
}

LEDGER_NOINLINE static void LEDGER(sum_into)(int32_t a, int32_t b, int32_t *out)
{
    *out = b + a + 2;
}

LEDGER_NOINLINE static void LEDGER(kind_after)(enum ledger_kind k, enum ledger_kind *out)
{
    *out = k;
    if (!LEDGER(kind_stocked)(k))
        *out = KIND_SPARE;
    switch (k) {
    case KIND_RAW: *out = KIND_RAW; break;
    case KIND_PART: *out = LEDGER(level) > 100 ? KIND_RAW : KIND_SPARE; break;
    case KIND_UNIT: *out = KIND_PART; break;
    case KIND_KIT: break;
    case KIND_SPARE: *out = KIND_UNIT; break;
    }
}

LEDGER_NOINLINE static void LEDGER(tables_fill)(int32_t *row, int32_t (*grid)[LEDGER_ROWS],
                                                int32_t a, int32_t b)
{
    int32_t at = a + 5;
    row[at] = b;
    row[at + 1] = row[at];
    row[at + 6] = at;
    for (int32_t i = at; i <= at + 1; i++)
        grid[at][i] = at;
    grid[at][at - 1] += 1;
    grid[at + 6][at] = row[at];
    LEDGER(level) = 5;
}

LEDGER_NOINLINE static void LEDGER(chain_link)(struct ledger_item **out)
{
    if (LEDGER(head))
        *out = LEDGER(head)->next;
    LEDGER(sum_into)(10, LEDGER(level), &LEDGER(head)->stock);
}

LEDGER_NOINLINE static void LEDGER(count_down)(int32_t *n)
{
    int32_t v = *n + 10;
    for (;;) {
        if (LEDGER(grade) == 'A') {
            v--;
            *n = v - LEDGER(level);
            return;
        }
        v--;
    }
}

LEDGER_NOINLINE static void LEDGER(flags_mix)(void)
{
    int f = LEDGER(grade) == 'A';
    LEDGER(flag) = f | LEDGER(flag);
    LEDGER(mark) = 'B';
}

LEDGER_NOINLINE static void LEDGER(flags_set)(void)
{
    LEDGER(grade) = 'A';
    LEDGER(flag) = 0;
}

/* A record revised through the chain: copied whole, then its copy updated. */
LEDGER_NOINLINE static void LEDGER(item_revise)(struct ledger_item *r)
{
    struct ledger_item *n = r->next;
    *n = *LEDGER(head);
    r->stock = 5;
    n->stock = r->stock;
    n->next = r->next;
    LEDGER(chain_link)(&n->next);
    if (n->kind == KIND_RAW) {
        n->stock = 6;
        LEDGER(kind_after)(r->kind, &n->kind);
        n->next = LEDGER(head)->next;
        LEDGER(sum_into)(n->stock, 10, &n->stock);
    } else {
        *r = *n;
    }
}

/* One pass of the ledger: a dozen calls of the procedures above. */
LEDGER_NOINLINE static int32_t LEDGER(pass)(int32_t i)
{
    int32_t a, b, c;
    enum ledger_kind k;
    LEDGER(flags_set)();
    LEDGER(flags_mix)();
    a = 2;
    b = 3;
    LEDGER(text_copy)(LEDGER(note_b), "LEDGER, THE SECOND LINE");
    k = KIND_PART;
    LEDGER(flag) = !LEDGER(label_after)(LEDGER(note_a), LEDGER(note_b));
    while (a < b) {
        c = 5 * a - b;
        LEDGER(sum_into)(a, b, &c);
        a++;
    }
    LEDGER(tables_fill)(LEDGER(row), LEDGER(grid), a, c);
    LEDGER(item_revise)(LEDGER(head));
    for (char ch = 'A'; ch <= LEDGER(mark); ch++) {
        if (k == (enum ledger_kind)(LEDGER(char_match)(ch, 'C') == 'Y')) {
            LEDGER(kind_after)(KIND_RAW, &k);
            LEDGER(text_copy)(LEDGER(note_b), "LEDGER, THE THIRD LINE");
            b = i;
            LEDGER(level) = i;
        }
    }
    b = b * a;
    c = b / a;
    b = 7 * (b - c) - a;
    LEDGER(count_down)(&a);
    return a + b + c + (int32_t)k + LEDGER(level);
}

/* The workload: passes passes over freshly set-up records; the same result with and
 * without -pg. */
LEDGER_NOINLINE uint32_t LEDGER(run)(uint32_t passes)
{
    LEDGER(head) = &LEDGER(items)[0];
    LEDGER(items)[0] = (struct ledger_item){ .next = &LEDGER(items)[1], .kind = KIND_UNIT,
                                             .stock = 40 };
    LEDGER(text_copy)(LEDGER(items)[0].label, "LEDGER, A LINE OF TEXT");
    LEDGER(items)[1].next = &LEDGER(items)[2];
    LEDGER(items)[2].next = &LEDGER(items)[0];
    LEDGER(text_copy)(LEDGER(note_a), "LEDGER, THE FIRST LINE");
    LEDGER(grid)[8][7] = 10;
    uint32_t acc = 0;
    for (uint32_t i = 1; i <= passes; i++)
        acc = acc * 33 + (uint32_t)LEDGER(pass)((int32_t)i);
    return acc + (uint32_t)LEDGER(items)[0].stock + (uint32_t)LEDGER(row)[8];
}
