#include "workgroup_monitor_state.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_history.h"
#include "shader_abi.h"
#include "workgroup_clocks.h"
#include "workgroup_store_buffer.h"

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
    m->wide = calloc(m->subgroups ? m->subgroups : 1, sizeof(*m->wide));
    m->local = calloc(m->subgroups ? m->subgroups : 1, sizeof(*m->local));
    m->lost = malloc(slots * sizeof(*m->lost));
    m->buffers = vkmm_store_buffers_create(m->subgroups, shared_size);
    m->clocks = vkmm_workgroup_clocks_create(m->subgroups, (uint32_t)words);
    m->lane_offsets = calloc(width ? width : 1, sizeof(*m->lane_offsets));
    m->lane_tokens = calloc(width ? width : 1, sizeof(*m->lane_tokens));
    m->lane_words = calloc(width ? width : 1, sizeof(*m->lane_words));
    m->lane_agents = calloc(width ? width : 1, sizeof(*m->lane_agents));
    m->acquire_pending = calloc(m->subgroups ? m->subgroups : 1, 1);
    m->history = vkmm_atomic_history_create();
    m->initial = malloc(slots);
    m->written = calloc((slots + 7) / 8, 1);
    if (!m->view || !m->words || !m->bytes || !m->epoch || !m->wide || !m->local || !m->lost || !m->buffers ||
        !m->clocks || !m->lane_offsets || !m->lane_tokens || !m->lane_words || !m->initial || !m->written || !m->lane_agents || !m->acquire_pending ||
        !m->history) {
        vkmm_workgroup_monitor_destroy(m);
        return NULL;
    }
    vkmm_store_buffers_on_landing(m->buffers, vkmm_workgroup_monitor_store_landing, m);
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
    free(m->wide);
    free(m->local);
    free(m->lost);
    vkmm_store_buffers_destroy(m->buffers);
    vkmm_workgroup_clocks_destroy(m->clocks);
    free(m->lane_offsets);
    free(m->lane_tokens);
    free(m->lane_words);
    free(m->lane_agents);
    free(m->acquire_pending);
    vkmm_atomic_history_destroy(m->history);
    free(m->initial);
    free(m->written);
    free(m);
}

void vkmm_workgroup_monitor_begin(struct vkmm_workgroup_monitor *m, uint8_t *shared, const uint32_t workgroup[3])
{
    m->shared = shared;
    memcpy(m->workgroup, workgroup, sizeof(m->workgroup));
    memset(m->epoch, 0, m->subgroups * sizeof(*m->epoch));
    memset(m->wide, 0, m->subgroups * sizeof(*m->wide));
    memset(m->local, 0, m->subgroups * sizeof(*m->local));
    m->moment = m->last_release = 0;
    m->narrow_reads = m->spin_reads = 0;
    m->hopeless[0] = 0;
    m->forward = NULL;
    vkmm_workgroup_clocks_begin(m->clocks);
    m->interval++; /* every cell state of the last workgroup is stale now */
    m->arrivals_synchronize = true;
    m->execution_barrier_passed = false;
    m->lost_count = 0;
    memcpy(m->initial, shared, m->size);
    memset(m->written, 0, (m->size + 7) / 8);
    m->unwritten = m->size;
    vkmm_store_buffers_begin(m->buffers, shared, m->seed);
    m->history_used = true; /* a new seed for the new workgroup */
    vkmm_workgroup_monitor_history_forget(m);
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
    vkmm_workgroup_monitor_history_forget(m);
}

void vkmm_workgroup_monitor_barrier_open(struct vkmm_workgroup_monitor *m)
{
    if (m->arrivals_synchronize)
        end_interval(m);
    else
        m->execution_barrier_passed = true;
    m->arrivals_synchronize = true;
}

static uint32_t later_moment(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

/* One fence or atomic in a subgroup's sync state (000 "Synchronizes-With"):
 * a release is a release atomic, or a release fence followed by an atomic
 * write; an acquire is an acquire atomic's read, or an atomic read followed
 * by an acquire fence (acquiring from that read's moment on). */
static void apply_sync(struct sync_state *s, uint32_t kind, uint32_t moment)
{
    if (!(kind & (VKMM_SYNC_ATOMIC_WRITE | VKMM_SYNC_ATOMIC_READ))) {
        if (kind & VKMM_SYNC_RELEASE)
            s->fence_released = moment;
        if (kind & VKMM_SYNC_ACQUIRE)
            s->acquired = later_moment(s->acquired, s->atomic_read);
        return;
    }
    if (kind & VKMM_SYNC_RELEASE)
        s->released = moment;
    else if (kind & VKMM_SYNC_ATOMIC_WRITE)
        s->released = later_moment(s->released, s->fence_released);
    if (kind & VKMM_SYNC_ATOMIC_READ)
        s->atomic_read = moment;
    if (kind & VKMM_SYNC_ACQUIRE)
        s->acquired = s->atomic_read;
}

/* A fence or an atomic of a module whose fences and atomics may order
 * Workgroup memory, before its access.  One of Subgroup scope orders only
 * the lanes of its subgroup (000: the scope must hold both agents). */
static void note_sync(struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t kind)
{
    uint32_t moment = ++m->moment;
    apply_sync(&m->local[subgroup], kind, moment);
    if (!(kind & VKMM_SYNC_NARROW))
        apply_sync(&m->wide[subgroup], kind, moment);
    m->last_release = later_moment(m->last_release, m->local[subgroup].released);
    vkmm_workgroup_clocks_sync(m->clocks, subgroup, kind, moment);
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
    vkmm_workgroup_monitor_history_barrier(m, subgroup, kind); /* after the drain: the subgroup's stores landed */
    if (kind == VKMM_SUBGROUP_BARRIER_EXECUTION || subgroup >= m->subgroups)
        return;
    if ((kind & 15u) == VKMM_WORKGROUP_SYNC) {
        note_sync(m, subgroup, kind); /* settles an atomic before it first */
        return;
    }
    vkmm_workgroup_clocks_settle(m->clocks, subgroup); /* an atomic before it worked on other storage */
    if (kind == VKMM_SUBGROUP_BARRIER_MEMORY) {
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
static inline bool ordered_after(const struct vkmm_workgroup_monitor *m, uint16_t writer, uint16_t writer_epoch,
                                 uint32_t invocation, uint32_t subgroup)
{
    if (writer == NOBODY || writer == invocation + 1)
        return true;
    uint32_t writer_subgroup = (uint32_t)(writer - 1) / m->width;
    return writer_subgroup == subgroup && writer_epoch != m->epoch[subgroup];
}

/* 000 "Synchronizes-With" through fences and atomics: the earlier access
 * (of subgroup `earlier`, at `moment`) happens before `a`.  Between two
 * subgroups, a release after the access that an acquire of `a`'s subgroup
 * read from (workgroup_clocks.h).  Between lanes of one subgroup, any
 * release after the access and any acquire after it, of any scope (which
 * release an acquire read from is not matched there: lenient, so a correct
 * program is never reported). */
static inline bool synchronized_after(const struct vkmm_workgroup_monitor *m, uint32_t earlier, uint32_t moment,
                                      const struct access *a)
{
    if (!a->atomic_sync)
        return false;
    if (earlier != a->subgroup)
        return vkmm_workgroup_clocks_ordered(m->clocks, a->subgroup, earlier, moment);
    return m->local[earlier].released > moment && m->local[a->subgroup].acquired > moment;
}

static inline uint32_t subgroup_of(const struct vkmm_workgroup_monitor *m, uint16_t invocation)
{
    return (uint32_t)(invocation - 1) / m->width;
}

static inline bool write_ordered(const struct vkmm_workgroup_monitor *m, const struct cell *b, const struct access *a)
{
    return ordered_after(m, b->writer, b->writer_epoch, a->invocation, a->subgroup) ||
           synchronized_after(m, subgroup_of(m, b->writer), b->writer_moment, a);
}

static inline bool plain_write_ordered(const struct vkmm_workgroup_monitor *m, const struct cell *b,
                                       const struct access *a)
{
    return ordered_after(m, b->plain_writer, b->plain_writer_epoch, a->invocation, a->subgroup) ||
           synchronized_after(m, subgroup_of(m, b->plain_writer), b->plain_writer_moment, a);
}

static inline bool same_subgroup(const struct vkmm_workgroup_monitor *m, uint16_t invocation, const struct access *a)
{
    return subgroup_of(m, invocation) == a->subgroup;
}

/* Are two atomic writes mutually ordered (no race between them)?  When
 * each one's scope holds the other invocation (000 "Data Race"): always at
 * Workgroup scope, only within one subgroup when either has Subgroup scope
 * (one subgroup's additions to a count another subgroup updates are lost).
 * An atomic read and an atomic write of Subgroup scope in different
 * subgroups race as well, but are first left to the data they guard: a
 * flag handed between subgroups at Subgroup scope leaves its payload's
 * race, whose report names the scope (one report per bug); only a
 * dispatch with no other record reports the flag (note_narrow_read). */
static inline bool atomics_ordered(const struct vkmm_workgroup_monitor *m, bool earlier_atomic, bool earlier_narrow,
                                   uint16_t earlier, const struct access *a)
{
    if (!earlier_atomic || !a->atomic)
        return false;
    return (!earlier_narrow && !a->narrow) || (earlier != NOBODY && same_subgroup(m, earlier, a));
}

static inline bool reads_ordered(const struct vkmm_workgroup_monitor *m, const struct cell *b, const struct access *a)
{
    if (b->reader == NOBODY || b->reader == a->invocation + 1)
        return true;
    if (b->reader_subgroup == a->subgroup + 1 && b->reader_epoch != m->epoch[a->subgroup])
        return true;
    if (b->reader_subgroup != MANY)
        return synchronized_after(m, b->reader_subgroup - 1u, b->reader_moment, a);
    /* Readers of several subgroups: any release of any scope and an
     * acquire after the reads (lenient) — after the others' reads, when the
     * last read was this invocation's own (program order: a lock holder
     * reads a total, then writes it). */
    uint32_t moment = b->last_reader == a->invocation + 1 ? b->others_read_moment : b->reader_moment;
    return a->atomic_sync && m->last_release > moment && m->local[a->subgroup].acquired > moment;
}

/* The earlier access of a byte as the monitor remembers it. */
static struct access last_writer(const struct vkmm_workgroup_monitor *m, const struct cell *b)
{
    uint32_t invocation = b->writer - 1u;
    return (struct access){ .invocation = invocation, .subgroup = invocation / m->width, .word = b->writer_word,
                            .text = b->writer_text, .write = true, .atomic = b->writer_atomic,
                            .narrow = b->writer_narrow, .moment = b->writer_moment };
}

static struct access last_plain_writer(const struct vkmm_workgroup_monitor *m, const struct cell *b)
{
    uint32_t invocation = b->plain_writer - 1u;
    return (struct access){ .invocation = invocation, .subgroup = invocation / m->width, .word = b->plain_writer_word,
                            .text = b->plain_writer_text, .write = true, .moment = b->plain_writer_moment };
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
                            .text = b->reader_text, .write = false, .atomic = !b->plain_read,
                            .moment = b->reader_moment };
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
        /* What a new interval must clear; the rest of the cell means
         * something only once a writer or reader is set, which sets it
         * (no whole-cell clear: it cost the reduction bench 15%). */
        w->interval = m->interval;
        w->old = load_value(m->shared + at, width);
        w->writer = w->reader = w->plain_writer = NOBODY;
        w->lost = w->split = false;
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
/* `reader` (invocation + 1) reads the cell now: the last reader, and the
 * latest read by anyone else (reads_ordered). */
static inline void note_reader(const struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t reader)
{
    if (b->last_reader != reader)
        b->others_read_moment = later_moment(b->others_read_moment, b->reader_moment);
    b->last_reader = (uint16_t)reader;
    b->reader_moment = m->moment;
}

static inline bool read_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                             const struct access *a, bool load)
{
    bool stale = false;
    if (!write_ordered(m, b, a) && !(a->atomic && b->writer_atomic)) {
        struct access writer = last_writer(m, b);
        vkmm_workgroup_monitor_record(m, offset, width, &writer, a);
        stale = !a->atomic && b->writer_word < a->word && !early_store_seen(m, b, a->word, offset);
        /* A write later in the module, made first: this read sees it (the
         * anti-dependency manifests). */
        m->races->updates_seen_newer |= !a->atomic && b->writer_word > a->word;
    } else if (a->atomic && !plain_write_ordered(m, b, a)) {
        struct access writer = last_plain_writer(m, b);
        vkmm_workgroup_monitor_record(m, offset, width, &writer, a);
    } else if (a->atomic && !write_ordered(m, b, a) &&
               !atomics_ordered(m, b->writer_atomic, b->writer_narrow, b->writer, a)) {
        struct access writer = last_writer(m, b);
        vkmm_workgroup_monitor_note_narrow_read(m, offset, width, &writer, a);
        /* 000 "Data Race": not mutually ordered, so a load need never see
         * that write (a read-modify-write takes the newest value). */
        stale = load;
    }
    bool same_subgroup_only = b->reader_subgroup == a->subgroup + 1;
    if (b->reader == NOBODY || (same_subgroup_only && b->reader_epoch != m->epoch[a->subgroup])) {
        /* Earlier reads of this subgroup are ordered before what it does
         * now; a later write by another subgroup races with this read anyway. */
        b->reader = (uint16_t)(a->invocation + 1);
        b->reader_subgroup = (uint16_t)(a->subgroup + 1);
        b->plain_read = false;
        b->last_reader = (uint16_t)(a->invocation + 1);
        b->others_read_moment = 0;
    } else {
        if (b->reader != a->invocation + 1)
            b->reader = MANY;
        if (!same_subgroup_only)
            b->reader_subgroup = MANY;
    }
    note_reader(m, b, a->invocation + 1);
    b->reader_epoch = m->epoch[a->subgroup];
    if (!a->atomic || !b->plain_read) {
        /* A later write races with the plain read, not with an atomic one
         * (atomics do not race with each other): the report names it. */
        b->reader_word = a->word;
        b->reader_text = a->text;
        b->reader_updates = a->updated_after;
    }
    b->plain_read |= !a->atomic;
    return stale;
}

static inline void write_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                       const struct access *a)
{
    if (!write_ordered(m, b, a) && !atomics_ordered(m, b->writer_atomic, b->writer_narrow, b->writer, a)) {
        struct access writer = last_writer(m, b);
        vkmm_workgroup_monitor_record(m, offset, width, &writer, a);
        /* The earlier write must have landed to be kept: lanes of one
         * store (this very call) have not stored anything yet. */
        if (!b->lost && b->writer_call != m->call) {
            b->lost = true;
            b->kept = load_value(m->shared + offset, width);
            m->lost[m->lost_count++] = offset | (width == WORD ? LOST_WORD : 0);
        }
    } else if (a->atomic && !plain_write_ordered(m, b, a)) {
        /* A plain write, then atomics: the plain write wins (DESIGN §3
         * "manifest", as for two racing writes). */
        struct access writer = last_plain_writer(m, b);
        vkmm_workgroup_monitor_record(m, offset, width, &writer, a);
        if (!b->lost) {
            b->lost = true;
            b->kept = load_value(m->shared + offset, width);
            m->lost[m->lost_count++] = offset | (width == WORD ? LOST_WORD : 0);
        }
    }
    if (!reads_ordered(m, b, a) && !(a->atomic && !b->plain_read)) {
        struct access reader = some_reader(m, b, a);
        vkmm_workgroup_monitor_record(m, offset, width, &reader, a);
        /* An in-place update's read ran before this later write and read
         * the old value: the value its author meant. */
        m->races->updates_read_first |= b->plain_read && b->reader_updates && b->reader_word < a->word;
    }
    if (!a->atomic) {
        b->plain_writer = NOBODY;
    } else if (b->writer != NOBODY && !b->writer_atomic) {
        b->plain_writer = b->writer;
        b->plain_writer_epoch = b->writer_epoch;
        b->plain_writer_word = b->writer_word;
        b->plain_writer_text = b->writer_text;
        b->plain_writer_moment = b->writer_moment;
    }
    b->writer = (uint16_t)(a->invocation + 1);
    b->writer_call = m->call;
    b->writer_moment = m->moment;
    b->writer_epoch = m->epoch[a->subgroup];
    b->writer_atomic = a->atomic;
    b->writer_narrow = a->narrow;
    b->writer_early = a->early;
    b->writer_word = a->word;
    b->writer_text = a->text;
}

static inline bool access_cell(struct vkmm_workgroup_monitor *m, struct cell *b, uint32_t offset, uint32_t width,
                        uint32_t flags, const struct access *a)
{
    bool stale = false;
    if (flags & VKMM_WORKGROUP_READ)
        stale = read_cell(m, b, offset, width, a, !(flags & VKMM_WORKGROUP_WRITE));
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
    if (m->unwritten) /* every byte written: the common case once a workgroup filled its variables */
        vkmm_workgroup_monitor_note_initialized(m, at, size, flags, a);
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

/* Do the active lanes all access one address? */
static bool same_address(const struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes)
{
    if (!lanes)
        return false;
    uint64_t first = addresses[__builtin_ctzll(lanes)];
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++)
        if (lanes >> lane & 1 && addresses[lane] != first)
            return false;
    return true;
}

/* A read of the `size` bytes at `at` that can race with nothing and leaves
 * the cells as every lane's read_cell would: in this interval no one wrote
 * them, and invocations of several subgroups read them already (plainly, if
 * this read is plain).  One cache line per word instead of a pass per lane
 * (a CTS shader reads all of its 48 KiB of shared memory in every
 * invocation). */
static bool read_by_many(struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size, uint32_t flags,
                         uint32_t word, const char *text, const uint32_t readers[2])
{
    bool plain = !(flags & VKMM_WORKGROUP_ATOMIC);
    for (uint32_t offset = at; offset < at + size; offset += WORD) {
        const struct cell *w = &m->words[offset / WORD];
        if (offset % WORD || at + size - offset < WORD || w->interval != m->interval || w->split ||
            w->writer != NOBODY || w->reader != MANY || w->reader_subgroup != MANY || (plain && !w->plain_read))
            return false;
    }
    for (uint32_t offset = at; offset < at + size; offset += WORD) {
        struct cell *w = &m->words[offset / WORD];
        /* As read_cell's would, lane by lane: after two readers, the rest
         * change nothing more (all read now). */
        for (uint32_t i = 0; i < 2 && readers[i]; i++)
            note_reader(m, w, readers[i]);
        if (plain || !w->plain_read) {
            w->reader_word = word;
            w->reader_text = text;
        }
    }
    return true;
}

/* Has no one written the `size` bytes at `at` in the current interval? */
static bool unwritten(const struct vkmm_workgroup_monitor *m, uint32_t at, uint32_t size)
{
    for (uint32_t offset = at; offset < at + size; offset++) {
        const struct cell *w = &m->words[offset / WORD];
        if (w->interval != m->interval || cell_of(m, offset)->writer != NOBODY)
            return false;
    }
    return true;
}

static struct access lane_access(const struct vkmm_workgroup_monitor *m, uint32_t subgroup, uint32_t lane,
                                 uint32_t flags, uint64_t site, const char *text)
{
    return (struct access){
        .invocation = subgroup * m->width + lane,
        .subgroup = subgroup,
        .word = (uint32_t)(site >> 32),
        .text = text,
        .atomic = (flags & VKMM_WORKGROUP_ATOMIC) != 0,
        .early = (flags & VKMM_ACCESS_EARLY_STORE) != 0,
        .updated_after = (flags & VKMM_ACCESS_UPDATED_AFTER) != 0,
        .narrow = (flags & VKMM_ACCESS_NARROW_ATOMIC) != 0,
        .atomic_sync = (flags & VKMM_ACCESS_ATOMIC_SYNC) != 0,
    };
}

void vkmm_workgroup_monitor_open_view(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                      uint32_t size)
{
    for (uint64_t l = lanes; l; l &= l - 1) {
        uint64_t at;
        if (vkmm_lane_offset(addresses[__builtin_ctzll(l)], (uintptr_t)m->shared, m->size, size, &at))
            memcpy(m->view + at, m->shared + at, size);
    }
}

int64_t vkmm_workgroup_monitor_judge(struct vkmm_workgroup_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                     uint32_t size, uint32_t flags, uint32_t subgroup, uint64_t site,
                                     const char *text)
{
    uintptr_t base = (uintptr_t)m->shared;
    m->call++;
    uint64_t stale_lanes = 0;
    bool uniform = !(flags & VKMM_WORKGROUP_WRITE) && same_address(m, addresses, lanes);
    uint64_t first, second_lanes = lanes & (lanes - 1);
    uint32_t readers[2] = { lanes ? subgroup * m->width + (uint32_t)__builtin_ctzll(lanes) + 1 : 0,
                            second_lanes ? subgroup * m->width + (uint32_t)__builtin_ctzll(second_lanes) + 1 : 0 };
    if (uniform && vkmm_lane_offset(addresses[__builtin_ctzll(lanes)], base, m->size, size, &first) &&
        read_by_many(m, (uint32_t)first, size, flags, (uint32_t)(site >> 32), text, readers)) {
        struct access a = lane_access(m, subgroup, (uint32_t)__builtin_ctzll(lanes), flags, site, text);
        if (m->unwritten)
            vkmm_workgroup_monitor_note_initialized(m, (uint32_t)first, size, flags, &a);
        return 0;
    }
    uint32_t judged = 0;
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        uint64_t at;
        if (!(lanes >> lane & 1) || !vkmm_lane_offset(addresses[lane], base, m->size, size, &at))
            continue; /* inactive, or not this workgroup's memory */
        struct access a = lane_access(m, subgroup, lane, flags, site, text);
        if (access_lane(m, (uint32_t)at, size, flags, &a))
            stale_lanes |= 1ull << lane;
        /* Every lane reads the same bytes, which nothing wrote in this
         * interval: no lane can race, and after two lanes the cells hold
         * what the rest would leave (several readers of this subgroup). */
        if (uniform && ++judged == 2 && unwritten(m, (uint32_t)at, size))
            break;
    }
    if (!stale_lanes || (flags & VKMM_WORKGROUP_WRITE))
        return 0;
    /* The read goes to the view: the bytes every lane reads as they are,
     * except that racing bytes of stale lanes hold their interval-start
     * value. */
    vkmm_workgroup_monitor_open_view(m, addresses, lanes, size);
    for (uint32_t lane = 0; lane < m->width && lane < 64; lane++) {
        if (!(stale_lanes >> lane & 1))
            continue;
        uint64_t at = addresses[lane] - base;
        for (uint32_t i = 0; i < size; i++) {
            uint32_t offset = (uint32_t)at + i;
            const struct cell *b = cell_of(m, offset);
            bool is_word = b == &m->words[offset / WORD];
            struct access a = lane_access(m, subgroup, lane, flags, site, text);
            if (write_ordered(m, b, &a))
                continue;
            bool narrow = a.atomic && b->writer_atomic &&
                          !atomics_ordered(m, b->writer_atomic, b->writer_narrow, b->writer, &a);
            if (narrow || (b->writer_word < (uint32_t)(site >> 32) &&
                           !racing_read_sees_newer(m, flags, (uint32_t)(site >> 32), offset) &&
                           !early_store_seen(m, b, (uint32_t)(site >> 32), offset)))
                m->view[offset] = (uint8_t)(is_word ? b->old >> (8 * (offset % WORD)) : b->old);
            if (narrow && i == 0)
                vkmm_workgroup_monitor_note_hopeless_read(m, text, (uint32_t)(site >> 32));
            else if (i == 0 && !a.atomic && m->view[offset] != m->shared[offset])
                vkmm_workgroup_monitor_note_stale_spin(m, text, (uint32_t)(site >> 32), offset);
        }
    }
    return (int64_t)((uintptr_t)m->view - base);
}
