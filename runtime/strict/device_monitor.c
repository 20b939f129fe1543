#include "device_monitor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "device_monitor_state.h"
#include "dispatch_levels.h"
#include "happens_before.h"
#include "shader_abi.h"
#include "touched_map.h"

#define VKMM_HOPELESS_READS (1u << 16) /* lane reads */

static uint64_t chunk_count(uint64_t words)
{
    return vkmm_touched_chunks(words, CHUNK_WORDS);
}

struct vkmm_device_monitor *vkmm_device_monitor_create(uint8_t *base, uint64_t size)
{
    struct vkmm_device_monitor *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->base = base;
    m->size = size;
    m->words = (size + WORD - 1) / WORD;
    m->owner = vkmm_touched_map(m->words * sizeof(uint32_t));
    m->bytes = vkmm_touched_map(m->words * WORD * sizeof(uint32_t));
    m->invoker = vkmm_touched_map(m->words * sizeof(uint16_t));
    m->invoker_bytes = vkmm_touched_map(m->words * WORD * sizeof(uint16_t));
    m->chunk_generation = vkmm_touched_map(chunk_count(m->words) * sizeof(uint64_t));
    m->levels = vkmm_dispatch_levels_create(base, size);
    m->order = vkmm_happens_before_create(size);
    if (!m->owner || !m->bytes || !m->invoker || !m->invoker_bytes || !m->chunk_generation || !m->levels ||
        !m->order) {
        vkmm_device_monitor_destroy(m);
        return NULL;
    }
    return m;
}

void vkmm_device_monitor_destroy(struct vkmm_device_monitor *m)
{
    if (!m)
        return;
    if (m->owner)
        munmap(m->owner, m->words * sizeof(uint32_t));
    if (m->bytes)
        munmap(m->bytes, m->words * WORD * sizeof(uint32_t));
    if (m->invoker)
        munmap(m->invoker, m->words * sizeof(uint16_t));
    if (m->invoker_bytes)
        munmap(m->invoker_bytes, m->words * WORD * sizeof(uint16_t));
    if (m->chunk_generation)
        munmap(m->chunk_generation, chunk_count(m->words) * sizeof(uint64_t));
    vkmm_dispatch_levels_destroy(m->levels);
    vkmm_happens_before_destroy(m->order);
    free(m);
}

void vkmm_device_monitor_begin(struct vkmm_device_monitor *m, struct vkmm_device_races *races,
                               vkmm_device_monitor_peek peek, void *peek_user, uint64_t seed,
                               uint32_t subgroup_width)
{
    m->generation++; /* every state of the last dispatch is stale now */
    m->subgroup_width = subgroup_width;
    m->seed = seed;
    vkmm_dispatch_levels_begin(m->levels, seed, subgroup_width);
    vkmm_happens_before_begin(m->order);
    vkmm_happens_before_subgroup_width(m->order, subgroup_width);
    m->unordered_stale_reads = 0;
    m->updates_read_first = m->updates_seen_newer = false;
    m->lost = false;
    m->hopeless_reads = 0;
    m->spin_reads = 0;
    m->hopeless_site = 0;
    m->hopeless[0] = 0;
    m->writes = 0;
    m->races = races;
    m->partner_count = 0;
    m->peek = peek;
    m->peek_user = peek_user;
    m->site_count = 0;
}

/* The words [first, last] as this dispatch left them: chunks it has not
 * touched yet hold an earlier dispatch's states, zeroed now. */
static inline void refresh(struct vkmm_device_monitor *m, uint64_t first, uint64_t last)
{
    vkmm_touched_refresh(m->owner, sizeof(uint32_t), m->words, CHUNK_WORDS, m->chunk_generation, m->generation, first,
                         last);
}

/* A workgroup's tag as the maps hold it (19 bits, never SEVERAL: more
 * workgroups than that share tags, which only hides races between them). */
static inline uint32_t monitor_tag(uint32_t workgroup_tag)
{
    return workgroup_tag > TAG_MASK - 1 ? (workgroup_tag - 1) % (TAG_MASK - 1) + 1 : workgroup_tag;
}

/* The owner state of the byte at `offset`. */
static inline uint32_t owner_at(const struct vkmm_device_monitor *m, uint64_t offset)
{
    uint32_t state = m->owner[offset / WORD];
    return state == SPLIT ? m->bytes[offset] : state;
}

/* The invoker of the byte at `offset`'s state. */
static inline uint16_t invoker_at(const struct vkmm_device_monitor *m, uint64_t offset)
{
    return m->owner[offset / WORD] == SPLIT ? m->invoker_bytes[offset] : m->invoker[offset / WORD];
}

static inline uint16_t invoker_of(uint32_t invocation)
{
    return (uint16_t)(invocation < SEVERAL_INVOKERS - 1 ? invocation + 1 : SEVERAL_INVOKERS - 1);
}

/* Were the state's accesses another agent's than (tag, invoker)'s: another
 * workgroup's, or another invocation's of the same workgroup? */
static inline bool another_agent(uint32_t owner, uint16_t owner_invoker, uint32_t tag, uint16_t invoker)
{
    uint32_t owner_tag = owner & TAG_MASK;
    return owner_tag && (owner_tag != tag || owner_invoker != invoker);
}

/* The site index of an instruction (0 when the table is full). */
static uint32_t site_index(struct vkmm_device_monitor *m, uint32_t word, const char *text, bool updated_after)
{
    for (uint32_t i = 1; i <= m->site_count; i++)
        if (m->sites[i].word == word)
            return i;
    if (m->site_count == VKMM_DEVICE_MAX_SITES)
        return 0;
    m->sites[++m->site_count] = (struct site){ word, text, updated_after };
    return m->site_count;
}

/* Does an access (write or read, private or not) conflict with what other
 * agents (invocations of other workgroups or of its own) did to the byte?
 * At least one write, at least one private. */
static bool conflicts(uint32_t seen, bool write, bool private_)
{
    if (write)
        return private_ ? (seen & (PRIVATE_WRITE | SHARED_WRITE | PRIVATE_READ | SHARED_READ)) != 0
                        : (seen & (PRIVATE_WRITE | PRIVATE_READ)) != 0;
    return private_ ? (seen & (PRIVATE_WRITE | SHARED_WRITE)) != 0 : (seen & PRIVATE_WRITE) != 0;
}

struct access {
    uint32_t tag, site;
    /* The local invocation index of the element at `span_start`; the
     * others follow at one per `element` bytes (a span of lanes, below). */
    uint32_t invocation;
    uint64_t span_start;
    uint32_t element;
    bool write, private_, atomic;
};

static uint32_t invocation_at(const struct access *a, uint64_t offset)
{
    return a->invocation + (uint32_t)((offset - a->span_start) / a->element);
}

static void record(struct vkmm_device_monitor *m, uint64_t offset, uint32_t owner, uint16_t owner_invoker,
                   const struct access *a, uint32_t bytes)
{
    struct vkmm_device_races *races = m->races;
    uint32_t seen = owner & ~(TAG_MASK | SITE_MASK << SITE_SHIFT);
    const struct site *earlier_site = &m->sites[owner >> SITE_SHIFT & SITE_MASK];
    const struct site *this_site = &m->sites[a->site];
    uint32_t low = earlier_site->word < this_site->word ? earlier_site->word : this_site->word;
    uint32_t high = earlier_site->word < this_site->word ? this_site->word : earlier_site->word;
    for (uint32_t i = 0; i < races->count; i++) {
        struct vkmm_device_race *r = &races->race[i];
        if (r->earlier.word == low && r->later.word == high) {
            r->bytes += bytes;
            return;
        }
    }
    if (races->count == VKMM_DEVICE_MAX_RACES) {
        races->more += bytes;
        return;
    }
    uint32_t other_tag = owner & TAG_MASK;
    struct vkmm_device_race_access other = {
        .text = earlier_site->text,
        .word = earlier_site->word,
        .workgroup = other_tag == SEVERAL ? UINT32_MAX : other_tag - 1,
        .invocation = other_tag != SEVERAL && owner_invoker && owner_invoker != SEVERAL_INVOKERS
                          ? owner_invoker - 1u
                          : UINT32_MAX,
        .write = (seen & (PRIVATE_WRITE | SHARED_WRITE)) != 0,
        .private_ = (seen & (PRIVATE_WRITE | PRIVATE_READ)) != 0,
    };
    struct vkmm_device_race_access self = { .text = this_site->text, .word = this_site->word,
                                            .workgroup = a->tag - 1, .invocation = invocation_at(a, offset),
                                            .write = a->write, .private_ = a->private_ };
    bool in_order = other.word <= self.word;
    const struct vkmm_device_race_access *first = in_order ? &other : &self, *second = in_order ? &self : &other;
    races->race[races->count++] = (struct vkmm_device_race){
        .earlier = *first,
        .later = *second,
        .offset = offset,
        .bytes = bytes,
        .in_place_update = !first->write && second->write && (in_order ? earlier_site : this_site)->updated_after,
    };
}

/* One record per pair of instructions and kind (`stale`, else unordered):
 * adds `bytes` to the pair's record and returns NULL, or returns the slot
 * for a new one (NULL when the table is full: counted in `more`). */
static struct vkmm_device_race *new_race(struct vkmm_device_races *races, bool stale, uint32_t earlier_word,
                                         uint32_t later_word, uint64_t bytes)
{
    for (uint32_t i = 0; i < races->count; i++) {
        struct vkmm_device_race *r = &races->race[i];
        if ((stale ? r->stale : r->unordered) && r->earlier.word == earlier_word && r->later.word == later_word) {
            r->bytes += bytes;
            return NULL;
        }
    }
    if (races->count == VKMM_DEVICE_MAX_RACES) {
        races->more += bytes;
        return NULL;
    }
    return &races->race[races->count++];
}

/* A read through the levels returned bytes older than another invocation's
 * write: one record per pair of instructions. */
static void record_stale(struct vkmm_device_monitor *m, const struct vkmm_level_stale *stale, const struct access *a,
                         uint32_t owner_before, uint32_t size)
{
    struct vkmm_device_races *races = m->races;
    uint32_t writer_site = stale->held ? stale->writer_site : owner_before >> SITE_SHIFT & SITE_MASK;
    uint32_t writer_tag = stale->held ? stale->writer_tag : owner_before & TAG_MASK;
    const struct site *write = &m->sites[writer_site], *read = &m->sites[a->site];
    struct vkmm_device_race *slot = new_race(races, true, write->word, read->word, size);
    if (!slot)
        return;
    *slot = (struct vkmm_device_race){
        .earlier = { .text = write->text, .word = write->word,
                     .workgroup = writer_tag && writer_tag != SEVERAL ? writer_tag - 1 : UINT32_MAX,
                     .invocation = stale->held ? stale->writer_invocation : UINT32_MAX, .write = true },
        .later = { .text = read->text, .word = read->word, .workgroup = a->tag - 1,
                   .invocation = invocation_at(a, stale->offset) },
        .offset = stale->offset,
        .bytes = size,
        .stale = true,
        .held = stale->held,
        .made_available = stale->made_available,
    };
}

/* Two non-private accesses of different workgroups that nothing orders
 * (happens_before.h): one record per pair of instructions. */
static void record_unordered(struct vkmm_device_monitor *m, const struct vkmm_unordered *u, const struct access *a,
                             uint64_t offset, uint32_t size)
{
    struct vkmm_device_races *races = m->races;
    const struct site *other = &m->sites[u->site <= m->site_count ? u->site : 0], *this_site = &m->sites[a->site];
    /* In program (word) order, whichever ran first: one record per pair. */
    bool in_order = other->word <= this_site->word;
    struct vkmm_device_race_access first = { .text = other->text, .word = other->word, .workgroup = u->tag - 1,
                                             .invocation = u->invocation, .write = u->write, .atomic = u->atomic };
    struct vkmm_device_race_access second = { .text = this_site->text, .word = this_site->word,
                                              .workgroup = a->tag - 1, .invocation = invocation_at(a, offset),
                                              .write = a->write, .atomic = a->atomic };
    struct vkmm_device_race *slot = new_race(races, false, (in_order ? other : this_site)->word,
                                             (in_order ? this_site : other)->word, size);
    if (!slot)
        return;
    *slot = (struct vkmm_device_race){
        .earlier = in_order ? first : second,
        .later = in_order ? second : first,
        .offset = offset,
        .bytes = size,
        .unordered = true,
        .why = (uint8_t)u->why,
    };
}

/* Anti-dependencies (DESIGN §3 "Manifest").  A read (private or not) of an
 * in-place update (`a[i] = a[i + 1] + 1`: its invocation stores to the
 * variable after it, VKMM_ACCESS_UPDATED_AFTER) that races with a write
 * coming later in the module means to read the old value: it sees the
 * newer bytes instead — the model lets a racing read return either — so
 * the race shows as a wrong answer, where the stalest value would be the
 * one the author meant.  `writer_site`: the instruction of that write. */
static bool sees_later_update(struct vkmm_device_monitor *m, uint32_t writer_site, const struct access *a)
{
    const struct site *writer = &m->sites[writer_site], *reader = &m->sites[a->site];
    if (!reader->updated_after || writer->word <= reader->word)
        return false;
    m->updates_seen_newer = true;
    return true;
}

/* A write racing with such a read that ran first: the read saw the old
 * value, and the dispatch may run again with writers first (dispatch.c). */
static void note_update_read_first(struct vkmm_device_monitor *m, uint32_t reader_site, const struct access *a)
{
    const struct site *reader = &m->sites[reader_site];
    m->updates_read_first |= reader->updated_after && reader->word < m->sites[a->site].word;
}

void vkmm_device_monitor_anti_dependency(const struct vkmm_device_monitor *m, bool *read_first, bool *seen_newer)
{
    *read_first = m->updates_read_first;
    *seen_newer = m->updates_seen_newer;
}

/* Records the access of `count` bytes whose owner state is `owner` with
 * invoker `owner_invoker` (the same for all of them; the access's
 * invocation is one for all of them too) and returns their new state and
 * *new_invoker; sets *stale when it is a private read of bytes another
 * invocation wrote (it must read the value from before the dispatch). */
static uint32_t access_state(struct vkmm_device_monitor *m, uint64_t offset, uint32_t count, uint32_t owner,
                             uint16_t owner_invoker, const struct access *a, bool *stale, uint16_t *new_invoker)
{
    uint32_t tag = owner & TAG_MASK;
    uint32_t seen = owner & (PRIVATE_WRITE | SHARED_WRITE | PRIVATE_READ | SHARED_READ);
    uint16_t self = invoker_of(a->invocation);
    if (another_agent(owner, owner_invoker, a->tag, self) && conflicts(seen, a->write, a->private_)) {
        record(m, offset, owner, owner_invoker, a, count);
        /* The bytes' state holds the site of their last write, or, when
         * no one wrote them, of their last read. */
        uint32_t site = owner >> SITE_SHIFT & SITE_MASK;
        *stale |= !a->write && a->private_ && !sees_later_update(m, site, a);
        if (a->write && !(seen & (PRIVATE_WRITE | SHARED_WRITE)))
            note_update_read_first(m, site, a);
    }
    uint32_t kind = a->write ? (a->private_ ? PRIVATE_WRITE : SHARED_WRITE)
                             : (a->private_ ? PRIVATE_READ : SHARED_READ);
    uint32_t new_tag = !tag || tag == a->tag ? a->tag : SEVERAL;
    *new_invoker = !tag || (tag == a->tag && owner_invoker == self) ? self : SEVERAL_INVOKERS;
    /* A read after the dispatch's own first write sees what the dispatch
     * wrote, not the bytes as the command found them (an uninitialised
     * buffer used as scratch inside one dispatch): the scan of its exact
     * accesses leaves such bytes out of its reads. */
    uint32_t first_write = owner ? owner & FIRST_WRITE : (a->write ? FIRST_WRITE : 0);
    /* A read keeps the site of the write before it: later accesses that
     * race with that write name it (one record per pair of instructions,
     * not a second one naming the read as a write). */
    uint32_t site = !a->write && (seen & (PRIVATE_WRITE | SHARED_WRITE)) ? owner >> SITE_SHIFT & SITE_MASK : a->site;
    return new_tag | first_write | site << SITE_SHIFT | seen | kind;
}

/* The byte states of a word, splitting it: each byte starts with the
 * word's state. */
static uint32_t *split_word(struct vkmm_device_monitor *m, uint64_t word)
{
    uint32_t *bytes = m->bytes + word * WORD;
    uint32_t state = m->owner[word];
    if (state != SPLIT) {
        for (uint32_t i = 0; i < WORD; i++) {
            bytes[i] = state;
            m->invoker_bytes[word * WORD + i] = m->invoker[word];
        }
        m->owner[word] = SPLIT;
    }
    return bytes;
}

/* The bytes [at, at + size) in runs of one state: whole words while the
 * access covers them and they are not split, byte states elsewhere.  An
 * element's words (and here a lane's) nearly always share one state, so
 * the check runs once per element. */
static bool access_range(struct vkmm_device_monitor *m, uint64_t at, uint64_t size, const struct access *a)
{
    bool stale = false;
    for (uint64_t offset = at, end = at + size; offset < end;) {
        uint64_t word = offset / WORD;
        uint32_t *states = m->owner + word;
        uint16_t *invokers = m->invoker + word;
        if (offset % WORD == 0 && end - offset >= WORD && states[0] != SPLIT) {
            uint64_t run = 1, whole = (end - offset) / WORD;
            while (run < whole && states[run] == states[0] && invokers[run] == invokers[0])
                run++;
            uint16_t invoker;
            uint32_t state =
                access_state(m, offset, (uint32_t)(run * WORD), states[0], invokers[0], a, &stale, &invoker);
            for (uint64_t i = 0; i < run; i++) {
                states[i] = state;
                invokers[i] = invoker;
            }
            offset += run * WORD;
            continue;
        }
        /* Part of the word, or a word split before: byte by byte. */
        uint32_t *bytes = split_word(m, word);
        uint16_t *byte_invokers = m->invoker_bytes + word * WORD;
        uint64_t stop = (word + 1) * WORD < end ? (word + 1) * WORD : end;
        while (offset < stop) {
            uint32_t first = (uint32_t)(offset % WORD), run = 1;
            while (offset + run < stop && bytes[first + run] == bytes[first] &&
                   byte_invokers[first + run] == byte_invokers[first])
                run++;
            uint16_t invoker;
            uint32_t state = access_state(m, offset, run, bytes[first], byte_invokers[first], a, &stale, &invoker);
            for (uint32_t i = 0; i < run; i++) {
                bytes[first + i] = state;
                byte_invokers[first + i] = invoker;
            }
            offset += run;
        }
        bool one = true;
        for (uint32_t i = 1; i < WORD; i++)
            one &= bytes[i] == bytes[0] && byte_invokers[i] == byte_invokers[0];
        if (one) { /* one history again: one state */
            m->owner[word] = bytes[0];
            m->invoker[word] = byte_invokers[0];
        }
    }
    return stale;
}

/* The spin at `site` can never end: the dispatch's device-lost report
 * names it and what it lacks, so the race records whose read it is go when
 * the dispatch ends (one report per bug; DESIGN §3.4). */
static void forget_races_read_by(struct vkmm_device_monitor *m, uint32_t site)
{
    struct vkmm_device_races *races = m->races;
    uint32_t word = m->sites[site].word, kept = 0;
    for (uint32_t i = 0; races && i < races->count; i++) {
        const struct vkmm_device_race *r = &races->race[i];
        bool spin = (r->earlier.word == word && !r->earlier.write) || (r->later.word == word && !r->later.write);
        if (!spin)
            races->race[kept++] = *r;
    }
    if (races)
        races->count = kept;
}

/* Every invocation still running spins on the read at `site`, which can
 * never see what it waits for: `format` says why (the device-lost text),
 * and the race records of that read go at the dispatch's end. */
static void declare_hopeless(struct vkmm_device_monitor *m, uint32_t site, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void declare_hopeless(struct vkmm_device_monitor *m, uint32_t site, const char *format, ...)
{
    m->hopeless_site = site;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(m->hopeless, sizeof(m->hopeless), format, arguments);
    va_end(arguments);
}

/* The lane's bytes through the dispatch's levels (dispatch_levels.h):
 * moves its address when a level holds them. */
static bool access_levels(struct vkmm_device_monitor *m, uint64_t *address, uint64_t at, uint32_t size,
                          uint32_t flags, const struct access *a, uint32_t workgroup_tag, uint32_t subgroup,
                          uint8_t *view, uint32_t owner_before, bool report_stale)
{
    uint8_t *bytes =
        vkmm_dispatch_levels_access(m->levels, workgroup_tag, subgroup, at, size, flags, view, a->site, a->invocation);
    if (!bytes) {
        m->lost = true; /* out of memory: the dispatch goes on coherently, the device is lost after it */
        return false;
    }
    const struct vkmm_level_stale *stale = vkmm_dispatch_levels_stale(m->levels);
    if (stale->stale && m->races && report_stale)
        record_stale(m, stale, a, owner_before, size);
    bool judged = !a->private_ && !(flags & (VKMM_WORKGROUP_ATOMIC | VKMM_WORKGROUP_WRITE));
    if (judged && !(stale->stale && stale->for_good))
        m->hopeless_reads = 0;
    else if (judged && ++m->hopeless_reads == VKMM_HOPELESS_READS)
        declare_hopeless(m, a->site,
                 "every invocation still running spins on %s, which can never return the newer bytes %s: it "
                 "reads %s", m->sites[a->site].text,
                 stale->held ? "a finished invocation left in its cache (never made available)"
                             : "another invocation wrote",
                 stale->held ? "without them until the dispatch ends"
                             : "its own stale copy (no visibility operation: MakePointerVisible / an acquire with "
                               "MakeVisible, or devicecoherent)");
    if (bytes == m->base + at)
        return false;
    *address = (uintptr_t)bytes;
    return true;
}

/* Streaming: lanes 0..n-1 active, at consecutive `size`-byte elements, and
 * no byte of theirs accessed by another agent in this dispatch (another
 * workgroup, or another invocation of this one) — then nothing can
 * conflict and nothing moves, and their bytes are recorded as one span (an
 * element's words, and here a subgroup's, nearly always share one state:
 * then the span is one check of its words and one store to each, and each
 * word's invoker is its lane).  Returns false to take the lanes one by
 * one. */
static bool access_span(struct vkmm_device_monitor *m, const uint64_t *addresses, uint64_t lanes, uint32_t size,
                        uint32_t flags, struct access *a, uint32_t subgroup)
{
    if (!lanes || (lanes & (lanes + 1)) || size > 64)
        return false;
    uint32_t count = (uint32_t)__builtin_popcountll(lanes);
    uint64_t at;
    if (!vkmm_lane_offset(addresses[0], (uintptr_t)m->base, m->size, size * count, &at))
        return false;
    for (uint32_t lane = 1; lane < count; lane++)
        if (addresses[lane] != addresses[0] + (uint64_t)lane * size)
            return false;
    uint32_t bytes = size * count;
    /* Another workgroup's byte anywhere in the span?  Its words nearly
     * always share one state: one pass finds whether they do, and then
     * that state answers.  Otherwise each word's state, and the bytes of
     * split words one by one (rare). */
    const uint32_t *owner = m->owner;
    uint64_t first = at / WORD, last = (at + bytes - 1) / WORD;
    refresh(m, first, last);
    uint32_t differ = 0;
    for (uint64_t w = first + 1; w <= last; w++)
        differ |= owner[w] ^ owner[first];
    uint32_t tag = owner[first] & TAG_MASK;
    uint32_t others = tag && tag != a->tag, split = owner[first] == SPLIT, mine = tag == a->tag;
    for (uint64_t w = first + 1; differ && w <= last; w++) {
        tag = owner[w] & TAG_MASK;
        others |= tag && tag != a->tag;
        split |= owner[w] == SPLIT;
        mine |= tag == a->tag;
    }
    for (uint64_t offset = at; split && !others && offset < at + bytes; offset++) {
        tag = owner_at(m, offset) & TAG_MASK;
        others |= tag && tag != a->tag;
        mine |= tag == a->tag;
    }
    if (others)
        return false;
    uint32_t base = subgroup * m->subgroup_width;
    bool whole = !differ && !split && at % WORD == 0 && size % WORD == 0;
    /* Bytes this workgroup touched before: each word must be its own
     * lane's (another invocation's bytes go lane by lane). */
    if (mine && !whole)
        return false;
    uint32_t per = size / WORD; /* words per element, when `whole` */
    for (uint32_t e = 0; mine && e < count; e++) {
        uint16_t invoker = invoker_of(base + e);
        for (uint32_t k = 0; k < per; k++)
            if (m->invoker[first + e * per + k] != invoker)
                return false;
    }
    a->element = size;
    if (!whole) {
        /* Untouched bytes of uneven states or alignment: element by element. */
        for (uint32_t e = 0; e < count; e++) {
            a->invocation = base + e;
            a->span_start = at + (uint64_t)e * size;
            if (flags & VKMM_WORKGROUP_READ) {
                a->write = false;
                access_range(m, a->span_start, size, a);
            }
            if (flags & VKMM_WORKGROUP_WRITE) {
                a->write = true;
                access_range(m, a->span_start, size, a);
            }
        }
        return true;
    }
    /* Whole words, all of one state (the common case): one record, and
     * each word's invoker its lane's. */
    a->invocation = base;
    a->span_start = at;
    bool stale = false; /* nothing conflicts: stays false */
    uint32_t state = owner[first];
    uint16_t invoker = invoker_of(base);
    if (flags & VKMM_WORKGROUP_READ) {
        a->write = false;
        state = access_state(m, at, bytes, state, invoker, a, &stale, &invoker);
    }
    if (flags & VKMM_WORKGROUP_WRITE) {
        a->write = true;
        state = access_state(m, at, bytes, state, invoker, a, &stale, &invoker);
    }
    for (uint64_t w = first; w <= last; w++)
        m->owner[w] = state;
    for (uint32_t e = 0; e < count; e++) {
        invoker = invoker_of(base + e);
        for (uint32_t k = 0; k < per; k++)
            m->invoker[first + e * per + k] = invoker;
    }
    return true;
}

/* A seeded coin for a racing access at (instruction, word of memory):
 * values only, so every run of one seed makes the same choices. */
static bool seeded_coin(const struct vkmm_device_monitor *m, uint32_t instruction, uint64_t offset)
{
    uint64_t x = (m->seed * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)instruction << 32) ^ (offset >> 2);
    x = (x ^ (x >> 31)) * 0xD6E8FEB86659FD93ull;
    x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 32)) & 1;
}

/* DESIGN §3 "Manifest" for private reads of bytes another invocation (of another workgroup or of its own) wrote
 * in this dispatch (a race: private accesses never communicate inside a
 * command).  The model lets such a read return either value.  Seed 0 gives
 * the stalest: every one reads the bytes from before the dispatch.  Other
 * seeds let a read see the newer bytes when the shader reads the same
 * variable again later (VKMM_ACCESS_READ_AGAIN), a coin per instruction
 * and word, so message passing and read-read coherence show their weak
 * outcomes; the last read of a variable always stays stale, so the
 * program's answer is still wrong on every seed. */
static bool racing_read_sees_newer(const struct vkmm_device_monitor *m, uint32_t flags, uint32_t instruction,
                                   uint64_t offset)
{
    return m->seed && (flags & VKMM_ACCESS_READ_AGAIN) && seeded_coin(m, instruction, offset);
}

/* ... and on those seeds a racing read, even its variable's last, may see
 * the bytes an early store left (compiler/early_stores.c) while nothing
 * else touched them: a store that went before a load of its invocation, so
 * that seeing it is no outcome a program-order run gives — load
 * buffering's — and never the answer the racing program meant. */
static bool early_store_seen(const struct vkmm_device_monitor *m, uint64_t at, uint32_t owner_before,
                             uint16_t invoker_before, uint32_t instruction)
{
    const struct early_word *e = &m->early[at / WORD % EARLY_WORDS];
    return m->seed && e->generation == m->generation && e->word == at / WORD && e->state == owner_before &&
           e->invoker == invoker_before && seeded_coin(m, instruction ^ 0x4541524cu, at);
}

/* After an early store's write of [at, at + size): the state it left in
 * each word. */
static void remember_early_store(struct vkmm_device_monitor *m, uint64_t at, uint32_t size)
{
    for (uint64_t offset = at; offset < at + size; offset = (offset / WORD + 1) * WORD)
        m->early[offset / WORD % EARLY_WORDS] = (struct early_word){
            .generation = m->generation,
            .word = offset / WORD,
            .state = owner_at(m, offset),
            .invoker = invoker_at(m, offset),
        };
}

/* Two workgroups' private writes to the same bytes (a race) are in no
 * order the program can know: seed 0 keeps the first (the later write is
 * dropped, as if it came first in coherence order), other seeds toss a
 * coin per word, so 2+2W shows its weak outcome. */
static bool racing_write_dropped(const struct vkmm_device_monitor *m, uint32_t instruction, uint64_t offset)
{
    return !m->seed || seeded_coin(m, instruction ^ 0x5bd1e995u, offset);
}

/* Whether a private write of this lane lands on bytes another agent (an
 * invocation of another workgroup or of its own) wrote in this dispatch
 * (judged by the lane's first byte, whose owner word nearly always stands
 * for the element). */
static bool write_races(uint32_t owner_before, uint16_t invoker_before, uint32_t tag, uint16_t invoker)
{
    return another_agent(owner_before, invoker_before, tag, invoker) &&
           (owner_before & (PRIVATE_WRITE | SHARED_WRITE));
}

/* Records the read or write `a` with happens-before; an earlier access
 * it is not ordered after is recorded as a race and returned in *earlier. */
static bool unordered(struct vkmm_device_monitor *m, uint64_t at, uint32_t size, bool write, struct access *a,
                      struct vkmm_unordered *earlier)
{
    a->write = write;
    if (!vkmm_happens_before_access(m->order, at, size, write, a->tag, a->invocation, a->site, earlier))
        return false;
    if (m->races)
        record_unordered(m, earlier, a, at, size);
    return true;
}

static uint32_t subgroup_of(const struct vkmm_device_monitor *m, const struct access *a)
{
    return m->subgroup_width ? a->invocation / m->subgroup_width : 0;
}

/* A non-private read that happens-before takes as ordered after the last
 * write of its bytes may still race with it (happens_before.h): when it
 * has no MakePointerVisible and its subgroup made nothing visible in the
 * dispatch (one with MakePointerVisible is itself a visibility operation),
 * or when the write is another subgroup's of its workgroup in the same
 * barrier phase and the reader acquired nothing naming device memory.
 * Recorded as such. */
static bool unseen(struct vkmm_device_monitor *m, uint64_t at, uint32_t size, uint32_t flags, const struct access *a,
                   struct vkmm_unordered *earlier)
{
    uint32_t subgroup = subgroup_of(m, a);
    bool made_visible = (flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u) != VKMM_SCOPE_NONE;
    bool race = (!made_visible &&
                 vkmm_happens_before_unseen_write(m->order, at, size, a->tag, subgroup, a->invocation, earlier)) ||
                vkmm_happens_before_unacquired_write(m->order, at, size, a->tag, subgroup, a->invocation,
                                                     m->subgroup_width, earlier);
    if (race && m->races)
        record_unordered(m, earlier, a, at, size);
    return race;
}

/* A non-private access's own availability or visibility (MakePointerVisible
 * on a read, MakePointerAvailable on a store; legacy Coherent: both at
 * Device scope) counts as its invocation's: for another location too
 * (fewer races, never more). */
static void note_pointer_semantics(struct vkmm_device_monitor *m, uint32_t flags, const struct access *a)
{
    uint32_t scope = flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u;
    if (scope == VKMM_SCOPE_NONE)
        return;
    if (flags & VKMM_WORKGROUP_READ) {
        uint32_t subgroup = subgroup_of(m, a);
        vkmm_happens_before_visible(m->order, a->tag, subgroup);
        if (scope == VKMM_SCOPE_DEVICE)
            vkmm_happens_before_device_visible(m->order, a->tag, subgroup);
    }
    if ((flags & VKMM_WORKGROUP_WRITE) && scope == VKMM_SCOPE_DEVICE)
        vkmm_happens_before_device_available(m->order, a->tag);
}

/* DESIGN §3.3 "no hangs": a private read racing with another
 * invocation's write returns the bytes from before the dispatch, on every
 * read (seed 0; other seeds as their coin decided for this instruction and
 * word): a loop that waits for those bytes to change waits for ever.  Once
 * one instruction read the same bytes so VKMM_HOPELESS_READS times in a row
 * with no write to them between, the dispatch can never finish (dispatch.c
 * polls the monitor from the spinning loop). */
static void note_private_spin(struct vkmm_device_monitor *m, uint32_t site, uint64_t at, uint32_t size)
{
    if (m->spin_reads && m->spin_site == site && m->spin_at == at && m->spin_size == size) {
        if (++m->spin_reads == VKMM_HOPELESS_READS && !m->hopeless[0])
            declare_hopeless(m, site,
                     "every invocation still running spins on %s, a private read (not coherent, no "
                     "NonPrivatePointer, not atomic) of bytes another invocation wrote in this dispatch: a private "
                     "read never sees another invocation's write inside a command; declare the flag coherent and "
                     "read it with an acquire (or use atomics at a scope that holds both invocations)",
                     m->sites[site].text ? m->sites[site].text : "a load");
        return;
    }
    m->spin_site = site;
    m->spin_at = at;
    m->spin_size = size;
    m->spin_reads = 1;
}

/* A write to the spin's bytes: the spin may yet end (its count starts
 * again). */
static void forget_spin_if_written(struct vkmm_device_monitor *m, const uint64_t *addresses, uint64_t lanes,
                                   uint32_t size)
{
    for (uint64_t active = lanes; active; active &= active - 1) {
        uint64_t at;
        uint32_t lane = (uint32_t)__builtin_ctzll(active);
        if (vkmm_lane_offset(addresses[lane], (uintptr_t)m->base, m->size, size, &at) &&
            at < m->spin_at + m->spin_size && m->spin_at < at + size) {
            m->spin_reads = 0;
            return;
        }
    }
}

/* Does a racing read see the bytes from before the dispatch?  Yes, unless
 * such reads piled up with no write between (a spin on a racing flag: this
 * one then sees the newer bytes, so the spin ends). */
static bool racing_read_stale(struct vkmm_device_monitor *m)
{
    if (m->unordered_stale_reads++ < VKMM_HOPELESS_READS)
        return true;
    m->unordered_stale_reads = 0;
    return false;
}

static uint32_t site_of(const struct vkmm_device_monitor *m, const struct vkmm_unordered *u)
{
    return u->site <= m->site_count ? u->site : 0;
}

/* A non-private, non-atomic access judged by happens-before between
 * workgroups (happens_before.h).  A read racing with a write of another
 * workgroup that nothing orders before it reads, like a racing private
 * read, the bytes from before the dispatch (*stale; DESIGN §3 "Manifest":
 * the model lets it read either value, and the seed picks the older) —
 * unless reads made stale this way piled up with no write between (a spin
 * on a racing flag: one read then sees the newer bytes, so it ends).  A
 * write racing with another workgroup's write sets *racing_write. */
static void judge_order(struct vkmm_device_monitor *m, uint64_t at, uint32_t size, uint32_t flags, struct access *a,
                        bool *stale, bool *racing_write)
{
    struct vkmm_unordered earlier = { 0 };
    note_pointer_semantics(m, flags, a);
    if ((flags & VKMM_WORKGROUP_READ) &&
        (unordered(m, at, size, false, a, &earlier) || unseen(m, at, size, flags, a, &earlier)) &&
        !(earlier.write && sees_later_update(m, site_of(m, &earlier), a)))
        *stale |= racing_read_stale(m);
    if ((flags & VKMM_WORKGROUP_WRITE) && unordered(m, at, size, true, a, &earlier)) {
        *racing_write = earlier.write;
        if (!earlier.write)
            note_update_read_first(m, site_of(m, &earlier), a);
    }
}

/* An atomic's part in happens-before between workgroups: only atomics at
 * Device scope (or wider) can synchronize two workgroups, and only they
 * are mutually ordered with another workgroup's atomics; one of narrower
 * scope is judged like a non-private access (happens_before.h,
 * vkmm_happens_before_scoped_atomic), one of Device scope against the
 * non-atomic accesses before it (vkmm_happens_before_wide_atomic).
 * Returns true for a load racing with a write: it reads, like a racing
 * coherent read, the bytes from before the dispatch (until such reads pile
 * up: a spin on the flag then ends, or for a narrow scope is hopeless). */
static bool order_atomic(struct vkmm_device_monitor *m, uint64_t at, uint32_t size, uint32_t flags, struct access *a)
{
    bool read = (flags & VKMM_WORKGROUP_READ) != 0, write = (flags & VKMM_WORKGROUP_WRITE) != 0;
    uint32_t scope = flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u;
    bool wide = scope == VKMM_SCOPE_DEVICE;
    struct vkmm_unordered earlier;
    bool race = wide ? vkmm_happens_before_wide_atomic(m->order, at, size, read, write, a->tag, a->invocation,
                                                       a->site, &earlier)
                : scope == VKMM_SCOPE_SUBGROUP
                    ? vkmm_happens_before_subgroup_atomic(m->order, at, size, read, write, a->tag, subgroup_of(m, a),
                                                          a->invocation, a->site, &earlier)
                    : vkmm_happens_before_scoped_atomic(m->order, at, size, read, write, a->tag, subgroup_of(m, a),
                                                        a->invocation, a->site, &earlier);
    if (wide)
        vkmm_happens_before_atomic(m->order, a->tag, at, read, write);
    /* Between subgroups of its workgroup, an atomic of Workgroup scope
     * synchronizes too (one of Subgroup scope orders only its own lanes). */
    if (scope >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_atomic_word(m->order, a->tag, subgroup_of(m, a), at, read, write);
    if (!race)
        return false;
    if (m->races) {
        a->write = write;
        a->atomic = true;
        record_unordered(m, &earlier, a, at, size);
        a->atomic = false;
    }
    if (write || !earlier.write)
        return false;
    /* A Device-scope load sees the newer bytes once racing reads pile up;
     * one of narrower scope never has to: a spin on it is hopeless. */
    bool in_workgroup = earlier.why == VKMM_UNORDERED_SUBGROUP_ATOMIC;
    if (!wide && ++m->hopeless_reads == VKMM_HOPELESS_READS)
        declare_hopeless(m, a->site,
                 "every invocation still running spins on %s, an atomic of %s whose value %s writes: atomics "
                 "whose scope does not hold both invocations need never see each other's writes (use %s)",
                 m->sites[a->site].text, in_workgroup ? "Subgroup scope" : "Workgroup scope (or narrower)",
                 in_workgroup ? "another subgroup of its workgroup" : "another workgroup",
                 in_workgroup ? "gl_ScopeWorkgroup" : "gl_ScopeDevice");
    return racing_read_stale(m);
}

int64_t vkmm_device_monitor_access(void *monitor, uint64_t *addresses, uint64_t lanes, uint32_t size_flags,
                                   uint32_t workgroup_tag, uint64_t site, const char *text, uint32_t subgroup)
{
    struct vkmm_device_monitor *m = monitor;
    if (!m || !workgroup_tag)
        return 0;
    uint32_t size = size_flags & 0xffff, flags = size_flags >> 16;
    struct access a = {
        .tag = monitor_tag(workgroup_tag),
        .site = site_index(m, (uint32_t)(site >> 32), text, (flags & VKMM_ACCESS_UPDATED_AFTER) != 0),
        .private_ = (flags & VKMM_ACCESS_PRIVATE) != 0,
    };
    uintptr_t base = (uintptr_t)m->base;
    int64_t moved = 0;
    /* A private access goes through the levels only where its workgroup
     * holds lines (its own writes); otherwise its bytes are the device's. */
    bool through_levels = !m->lost && (!a.private_ || (flags & VKMM_WORKGROUP_ATOMIC) ||
                                       vkmm_dispatch_levels_busy(m->levels, workgroup_tag));
    if (flags & VKMM_WORKGROUP_WRITE) {
        m->writes++;
        m->hopeless_reads = 0; /* something changes: the spinners may yet see it */
        m->unordered_stale_reads = 0;
        if (m->spin_reads)
            forget_spin_if_written(m, addresses, lanes, size);
    }
    if (flags & VKMM_WORKGROUP_ATOMIC)
        vkmm_happens_before_atomic_begins(m->order, a.tag, subgroup);
    /* An early store goes lane by lane: the monitor remembers what it left. */
    if (!through_levels && !(flags & VKMM_ACCESS_EARLY_STORE) &&
        access_span(m, addresses, lanes, size, flags, &a, subgroup))
        return 0;
    for (uint64_t active = lanes; active; active &= active - 1) {
        uint32_t lane = (uint32_t)__builtin_ctzll(active);
        uint64_t at;
        if (!vkmm_lane_offset(addresses[lane], base, m->size, size, &at))
            continue; /* outside device memory */
        bool stale = false;
        refresh(m, at / WORD, size ? (at + size - 1) / WORD : at / WORD);
        uint32_t owner_before = owner_at(m, at);
        uint16_t invoker_before = invoker_at(m, at);
        a.invocation = subgroup * m->subgroup_width + lane;
        a.span_start = at;
        a.element = size;
        if (flags & VKMM_WORKGROUP_READ) {
            a.write = false;
            stale = access_range(m, at, size, &a);
        }
        bool racing_write = false, unordered_read = false;
        if (flags & VKMM_WORKGROUP_ATOMIC)
            unordered_read = order_atomic(m, at, size, flags, &a);
        else if (!a.private_)
            judge_order(m, at, size, flags, &a, &unordered_read, &racing_write);
        bool drop = (flags & VKMM_WORKGROUP_WRITE) && !(flags & VKMM_WORKGROUP_READ) && size <= 64 &&
                    ((a.private_ && !through_levels &&
                      write_races(owner_before, invoker_before, a.tag, invoker_of(a.invocation))) ||
                     racing_write) &&
                    racing_write_dropped(m, (uint32_t)(site >> 32), at);
        if (flags & VKMM_WORKGROUP_WRITE) {
            a.write = true;
            access_range(m, at, size, &a);
            if (flags & VKMM_ACCESS_EARLY_STORE)
                remember_early_store(m, at, size);
        }
        if (drop) {
            /* The write goes to scratch: the bytes keep the first writer's. */
            addresses[lane] = (uintptr_t)(m->view + lane * 64);
            moved = 1;
            continue;
        }
        if (stale && (racing_read_sees_newer(m, flags, (uint32_t)(site >> 32), at) ||
                      early_store_seen(m, at, owner_before, invoker_before, (uint32_t)(site >> 32))))
            stale = false;
        if (unordered_read && racing_read_sees_newer(m, flags, (uint32_t)(site >> 32), at))
            unordered_read = false;
        if (unordered_read && through_levels && size <= 64 && m->peek) {
            /* A racing non-private read: what the levels give it when they
             * hold an older copy (a stale read, the race's consequence: not
             * reported again; a spin on it is seen as hopeless), else the
             * bytes from before the dispatch. */
            moved |= access_levels(m, &addresses[lane], at, size, flags, &a, workgroup_tag, subgroup,
                                   m->level_view + lane * 64, owner_before, false);
            if (vkmm_dispatch_levels_stale(m->levels)->stale)
                continue;
            stale = true;
        } else if (!stale || size > 64 || !m->peek) {
            if (through_levels)
                moved |= access_levels(m, &addresses[lane], at, size, flags, &a, workgroup_tag, subgroup,
                                       m->level_view + lane * 64, owner_before, true);
            continue;
        }
        /* This lane reads what the bytes held before the dispatch: private
         * reads never see another invocation's writes inside a command. */
        if (a.private_)
            note_private_spin(m, a.site, at, size);
        uint8_t *view = m->view + lane * 64;
        m->peek(m->peek_user, at, size, view);
        addresses[lane] = (uintptr_t)view;
        moved = 1;
    }
    return moved;
}

uint32_t vkmm_device_monitor_fence(void *monitor, uint32_t workgroup_tag, uint32_t subgroup, uint32_t kind)
{
    struct vkmm_device_monitor *m = monitor;
    if (!m || !workgroup_tag)
        return 0;
    if (kind & VKMM_FENCE_EARLY_STORE)
        return vkmm_dispatch_levels_early_store(m->levels);
    /* An acquire-release fence acquires first: what it releases includes
     * what it just acquired (000 "Happens-Before" is transitive). */
    bool wide = (kind & 3u) == VKMM_SCOPE_DEVICE;
    uint32_t tag = monitor_tag(workgroup_tag);
    /* VKMM_FENCE_SYNC: an acquire naming no device memory (barrier()'s at
     * Workgroup scope: it orders no buffer access, and the phase after the
     * barrier stays judged), or any acquire at Subgroup scope (a subgroup
     * control barrier's: invocations of the subgroup synchronize, which the
     * phases do not follow, so the phase is not judged). */
    bool acquire = (kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_ACQUIRE | VKMM_FENCE_ATOMIC)) ||
                   ((kind & VKMM_FENCE_SYNC) && (wide || (kind & 3u) < VKMM_SCOPE_WORKGROUP));
    if (acquire)
        vkmm_happens_before_acquire(m->order, tag, wide);
    /* A visibility operation of the subgroup: MakeVisible, or any acquire
     * at Subgroup scope or naming no device memory (VKMM_FENCE_SYNC: not
     * told apart, so counted — fewer races, never more). */
    bool common = vkmm_dispatch_levels_common_fences(m->levels);
    if ((kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_SYNC)) || ((kind & VKMM_FENCE_ACQUIRE) && common))
        vkmm_happens_before_visible(m->order, tag, subgroup);
    /* An acquire naming device memory at Workgroup scope or wider (VKMM_FENCE_SYNC
     * at such a scope names none). */
    if ((kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_ACQUIRE | VKMM_FENCE_ATOMIC)) && (kind & 3u) >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_device_acquire(m->order, tag, subgroup,
                                           (kind & (VKMM_FENCE_ATOMIC | VKMM_FENCE_SHARED_ATOMIC)) != 0);
    /* A release naming device memory at Workgroup scope or wider, likewise. */
    if ((kind & (VKMM_FENCE_AVAILABLE | VKMM_FENCE_RELEASE)) && (kind & 3u) >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_device_release(m->order, tag, subgroup);
    /* Availability and visibility at Device scope: what a pair with an
     * atomic of narrower scope needs between workgroups (with
     * VKMM_SHADER_FENCES=common, any release or acquire on device memory). */
    if (wide && ((kind & VKMM_FENCE_AVAILABLE) || ((kind & VKMM_FENCE_RELEASE) && common)))
        vkmm_happens_before_device_available(m->order, tag);
    if (wide && ((kind & VKMM_FENCE_VISIBLE) || ((kind & VKMM_FENCE_ACQUIRE) && common)))
        vkmm_happens_before_device_visible(m->order, tag, subgroup);
    if (kind & (VKMM_FENCE_AVAILABLE | VKMM_FENCE_RELEASE))
        vkmm_happens_before_release(m->order, tag, wide);
    if ((kind & 3u) < VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_subgroup_sync(m->order, tag);
    vkmm_dispatch_levels_fence(m->levels, workgroup_tag, subgroup, kind);
    return 0;
}

void vkmm_device_monitor_no_atomics(struct vkmm_device_monitor *m)
{
    if (m)
        vkmm_happens_before_no_atomics(m->order);
}

void vkmm_device_monitor_unmonitored_atomics(struct vkmm_device_monitor *m)
{
    if (m)
        vkmm_happens_before_unseen_atomics(m->order);
}

void vkmm_device_monitor_subgroups(struct vkmm_device_monitor *m, uint32_t count)
{
    if (m)
        vkmm_happens_before_subgroups(m->order, count);
}

void vkmm_device_monitor_shared_atomic(void *monitor, uint32_t workgroup_tag, uint32_t subgroup,
                                       const uint32_t *words, uint64_t lanes, uint32_t flags)
{
    struct vkmm_device_monitor *m = monitor;
    if (!m || !workgroup_tag || (flags & VKMM_ACCESS_NARROW_ATOMIC))
        return; /* one of Subgroup scope orders only its own lanes */
    uint32_t tag = monitor_tag(workgroup_tag);
    bool read = (flags & VKMM_WORKGROUP_READ) != 0, write = (flags & VKMM_WORKGROUP_WRITE) != 0;
    vkmm_happens_before_atomic_begins(m->order, tag, subgroup);
    for (uint64_t active = lanes; active; active &= active - 1)
        vkmm_happens_before_shared_atomic_word(m->order, tag, subgroup, words[__builtin_ctzll(active)], read, write);
}

void vkmm_device_monitor_workgroup_done(struct vkmm_device_monitor *m, uint32_t workgroup_tag)
{
    if (m && workgroup_tag)
        vkmm_happens_before_workgroup_done(m->order, monitor_tag(workgroup_tag));
}

void vkmm_device_monitor_barrier_open(struct vkmm_device_monitor *m, uint32_t workgroup_tag)
{
    if (m && workgroup_tag)
        vkmm_happens_before_barrier(m->order, monitor_tag(workgroup_tag));
}

struct vkmm_dispatch_levels *vkmm_device_monitor_levels(struct vkmm_device_monitor *m)
{
    return m->levels;
}

bool vkmm_device_monitor_lost(const struct vkmm_device_monitor *m)
{
    return m->lost || vkmm_dispatch_levels_failed(m->levels);
}

/* The dispatch ran to its end: the levels give every held byte to the
 * device bytes, and the lost updates found on the way become records (the
 * other side: the last writer the owner map saw at the lost byte). */
void vkmm_device_monitor_end_dispatch(struct vkmm_device_monitor *m)
{
    vkmm_dispatch_levels_end(m->levels);
    uint32_t count;
    const struct vkmm_level_lost *lost = vkmm_dispatch_levels_lost(m->levels, &count);
    for (uint32_t i = 0; i < count && m->races; i++) {
        struct vkmm_device_races *races = m->races;
        if (races->count == VKMM_DEVICE_MAX_RACES) {
            races->more++; /* one byte */
            continue;
        }
        uint32_t owner = 0;
        uint16_t invoker = 0;
        if (lost[i].offset < m->size) {
            refresh(m, lost[i].offset / WORD, lost[i].offset / WORD);
            owner = owner_at(m, lost[i].offset);
            invoker = invoker_at(m, lost[i].offset);
        }
        const struct site *atomic = &m->sites[lost[i].writer_site <= m->site_count ? lost[i].writer_site : 0];
        const struct site *other = &m->sites[owner >> SITE_SHIFT & SITE_MASK];
        uint32_t other_tag = owner & TAG_MASK;
        races->race[races->count++] = (struct vkmm_device_race){
            .earlier = { .text = atomic->text, .word = atomic->word, .workgroup = lost[i].writer_tag - 1,
                         .invocation = lost[i].writer_invocation, .write = true },
            .later = { .text = other->text, .word = other->word,
                       .workgroup = other_tag && other_tag != SEVERAL ? other_tag - 1 : UINT32_MAX,
                       .invocation = other_tag && other_tag != SEVERAL && invoker && invoker != SEVERAL_INVOKERS
                                         ? invoker - 1u
                                         : UINT32_MAX,
                       .write = true },
            .offset = lost[i].offset,
            .bytes = 1,
            .lost = true,
            .subgroup_scope = lost[i].subgroup_scope,
        };
    }
    if (m->hopeless[0])
        forget_races_read_by(m, m->hopeless_site);
}

uint64_t vkmm_device_monitor_writes(const struct vkmm_device_monitor *m)
{
    return m->writes;
}

const char *vkmm_device_monitor_hopeless(const struct vkmm_device_monitor *m)
{
    return m->hopeless[0] ? m->hopeless : NULL;
}
