#include "workgroup_monitor.h"

#include <stdlib.h>
#include <string.h>

#include "shader_abi.h"
#include "workgroup_store_buffer.h"

#define NOBODY 0
#define MANY 0xffffu
#define WORD 4u
#define LOST_WORD 0x80000000u /* in the lost list: the entry is a whole word */

/* What the workgroup did to one cell of shared memory since the last
 * barrier that synchronized Workgroup memory (the interval).  A cell is an
 * aligned 4-byte word while every access in the interval covers it whole
 * (the common case: 32-bit and wider shared data), or one byte: a word that
 * an access covers in part is split into four byte cells for the rest of
 * the interval, since races are between bytes (each byte is a memory
 * location).  A word whose interval is not the current one was not touched
 * since: lazily reset. */
struct cell {
    uint32_t interval;        /* words only */
    uint16_t writer;          /* local invocation index + 1 of the last write, or NOBODY */
    uint16_t writer_epoch;    /* the writer's subgroup-barrier count at the write */
    uint16_t reader;          /* local index + 1 of the reader, MANY, or NOBODY */
    uint16_t reader_subgroup; /* subgroup + 1 of every reader, MANY if several */
    uint16_t reader_epoch;    /* the last reader's subgroup-barrier count */
    bool writer_atomic, plain_read, lost;
    bool writer_early;        /* the last write went before a load ahead of it (VKMM_ACCESS_EARLY_STORE) */
    bool split;               /* words only: the state is in the four byte cells */
    uint32_t old;             /* the value at the start of the interval (its low byte for a byte cell) */
    uint32_t kept;            /* of two racing writes, the first's value */
    uint32_t writer_word, reader_word;
    uint32_t writer_call; /* the monitor call of the last write (lanes of one store share it) */
    const char *writer_text, *reader_text;
};

struct vkmm_workgroup_monitor {
    uint32_t local_size[3];
    uint32_t width, subgroups, size;
    uint8_t *shared;
    uint8_t *view;                 /* what a racing read sees instead (size bytes) */
    struct cell *words;            /* one per aligned word (the last may be partial) */
    struct cell *bytes;            /* one per byte, valid where its word is split */
    bool byte_cells;               /* every access splits its words: the reference of the unit tests */
    uint16_t *epoch;               /* per subgroup: subgroup barriers passed */
    uint32_t interval;
    bool arrivals_synchronize;     /* every subgroup at the pending barrier synchronizes memory */
    bool execution_barrier_passed; /* in this interval, a barrier without memory semantics */
    uint32_t *lost, lost_count;    /* cells with a lost write, restored when the interval ends */
    uint32_t call;                 /* monitor calls so far: one per access instruction of a subgroup */
    uint32_t workgroup[3];
    struct vkmm_workgroup_races *races;
    uint64_t seed; /* 0: every racing read stale (the stalest result) */
    struct vkmm_store_buffers *buffers; /* modules whose atomics all work on Workgroup storage */
    uint32_t *lane_offsets;             /* per lane, for the store buffers */
};

struct vkmm_workgroup_monitor *vkmm_workgroup_monitor_create(const uint32_t local_size[3], uint32_t width,
                                                             uint32_t shared_size,
                                                             struct vkmm_workgroup_races *races)
{
    struct vkmm_workgroup_monitor *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    memcpy(m->local_size, local_size, sizeof(m->local_size));
    uint32_t invocations = local_size[0] * local_size[1] * local_size[2];
    m->width = width;
    m->subgroups = (invocations + width - 1) / width;
    m->size = shared_size;
    m->races = races;
    size_t slots = shared_size ? shared_size : 1, words = (slots + WORD - 1) / WORD;
    m->view = malloc(slots);
    m->words = calloc(words, sizeof(*m->words));
    m->bytes = calloc(words * WORD, sizeof(*m->bytes));
    m->epoch = calloc(m->subgroups ? m->subgroups : 1, sizeof(*m->epoch));
    m->lost = malloc(slots * sizeof(*m->lost));
    m->buffers = vkmm_store_buffers_create(m->subgroups, shared_size);
    m->lane_offsets = calloc(width ? width : 1, sizeof(*m->lane_offsets));
    if (!m->view || !m->words || !m->bytes || !m->epoch || !m->lost || !m->buffers || !m->lane_offsets) {
        vkmm_workgroup_monitor_destroy(m);
        return NULL;
    }
    return m;
}

void vkmm_workgroup_monitor_use_byte_cells(struct vkmm_workgroup_monitor *m)
{
    m->byte_cells = true;
}

void vkmm_workgroup_monitor_destroy(struct vkmm_workgroup_monitor *m)
{
    if (!m)
        return;
    free(m->view);
    free(m->words);
    free(m->bytes);
    free(m->epoch);
    free(m->lost);
    vkmm_store_buffers_destroy(m->buffers);
    free(m->lane_offsets);
    free(m);
}

void vkmm_workgroup_monitor_begin(struct vkmm_workgroup_monitor *m, uint8_t *shared, const uint32_t workgroup[3])
{
    m->shared = shared;
    memcpy(m->workgroup, workgroup, sizeof(m->workgroup));
    memset(m->epoch, 0, m->subgroups * sizeof(*m->epoch));
    m->interval++; /* every cell state of the last workgroup is stale now */
    m->arrivals_synchronize = true;
    m->execution_barrier_passed = false;
    m->lost_count = 0;
    vkmm_store_buffers_begin(m->buffers, shared, m->seed);
}

/* The interval ends: writes that lost a race are undone (the earlier
 * racing write stays, DESIGN §3 "manifest"), and everything before is
 * ordered before everything after. */
static void end_interval(struct vkmm_workgroup_monitor *m)
{
    for (uint32_t i = 0; i < m->lost_count; i++) {
        uint32_t offset = m->lost[i] & ~LOST_WORD;
        if (m->lost[i] & LOST_WORD)
            memcpy(m->shared + offset, &m->words[offset / WORD].kept, WORD);
        else
            m->shared[offset] = (uint8_t)m->bytes[offset].kept;
    }
    m->lost_count = 0;
    m->interval++;
    m->execution_barrier_passed = false;
}

void vkmm_workgroup_monitor_barrier_open(struct vkmm_workgroup_monitor *m)
{
    if (m->arrivals_synchronize)
        end_interval(m);
    else
        m->execution_barrier_passed = true;
    m->arrivals_synchronize = true;
}

void vkmm_workgroup_monitor_barrier(void *monitor, uint32_t subgroup, uint32_t kind)
{
    struct vkmm_workgroup_monitor *m = monitor;
    if (!m)
        return; /* no Workgroup storage: nothing to watch */
    if (kind & VKMM_BARRIER_STORE_BUFFER) {
        /* A fence orders the subgroup's stores; a control barrier (which
         * every invocation passes together) performs them. */
        kind &= ~VKMM_BARRIER_STORE_BUFFER;
        if (kind == VKMM_WORKGROUP_FENCE_RELEASE) {
            vkmm_store_buffers_release(m->buffers, subgroup);
            return;
        }
        vkmm_store_buffers_drain(m->buffers, subgroup);
    }
    if (kind == VKMM_SUBGROUP_BARRIER_MEMORY) {
        if (subgroup < m->subgroups)
            m->epoch[subgroup]++;
        return;
    }
    if (kind != VKMM_WORKGROUP_BARRIER_MEMORY)
        m->arrivals_synchronize = false;
}

/* --- Happens-before within the workgroup -------------------------------------- */

/* Is the last write of `b` ordered before an access by `invocation` of
 * `subgroup`?  By program order (the same invocation) or by a subgroup
 * barrier passed since (the same subgroup); a workgroup barrier started a
 * new interval. */
static inline bool write_ordered(const struct vkmm_workgroup_monitor *m, const struct cell *b, uint32_t invocation,
                          uint32_t subgroup)
{
    if (b->writer == NOBODY || b->writer == invocation + 1)
        return true;
    uint32_t writer_subgroup = (uint32_t)(b->writer - 1) / m->width;
    return writer_subgroup == subgroup && b->writer_epoch != m->epoch[subgroup];
}

static inline bool reads_ordered(const struct vkmm_workgroup_monitor *m, const struct cell *b, uint32_t invocation,
                          uint32_t subgroup)
{
    if (b->reader == NOBODY || b->reader == invocation + 1)
        return true;
    return b->reader_subgroup == subgroup + 1 && b->reader_epoch != m->epoch[subgroup];
}

/* --- Records -------------------------------------------------------------------- */

static void local_id(const struct vkmm_workgroup_monitor *m, uint32_t index, uint32_t out[3])
{
    out[0] = index % m->local_size[0];
    out[1] = index / m->local_size[0] % m->local_size[1];
    out[2] = index / m->local_size[0] / m->local_size[1];
}

struct access {
    uint32_t invocation, subgroup, word;
    const char *text;
    bool write, atomic, early;
};

static struct vkmm_workgroup_race_access race_side(const struct vkmm_workgroup_monitor *m, const struct access *a)
{
    struct vkmm_workgroup_race_access side = { .text = a->text, .word = a->word, .write = a->write,
                                               .atomic = a->atomic };
    local_id(m, a->invocation, side.invocation);
    return side;
}

/* A race between an earlier access `first` (of another invocation) and
 * `second`, the access being made: aggregated by the pair of instructions. */
static void record(struct vkmm_workgroup_monitor *m, uint32_t offset, uint32_t bytes, const struct access *first,
                   const struct access *second)
{
    struct vkmm_workgroup_races *races = m->races;
    uint32_t low = first->word < second->word ? first->word : second->word;
    uint32_t high = first->word < second->word ? second->word : first->word;
    for (uint32_t i = 0; i < races->count; i++) {
        struct vkmm_workgroup_race *r = &races->race[i];
        if (r->earlier.word == low && r->later.word == high && (r->earlier.write || r->later.write)) {
            r->bytes += bytes;
            r->same_subgroup &= first->subgroup == second->subgroup;
            return;
        }
    }
    if (races->count == VKMM_WORKGROUP_MAX_RACES) {
        races->more += bytes;
        return;
    }
    struct vkmm_workgroup_race *r = &races->race[races->count++];
    bool in_order = first->word <= second->word;
    *r = (struct vkmm_workgroup_race){
        .earlier = race_side(m, in_order ? first : second),
        .later = race_side(m, in_order ? second : first),
        .same_subgroup = first->subgroup == second->subgroup,
        .execution_barrier_only = m->execution_barrier_passed,
        .offset = offset,
        .bytes = bytes,
    };
    memcpy(r->workgroup, m->workgroup, sizeof(r->workgroup));
}

/* The earlier access of a byte as the monitor remembers it. */
static struct access last_writer(const struct vkmm_workgroup_monitor *m, const struct cell *b)
{
    uint32_t invocation = b->writer - 1u;
    return (struct access){ .invocation = invocation, .subgroup = invocation / m->width, .word = b->writer_word,
                            .text = b->writer_text, .write = true, .atomic = b->writer_atomic };
}

static struct access some_reader(const struct vkmm_workgroup_monitor *m, const struct cell *b,
                                 const struct access *writer)
{
    /* With several readers, one that is not the writer: the first
     * invocation of their subgroup, or of the writer's neighbour. */
    uint32_t invocation = b->reader != MANY ? b->reader - 1u
                          : b->reader_subgroup != MANY ? (b->reader_subgroup - 1u) * m->width
                                                       : writer->invocation ^ 1u;
    if (invocation == writer->invocation)
        invocation = invocation + 1 < m->subgroups * m->width ? invocation + 1 : invocation - 1;
    return (struct access){ .invocation = invocation, .subgroup = invocation / m->width, .word = b->reader_word,
                            .text = b->reader_text, .write = false, .atomic = !b->plain_read };
}

/* --- Accesses -------------------------------------------------------------------- */

static uint32_t load_value(const uint8_t *at, uint32_t width)
{
    uint32_t value = 0;
    if (width == WORD)
        memcpy(&value, at, WORD); /* one load, not a byte loop */
    else
        memcpy(&value, at, width);
    return value;
}

static inline struct cell *touch_word(struct vkmm_workgroup_monitor *m, uint32_t word)
{
    struct cell *w = &m->words[word];
    if (w->interval != m->interval) {
        uint32_t at = word * WORD, width = m->size - at < WORD ? m->size - at : WORD;
        *w = (struct cell){ .interval = m->interval, .old = load_value(m->shared + at, width) };
    }
    return w;
}

/* The byte cell of `offset`, splitting its word: each byte starts with the
 * word's state and its own byte of the word's values. */
static struct cell *touch_byte(struct vkmm_workgroup_monitor *m, uint32_t offset)
{
    struct cell *w = touch_word(m, offset / WORD);
    struct cell *first = &m->bytes[offset / WORD * WORD];
    if (!w->split) {
        for (uint32_t i = 0; i < WORD; i++) {
            first[i] = *w;
            first[i].old = w->old >> (8 * i) & 0xff;
            first[i].kept = w->kept >> (8 * i) & 0xff;
        }
        w->split = true;
    }
    return &m->bytes[offset];
}

/* A seeded coin per (instruction, word of memory): values only, so every
 * run of one seed makes the same choices. */
static bool seeded_coin(const struct vkmm_workgroup_monitor *m, uint32_t instruction, uint32_t offset, uint64_t salt)
{
    uint64_t x = (m->seed * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)instruction << 32) ^ (offset >> 2) ^ salt;
    x = (x ^ (x >> 31)) * 0xD6E8FEB86659FD93ull;
    x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 32)) & 1;
}

/* DESIGN §3 "Manifest", as for device memory (device_monitor.c): seed 0
 * keeps every racing read stale; other seeds let one see the newer bytes
 * where the shader reads the same variable again later
 * (VKMM_ACCESS_READ_AGAIN), a coin per instruction and word, so message
 * passing and read-read coherence show their weak outcomes while the last
 * read of a variable stays stale on every seed. */
static bool racing_read_sees_newer(const struct vkmm_workgroup_monitor *m, uint32_t flags, uint32_t instruction,
                                   uint32_t offset)
{
    return m->seed && (flags & VKMM_ACCESS_READ_AGAIN) && seeded_coin(m, instruction, offset, 0x5348415245444d45ull);
}

/* ... and on those seeds a racing read, even its variable's last, may see
 * bytes an early store left (compiler/early_stores.c): a store that went
 * before a load of its invocation, so that seeing it is no outcome a
 * program-order run gives — load buffering's — and never the answer the
 * racing program meant. */
static bool early_store_seen(const struct vkmm_workgroup_monitor *m, const struct cell *b, uint32_t instruction,
                             uint32_t offset)
{
    return m->seed && b->writer_early && seeded_coin(m, instruction, offset, 0x4541524c59535421ull);
}

/* The cell that holds the state of byte `offset` now (a word or a byte). */
static const struct cell *cell_of(const struct vkmm_workgroup_monitor *m, uint32_t offset)
{
    const struct cell *w = &m->words[offset / WORD];
    return w->split ? &m->bytes[offset] : w;
}

/* A read of a cell of `width` bytes at `offset`: returns true when it must
 * read its interval-start value (the write it races with comes earlier in
 * the program, so the stale value is the one a lockstep reading would not
 * give). */
static inline bool read_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                      const struct access *a)
{
    bool stale = false;
    if (!write_ordered(m, b, a->invocation, a->subgroup) && !(a->atomic && b->writer_atomic)) {
        struct access writer = last_writer(m, b);
        record(m, offset, width, &writer, a);
        stale = !a->atomic && b->writer_word < a->word && !early_store_seen(m, b, a->word, offset);
    }
    bool same_subgroup_only = b->reader_subgroup == a->subgroup + 1;
    if (b->reader == NOBODY || (same_subgroup_only && b->reader_epoch != m->epoch[a->subgroup])) {
        /* Earlier reads of this subgroup are ordered before what it does
         * now; a later write by another subgroup races with this read anyway. */
        b->reader = (uint16_t)(a->invocation + 1);
        b->reader_subgroup = (uint16_t)(a->subgroup + 1);
        b->plain_read = false;
    } else {
        if (b->reader != a->invocation + 1)
            b->reader = MANY;
        if (!same_subgroup_only)
            b->reader_subgroup = MANY;
    }
    b->reader_epoch = m->epoch[a->subgroup];
    b->plain_read |= !a->atomic;
    b->reader_word = a->word;
    b->reader_text = a->text;
    return stale;
}

static inline void write_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                       const struct access *a)
{
    if (!write_ordered(m, b, a->invocation, a->subgroup) && !(a->atomic && b->writer_atomic)) {
        struct access writer = last_writer(m, b);
        record(m, offset, width, &writer, a);
        /* The earlier write must have landed to be kept: lanes of one
         * store (this very call) have not stored anything yet. */
        if (!b->lost && b->writer_call != m->call) {
            b->lost = true;
            b->kept = load_value(m->shared + offset, width);
            m->lost[m->lost_count++] = offset | (width == WORD ? LOST_WORD : 0);
        }
    }
    if (!reads_ordered(m, b, a->invocation, a->subgroup) && !(a->atomic && !b->plain_read)) {
        struct access reader = some_reader(m, b, a);
        record(m, offset, width, &reader, a);
    }
    b->writer = (uint16_t)(a->invocation + 1);
    b->writer_call = m->call;
    b->writer_epoch = m->epoch[a->subgroup];
    b->writer_atomic = a->atomic;
    b->writer_early = a->early;
    b->writer_word = a->word;
    b->writer_text = a->text;
}

static inline bool access_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                        uint32_t flags, const struct access *a)
{
    bool stale = false;
    if (flags & VKMM_WORKGROUP_READ)
        stale = read_cell(m, b, offset, width, a);
    if (flags & VKMM_WORKGROUP_WRITE) {
        struct access as_write = *a;
        as_write.write = true;
        write_cell(m, b, offset, width, &as_write);
    }
    return stale;
}

/* One lane's `size` bytes at `at`: whole words where the access covers
 * them and they are not split, byte cells elsewhere. */
static bool access_lane(struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size, uint32_t flags,
                        const struct access *a)
{
    bool stale = false;
    for (uint32_t offset = at, end = at + size; offset < end;) {
        uint32_t word = offset / WORD;
        if (!m->byte_cells && offset % WORD == 0 && end - offset >= WORD) {
            struct cell *w = touch_word(m, word);
            if (!w->split) {
                stale |= access_cell(m, w, offset, WORD, flags, a);
                offset += WORD;
                continue;
            }
        }
        stale |= access_cell(m, touch_byte(m, offset), offset, 1, flags, a);
        offset++;
    }
    return stale;
}

void vkmm_workgroup_monitor_set_seed(struct vkmm_workgroup_monitor *m, uint64_t seed)
{
    m->seed = seed;
}

/* A module whose atomics all work on Workgroup storage: no race judgement
 * (release/acquire through atomics orders invocations without a barrier,
 * which the cells do not follow), but its atomic stores wait in store
 * buffers. */
static int64_t store_buffer_access(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                   uint32_t size, uint32_t flags, uint32_t subgroup)
{
    uint64_t inside = 0;
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (lanes >> lane & 1 && vkmm_lane_offset(addresses[lane], (uintptr_t)m->shared, m->size, size, &at)) {
            m->lane_offsets[lane] = (uint32_t)at;
            inside |= 1ull << lane;
        }
    }
    if (inside != lanes) {
        /* A lane outside the workgroup's memory (the generated code's
         * bounds keep it from being written): the store is not held. */
        vkmm_store_buffers_drain(m->buffers, subgroup);
        return 0;
    }
    return vkmm_store_buffers_access(m->buffers, subgroup, m->lane_offsets, lanes, size, flags);
}

void vkmm_workgroup_monitor_yield(struct vkmm_workgroup_monitor *m, uint32_t subgroup)
{
    if (m)
        vkmm_store_buffers_yield(m->buffers, subgroup);
}

void vkmm_workgroup_monitor_subgroup_done(struct vkmm_workgroup_monitor *m, uint32_t subgroup)
{
    if (m)
        vkmm_store_buffers_drain(m->buffers, subgroup);
}

int64_t vkmm_workgroup_monitor_access(void *monitor, const uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                      uint32_t subgroup, uint64_t site, const char *text)
{
    struct vkmm_workgroup_monitor *m = monitor;
    if (!m)
        return 0;
    uint32_t size = size_flags & 0xffff, flags = size_flags >> 16;
    uintptr_t base = (uintptr_t)m->shared;
    if (flags & VKMM_ACCESS_STORE_BUFFER)
        return store_buffer_access(m, addresses, lanes, size, flags, subgroup);
    m->call++;
    uint64_t stale_lanes = 0;
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (!(lanes >> lane & 1) || !vkmm_lane_offset(addresses[lane], base, m->size, size, &at))
            continue; /* inactive, or not this workgroup's memory */
        struct access a = {
            .invocation = subgroup * m->width + lane,
            .subgroup = subgroup,
            .word = (uint32_t)(site >> 32),
            .text = text,
            .atomic = (flags & VKMM_WORKGROUP_ATOMIC) != 0,
            .early = (flags & VKMM_ACCESS_EARLY_STORE) != 0,
        };
        if (access_lane(m, (uint32_t)at, size, flags, &a))
            stale_lanes |= 1ull << lane;
    }
    if (!stale_lanes || (flags & VKMM_WORKGROUP_WRITE))
        return 0;
    /* The read goes to the view: the bytes every lane reads as they are,
     * except that racing bytes of stale lanes hold their interval-start
     * value. */
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (lanes >> lane & 1 && vkmm_lane_offset(addresses[lane], base, m->size, size, &at))
            memcpy(m->view + at, m->shared + at, size);
    }
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        if (!(stale_lanes >> lane & 1))
            continue;
        uint64_t at = addresses[lane] - base;
        for (uint32_t i = 0; i < size; i++) {
            uint32_t offset = (uint32_t)at + i;
            const struct cell *b = cell_of(m, offset);
            bool is_word = b == &m->words[offset / WORD];
            if (!write_ordered(m, b, subgroup * m->width + lane, subgroup) && b->writer_word < (uint32_t)(site >> 32) &&
                !racing_read_sees_newer(m, flags, (uint32_t)(site >> 32), offset) &&
                !early_store_seen(m, b, (uint32_t)(site >> 32), offset))
                m->view[offset] = (uint8_t)(is_word ? b->old >> (8 * (offset % WORD)) : b->old);
        }
    }
    return (int64_t)((uintptr_t)m->view - base);
}
