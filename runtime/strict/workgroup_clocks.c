#include "workgroup_clocks.h"

#include <stdlib.h>
#include <string.h>

#include "shader_abi.h"

#define NO_CLOCK 0u

/* Per subgroup, clocks are rows of `subgroups` moments (0: nothing). */
struct vkmm_workgroup_clocks {
    uint32_t subgroups, words;
    bool used;      /* a fence or an atomic ran in this workgroup: the rows hold something */
    bool broken;    /* the rows could not be made: every access counts as ordered */
    bool lenient;   /* a word's clock could not be kept: every acquire joins `released` */
    uint32_t *seen;     /* [s]: the releases s acquired */
    uint32_t *fence;    /* [s]: s's clock at its last release fence (its own entry that fence's moment) */
    uint32_t *pending;  /* [s]: what s's atomic reads returned: an acquire fence joins it */
    uint32_t *carried;  /* [s]: the clock s's announced atomic write carries */
    uint32_t *released; /* one row: every clock a write carried */
    uint32_t *unnamed;  /* [s]: `released` when s's announced atomic read ran (if it names no word) */
    uint32_t *op;       /* [s]: the VKMM_SYNC_* kind of s's announced atomic, 0: none */
    bool *fenced, *carries, *named;
    /* Per word, index + 1 of its clock in `pool` (NO_CLOCK: none); the
     * pool's entries say their word, so a new workgroup clears only those. */
    uint32_t *word_clock;
    uint32_t *pool, *pool_word, pool_count, pool_room;
};

struct vkmm_workgroup_clocks *vkmm_workgroup_clocks_create(uint32_t subgroups, uint32_t words)
{
    struct vkmm_workgroup_clocks *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->subgroups = subgroups ? subgroups : 1;
    c->words = words;
    return c;
}

void vkmm_workgroup_clocks_destroy(struct vkmm_workgroup_clocks *c)
{
    if (!c)
        return;
    free(c->seen);
    free(c->fence);
    free(c->pending);
    free(c->carried);
    free(c->released);
    free(c->unnamed);
    free(c->op);
    free(c->fenced);
    free(c->carries);
    free(c->named);
    free(c->word_clock);
    free(c->pool);
    free(c->pool_word);
    free(c);
}

/* The rows, made when the first fence or atomic needs them. */
static bool make_rows(struct vkmm_workgroup_clocks *c)
{
    if (c->broken || c->seen)
        return !c->broken;
    size_t n = c->subgroups, rows = n * n;
    c->seen = calloc(rows, sizeof(uint32_t));
    c->fence = calloc(rows, sizeof(uint32_t));
    c->pending = calloc(rows, sizeof(uint32_t));
    c->carried = calloc(rows, sizeof(uint32_t));
    c->unnamed = calloc(rows, sizeof(uint32_t));
    c->released = calloc(n, sizeof(uint32_t));
    c->op = calloc(n, sizeof(uint32_t));
    c->fenced = calloc(n, sizeof(bool));
    c->carries = calloc(n, sizeof(bool));
    c->named = calloc(n, sizeof(bool));
    c->word_clock = calloc(c->words ? c->words : 1, sizeof(uint32_t));
    if (c->seen && c->fence && c->pending && c->carried && c->unnamed && c->released && c->op && c->fenced &&
        c->carries && c->named && c->word_clock)
        return true;
    c->broken = true;
    return false;
}

void vkmm_workgroup_clocks_begin(struct vkmm_workgroup_clocks *c)
{
    if (!c || !c->used)
        return;
    size_t n = c->subgroups, rows = n * n * sizeof(uint32_t);
    memset(c->seen, 0, rows);
    memset(c->fence, 0, rows);
    memset(c->pending, 0, rows);
    memset(c->released, 0, n * sizeof(uint32_t));
    memset(c->op, 0, n * sizeof(uint32_t));
    memset(c->fenced, 0, n * sizeof(bool));
    memset(c->named, 0, n * sizeof(bool));
    for (uint32_t i = 0; i < c->pool_count; i++)
        c->word_clock[c->pool_word[i]] = NO_CLOCK;
    c->pool_count = 0;
    c->lenient = false;
    c->used = false;
}

static uint32_t *row(const struct vkmm_workgroup_clocks *c, uint32_t *rows, uint32_t subgroup)
{
    return rows + (size_t)subgroup * c->subgroups;
}

static void join(const struct vkmm_workgroup_clocks *c, uint32_t *into, const uint32_t *from)
{
    for (uint32_t t = 0; t < c->subgroups; t++)
        if (from[t] > into[t])
            into[t] = from[t];
}

/* The clock the subgroup's atomic write carries: its own clock with its
 * release at `moment` (a release atomic), or its clock at its last release
 * fence (a fence, then an atomic write); none for a relaxed write after no
 * fence, and none at Subgroup scope, which orders no other subgroup. */
static void prepare_carried(struct vkmm_workgroup_clocks *c, uint32_t s, uint32_t kind, uint32_t moment)
{
    uint32_t *carried = row(c, c->carried, s);
    c->carries[s] = false;
    if (!(kind & VKMM_SYNC_ATOMIC_WRITE) || (kind & VKMM_SYNC_NARROW))
        return;
    if (kind & VKMM_SYNC_RELEASE) {
        memcpy(carried, row(c, c->seen, s), c->subgroups * sizeof(uint32_t));
        carried[s] = moment;
    } else if (c->fenced[s]) {
        memcpy(carried, row(c, c->fence, s), c->subgroups * sizeof(uint32_t));
    } else {
        return;
    }
    c->carries[s] = true;
    join(c, c->released, carried);
}

void vkmm_workgroup_clocks_sync(struct vkmm_workgroup_clocks *c, uint32_t s, uint32_t kind, uint32_t moment)
{
    if (!c || s >= c->subgroups || !make_rows(c))
        return;
    vkmm_workgroup_clocks_settle(c, s);
    c->used = true;
    if (kind & (VKMM_SYNC_ATOMIC_WRITE | VKMM_SYNC_ATOMIC_READ)) {
        c->op[s] = kind;
        /* Should it name no word: the releases made before it ran. */
        if ((kind & VKMM_SYNC_ATOMIC_READ) && !(kind & VKMM_SYNC_NARROW))
            memcpy(row(c, c->unnamed, s), c->released, c->subgroups * sizeof(uint32_t));
        prepare_carried(c, s, kind, moment);
        return;
    }
    if (kind & VKMM_SYNC_NARROW)
        return;
    if (kind & VKMM_SYNC_RELEASE) {
        uint32_t *fence = row(c, c->fence, s);
        memcpy(fence, row(c, c->seen, s), c->subgroups * sizeof(uint32_t));
        fence[s] = moment;
        c->fenced[s] = true;
    }
    if (kind & VKMM_SYNC_ACQUIRE)
        join(c, row(c, c->seen, s), row(c, c->pending, s));
}

/* The clock of `word`, made when missing; NULL when out of memory (then
 * every acquire is lenient). */
static uint32_t *word_clock(struct vkmm_workgroup_clocks *c, uint32_t word)
{
    if (c->word_clock[word] != NO_CLOCK)
        return row(c, c->pool, c->word_clock[word] - 1);
    if (c->pool_count == c->pool_room) {
        uint32_t room = c->pool_room ? c->pool_room * 2 : 16;
        uint32_t *pool = realloc(c->pool, (size_t)room * c->subgroups * sizeof(uint32_t));
        if (pool)
            c->pool = pool;
        uint32_t *words = pool ? realloc(c->pool_word, (size_t)room * sizeof(uint32_t)) : NULL;
        if (!words) {
            c->lenient = true;
            return NULL;
        }
        c->pool_word = words;
        c->pool_room = room;
    }
    uint32_t index = c->pool_count++;
    c->pool_word[index] = word;
    c->word_clock[word] = index + 1;
    uint32_t *clock = row(c, c->pool, index);
    memset(clock, 0, c->subgroups * sizeof(uint32_t));
    return clock;
}

/* An acquire: what it read (`from`, or every carried clock when the word's
 * clock is unknown) happens before what the subgroup does next. */
static void acquire_from(struct vkmm_workgroup_clocks *c, uint32_t s, uint32_t kind, const uint32_t *from)
{
    if (kind & VKMM_SYNC_NARROW)
        return;
    if (c->lenient)
        from = c->released;
    if (!from)
        return;
    join(c, row(c, c->pending, s), from);
    if (kind & VKMM_SYNC_ACQUIRE)
        join(c, row(c, c->seen, s), from);
}

/* Rows made and whole: a broken clock set counts everything as ordered. */
static bool rows_ready(const struct vkmm_workgroup_clocks *c, uint32_t s)
{
    return c && !c->broken && c->seen && s < c->subgroups;
}

void vkmm_workgroup_clocks_atomic_word(struct vkmm_workgroup_clocks *c, uint32_t s, uint32_t word)
{
    if (!rows_ready(c, s) || !c->op[s] || word >= c->words)
        return;
    uint32_t kind = c->op[s];
    c->named[s] = true;
    uint32_t index = c->word_clock[word];
    if (kind & VKMM_SYNC_ATOMIC_READ)
        acquire_from(c, s, kind, index != NO_CLOCK ? row(c, c->pool, index - 1) : NULL);
    if (!(kind & VKMM_SYNC_ATOMIC_WRITE))
        return;
    if (kind & VKMM_SYNC_ATOMIC_READ) {
        /* A read-modify-write continues the release sequence of the value
         * it read (000 "Release Sequence") and adds its own release. */
        if (!c->carries[s])
            return;
        uint32_t *clock = word_clock(c, word);
        if (clock)
            join(c, clock, row(c, c->carried, s));
        return;
    }
    /* A store heads a new sequence: what the word carried before is gone. */
    if (!c->carries[s]) {
        if (index != NO_CLOCK) /* kept, cleared: a store loop reuses its entry */
            memset(row(c, c->pool, index - 1), 0, c->subgroups * sizeof(uint32_t));
        return;
    }
    uint32_t *clock = word_clock(c, word);
    if (clock)
        memcpy(clock, row(c, c->carried, s), c->subgroups * sizeof(uint32_t));
}

void vkmm_workgroup_clocks_settle(struct vkmm_workgroup_clocks *c, uint32_t s)
{
    if (!rows_ready(c, s) || !c->op[s])
        return;
    if (!c->named[s] && (c->op[s] & VKMM_SYNC_ATOMIC_READ))
        acquire_from(c, s, c->op[s], row(c, c->unnamed, s));
    c->op[s] = 0;
    c->named[s] = false;
}

bool vkmm_workgroup_clocks_ordered(const struct vkmm_workgroup_clocks *c, uint32_t later, uint32_t earlier,
                                   uint32_t moment)
{
    if (!c || c->broken)
        return true;
    if (!c->used || later >= c->subgroups || earlier >= c->subgroups)
        return false;
    return row(c, c->seen, later)[earlier] > moment;
}
