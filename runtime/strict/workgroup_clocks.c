#include "workgroup_clocks.h"

#include <stdlib.h>
#include <string.h>

#include "key_index.h"
#include "shader_abi.h"

#define NO_CLOCK 0u
/* Sparse clocks keep at most this many words (a row of `subgroups`
 * moments each): past it, every acquire is lenient. */
#define MAX_SPARSE_WORDS 16384u

/* Per subgroup, clocks are rows of `subgroups` moments (0: nothing). */
struct vkmm_workgroup_clocks {
    uint32_t subgroups, words;
    bool used;      /* a fence or an atomic ran in this workgroup: the rows hold something */
    bool broken;    /* the rows could not be made: every access counts as ordered */
    bool lenient;   /* a word's clock could not be kept: every acquire joins `released` */
    bool sparse;    /* words of device memory (vkmm_workgroup_clocks_create_sparse) */
    uint32_t *seen;     /* [s]: the releases s acquired */
    uint32_t *fence;    /* [s]: s's clock at its last release fence (its own entry that fence's moment) */
    uint32_t *pending;  /* [s]: what s's atomic reads returned: an acquire fence joins it */
    uint32_t *last;     /* [s]: what its last atomic instruction's reads returned (sparse: its acquire half) */
    uint32_t *carried;  /* [s]: the clock s's announced atomic write carries */
    uint32_t *released; /* one row: every clock a write carried (sparse: and every release fence) */
    uint32_t *unnamed;  /* [s]: `released` when s's announced atomic read ran (if it names no word) */
    uint32_t *op;       /* [s]: the VKMM_SYNC_* kind of s's announced atomic, 0: none */
    bool *fenced, *carries, *named;
    /* Per word, index + 1 of its clock in `pool` (NO_CLOCK: none): an
     * array over the words, or (sparse) a hash table; the pool's entries
     * say their word, so a new workgroup clears only those. */
    uint32_t *word_clock;
    struct vkmm_key_index index;
    uint32_t *pool, pool_count, pool_room;
    uint64_t *pool_word;
    /* Clocks of atomic stores waiting in a store buffer (token = index + 1):
     * a row each, whether it carries one, and the free rows. */
    uint32_t *deferred, deferred_count, deferred_room;
    bool *deferred_carries;
    uint32_t *deferred_free, free_count;
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

struct vkmm_workgroup_clocks *vkmm_workgroup_clocks_create_sparse(uint32_t subgroups)
{
    struct vkmm_workgroup_clocks *c = vkmm_workgroup_clocks_create(subgroups, 0);
    if (c)
        c->sparse = true;
    return c;
}

void vkmm_workgroup_clocks_destroy(struct vkmm_workgroup_clocks *c)
{
    if (!c)
        return;
    free(c->seen);
    free(c->fence);
    free(c->pending);
    free(c->last);
    free(c->carried);
    free(c->released);
    free(c->unnamed);
    free(c->op);
    free(c->fenced);
    free(c->carries);
    free(c->named);
    free(c->word_clock);
    free(c->index.slots);
    free(c->pool);
    free(c->pool_word);
    free(c->deferred);
    free(c->deferred_carries);
    free(c->deferred_free);
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
    c->last = calloc(rows, sizeof(uint32_t));
    c->carried = calloc(rows, sizeof(uint32_t));
    c->unnamed = calloc(rows, sizeof(uint32_t));
    c->released = calloc(n, sizeof(uint32_t));
    c->op = calloc(n, sizeof(uint32_t));
    c->fenced = calloc(n, sizeof(bool));
    c->carries = calloc(n, sizeof(bool));
    c->named = calloc(n, sizeof(bool));
    c->word_clock = c->sparse ? NULL : calloc(c->words ? c->words : 1, sizeof(uint32_t));
    if (c->seen && c->fence && c->pending && c->last && c->carried && c->unnamed && c->released && c->op && c->fenced &&
        c->carries && c->named && (c->sparse || c->word_clock))
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
    memset(c->last, 0, rows);
    memset(c->released, 0, n * sizeof(uint32_t));
    memset(c->op, 0, n * sizeof(uint32_t));
    memset(c->fenced, 0, n * sizeof(bool));
    memset(c->named, 0, n * sizeof(bool));
    if (c->sparse && c->pool_count)
        vkmm_key_index_clear(&c->index);
    for (uint32_t i = 0; !c->sparse && i < c->pool_count; i++)
        c->word_clock[c->pool_word[i]] = NO_CLOCK;
    c->pool_count = 0;
    c->deferred_count = c->free_count = 0; /* the waiting stores were dropped with their workgroup */
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
        /* Device memory: the atomic write it releases through may be on
         * storage these clocks never see (a flag in Workgroup storage). */
        if (c->sparse)
            join(c, c->released, fence);
    }
    if (kind & VKMM_SYNC_ACQUIRE)
        join(c, row(c, c->seen, s), row(c, c->pending, s));
}

static uint64_t pool_key(const void *entries, uint32_t i)
{
    return ((const uint64_t *)entries)[i];
}

/* Index + 1 of the clock of `word` in the pool, NO_CLOCK: none. */
static uint32_t clock_index(const struct vkmm_workgroup_clocks *c, uint64_t word)
{
    if (!c->sparse)
        return c->word_clock[word];
    return c->index.slots ? c->index.slots[vkmm_key_index_slot(&c->index, word, pool_key, c->pool_word)] : NO_CLOCK;
}

/* The clock of `word`, made when missing; NULL when out of memory (then
 * every acquire is lenient). */
static uint32_t *word_clock(struct vkmm_workgroup_clocks *c, uint64_t word)
{
    uint32_t known = clock_index(c, word);
    if (known != NO_CLOCK)
        return row(c, c->pool, known - 1);
    if (c->sparse && c->pool_count >= MAX_SPARSE_WORDS) {
        c->lenient = true;
        return NULL;
    }
    if (c->pool_count == c->pool_room) {
        uint32_t room = c->pool_room ? c->pool_room * 2 : 16;
        uint32_t *pool = realloc(c->pool, (size_t)room * c->subgroups * sizeof(uint32_t));
        if (pool)
            c->pool = pool;
        uint64_t *words = pool ? realloc(c->pool_word, (size_t)room * sizeof(uint64_t)) : NULL;
        if (!words) {
            c->lenient = true;
            return NULL;
        }
        c->pool_word = words;
        c->pool_room = room;
    }
    if (c->sparse && !vkmm_key_index_grow(&c->index, c->pool_count + 1, c->pool_count, pool_key, c->pool_word)) {
        c->lenient = true;
        return NULL;
    }
    uint32_t index = c->pool_count++;
    c->pool_word[index] = word;
    if (c->sparse)
        c->index.slots[vkmm_key_index_slot(&c->index, word, pool_key, c->pool_word)] = index + 1;
    else
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
    join(c, row(c, c->last, s), from);
    if (kind & VKMM_SYNC_ACQUIRE)
        join(c, row(c, c->seen, s), from);
}

/* Rows made and whole: a broken clock set counts everything as ordered. */
static bool rows_ready(const struct vkmm_workgroup_clocks *c, uint32_t s)
{
    return c && !c->broken && c->seen && s < c->subgroups;
}

void vkmm_workgroup_clocks_atomic_word(struct vkmm_workgroup_clocks *c, uint32_t s, uint64_t word)
{
    if (!rows_ready(c, s) || !c->op[s] || (!c->sparse && word >= c->words))
        return;
    uint32_t kind = c->op[s];
    c->named[s] = true;
    uint32_t index = clock_index(c, word);
    if (kind & VKMM_SYNC_ATOMIC_READ)
        acquire_from(c, s, kind, index != NO_CLOCK ? row(c, c->pool, index - 1) : NULL);
    if (!(kind & VKMM_SYNC_ATOMIC_WRITE))
        return;
    if ((kind & VKMM_SYNC_ATOMIC_READ) || c->sparse) {
        /* A read-modify-write continues the release sequence of the value
         * it read (000 "Release Sequence") and adds its own release.  On
         * device memory a store does too: a later load there may still
         * read a value from before it (atomic_history.h). */
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

void vkmm_workgroup_clocks_atomic_begins(struct vkmm_workgroup_clocks *c, uint32_t s)
{
    if (rows_ready(c, s))
        memset(row(c, c->last, s), 0, c->subgroups * sizeof(uint32_t));
}

void vkmm_workgroup_clocks_acquire_last(struct vkmm_workgroup_clocks *c, uint32_t s)
{
    if (!rows_ready(c, s))
        return;
    vkmm_workgroup_clocks_settle(c, s);
    c->used = true;
    join(c, row(c, c->seen, s), row(c, c->last, s));
}

/* A row for a deferred clock; 0 when out of memory. */
static uint32_t deferred_row(struct vkmm_workgroup_clocks *c)
{
    if (c->free_count)
        return c->deferred_free[--c->free_count] + 1;
    if (c->deferred_count == c->deferred_room) {
        uint32_t room = c->deferred_room ? c->deferred_room * 2 : 16;
        uint32_t *rows = realloc(c->deferred, (size_t)room * c->subgroups * sizeof(uint32_t));
        if (rows)
            c->deferred = rows;
        bool *carries = rows ? realloc(c->deferred_carries, room * sizeof(bool)) : NULL;
        if (carries)
            c->deferred_carries = carries;
        uint32_t *free_rows = carries ? realloc(c->deferred_free, room * sizeof(uint32_t)) : NULL;
        if (!free_rows)
            return 0;
        c->deferred_free = free_rows;
        c->deferred_room = room;
    }
    return ++c->deferred_count;
}

uint32_t vkmm_workgroup_clocks_defer(struct vkmm_workgroup_clocks *c, uint32_t s)
{
    if (!rows_ready(c, s) || c->sparse || (c->op[s] & (VKMM_SYNC_ATOMIC_READ | VKMM_SYNC_ATOMIC_WRITE)) !=
                                                          VKMM_SYNC_ATOMIC_WRITE)
        return 0;
    uint32_t token = deferred_row(c);
    if (!token)
        return 0;
    c->named[s] = true;
    c->deferred_carries[token - 1] = c->carries[s];
    memcpy(row(c, c->deferred, token - 1), row(c, c->carried, s), c->subgroups * sizeof(uint32_t));
    return token;
}

void vkmm_workgroup_clocks_land(struct vkmm_workgroup_clocks *c, uint32_t token, uint32_t first, uint32_t last)
{
    if (!c || c->broken || !token || token > c->deferred_count)
        return;
    const uint32_t *carried = row(c, c->deferred, token - 1);
    /* A store heads a new sequence, but a later load may still read a
     * value from before it (a store that waited in a store buffer: its
     * word keeps a coherence order, workgroup_monitor_history.c), so its
     * clock joins the word's, as on device memory (lenient). */
    for (uint32_t word = first; word <= last && word < c->words && c->deferred_carries[token - 1]; word++) {
        uint32_t *clock = word_clock(c, word);
        if (clock)
            join(c, clock, carried);
    }
    c->deferred_free[c->free_count++] = token - 1;
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
