/* Unit tests of runtime/strict/device_monitor.c: accesses of different
 * agents (invocations of different workgroups, or different invocations of
 * one) to the same bytes of device memory inside a dispatch.  The
 * monitor keeps one owner state per aligned 4-byte word while accesses
 * cover words whole, and splits a word into byte states where an access
 * covers part of it.  A long random run checks it against a scalar
 * reference written here, one owner state per byte, which drives dispatch
 * levels of its own through the same calls: after every step the same
 * races (pairs, sides, offsets, byte counts), the same bytes read (a
 * private read of another workgroup's write sees the pre-dispatch bytes,
 * or on seeds other than 0 perhaps the newer ones), the same racing
 * private writes sent to scratch and the same memory; the same exact
 * accesses found by the scan (bytes read as the dispatch found them,
 * bytes written) over random windows; and from one dispatch to the next,
 * nothing remembered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "device_monitor.h"
#include "dispatch_levels.h"
#include "happens_before.h"
#include "shader_abi.h"

enum {
    DEVICE = 4352, /* device bytes */
    /* Random accesses fall in [WINDOW, WINDOW + WINDOW_SIZE), across the
     * 4 KiB line where the monitor's map has a page (and a chunk) edge. */
    WINDOW = 3840,
    WINDOW_SIZE = 512,
    WIDTH = 8,     /* lanes per subgroup */
    SUBGROUPS = 2, /* per workgroup */
    WORKGROUPS = 4,
    SITES = 10,    /* instructions: words FIRST_SITE.. */
    FIRST_SITE = 10,
};

static const char *const site_texts[SITES] = { "s10", "s11", "s12", "s13", "s14", "s15", "s16", "s17", "s18", "s19" };

static uint64_t site(uint32_t word)
{
    return (uint64_t)word << 32;
}

static const char *text_of(uint32_t word)
{
    return word >= FIRST_SITE && word < FIRST_SITE + SITES ? site_texts[word - FIRST_SITE] : NULL;
}

/* What a dispatch's bytes held before it, for `peek`. */
static void peek_before(void *user, uint64_t offset, uint64_t size, uint8_t *out)
{
    memcpy(out, (const uint8_t *)user + offset, size);
}

/* --- The reference: one owner state per byte ------------------------------------------- */

enum { SEVERAL = UINT32_MAX };
enum { PRIVATE_WRITE = 1, SHARED_WRITE = 2, PRIVATE_READ = 4, SHARED_READ = 8 };

struct ref_byte {
    uint32_t tag;     /* the last workgroup to access it, SEVERAL, or 0: untouched in this dispatch */
    uint32_t invoker; /* the invocation of that workgroup + 1, or SEVERAL */
    uint32_t site;    /* the last instruction's word (0: none) */
    bool first_write; /* the dispatch's first access to it was a write */
    uint8_t seen;     /* the kinds of access seen */
};

struct reference {
    uint64_t seed;
    uint8_t *base;
    const uint8_t *before;
    struct ref_byte byte[DEVICE];
    struct vkmm_dispatch_levels *levels;
    /* Happens-before between workgroups (tested on its own in
     * test_happens_before.c), driven through the same calls. */
    struct vkmm_happens_before *order;
    uint64_t unordered_stale_reads;
    struct vkmm_device_races *races;
    uint8_t view[WIDTH * 64], level_view[WIDTH * 64];
};

struct ref_access {
    uint32_t tag, site, invocation;
    bool write, private_, atomic;
};

/* Two accesses of different agents to one byte race when at least one
 * writes and at least one is private. */
static bool ref_conflicts(uint8_t seen, bool write, bool private_)
{
    bool wrote = seen & (PRIVATE_WRITE | SHARED_WRITE), read = seen & (PRIVATE_READ | SHARED_READ);
    bool private_before = seen & (PRIVATE_WRITE | PRIVATE_READ);
    if (write)
        return private_ ? wrote || read : private_before;
    return private_ ? wrote : (seen & PRIVATE_WRITE) != 0;
}

static struct vkmm_device_race *ref_new_race(struct reference *r, uint64_t bytes)
{
    if (r->races->count == VKMM_DEVICE_MAX_RACES) {
        r->races->more += bytes;
        return NULL;
    }
    return &r->races->race[r->races->count++];
}

/* A race on byte `offset` between its last access `b` and `a`: one record
 * per pair of instructions (whatever its kind), the sides in program order. */
static void ref_record(struct reference *r, uint64_t offset, const struct ref_byte *b, const struct ref_access *a)
{
    uint32_t low = b->site < a->site ? b->site : a->site, high = b->site < a->site ? a->site : b->site;
    for (uint32_t i = 0; i < r->races->count; i++) {
        struct vkmm_device_race *race = &r->races->race[i];
        if (race->earlier.word == low && race->later.word == high) {
            race->bytes++;
            return;
        }
    }
    struct vkmm_device_race *race = ref_new_race(r, 1);
    if (!race)
        return;
    struct vkmm_device_race_access other = {
        .text = text_of(b->site), .word = b->site,
        .workgroup = b->tag == SEVERAL ? UINT32_MAX : b->tag - 1,
        .invocation = b->tag != SEVERAL && b->invoker != SEVERAL ? b->invoker - 1 : UINT32_MAX,
        .write = (b->seen & (PRIVATE_WRITE | SHARED_WRITE)) != 0,
        .private_ = (b->seen & (PRIVATE_WRITE | PRIVATE_READ)) != 0,
    };
    struct vkmm_device_race_access self = { .text = text_of(a->site), .word = a->site, .workgroup = a->tag - 1,
                                            .invocation = a->invocation, .write = a->write,
                                            .private_ = a->private_ };
    bool in_order = other.word <= self.word;
    *race = (struct vkmm_device_race){ .earlier = in_order ? other : self, .later = in_order ? self : other,
                                       .offset = offset, .bytes = 1 };
}

/* Was the byte's last access another agent's than a's? */
static bool ref_another_agent(const struct ref_byte *b, uint32_t tag, uint32_t invocation)
{
    return b->tag && (b->tag != tag || b->invoker != invocation + 1);
}

/* One byte accessed; returns true when it is a private read of bytes
 * another agent wrote. */
static bool ref_byte_access(struct reference *r, uint64_t offset, const struct ref_access *a)
{
    struct ref_byte *b = &r->byte[offset];
    bool stale = false;
    if (ref_another_agent(b, a->tag, a->invocation) && ref_conflicts(b->seen, a->write, a->private_)) {
        ref_record(r, offset, b, a);
        stale = !a->write && a->private_;
    }
    if (!b->tag)
        b->first_write = a->write;
    b->invoker = !b->tag || (b->tag == a->tag && b->invoker == a->invocation + 1) ? a->invocation + 1 : SEVERAL;
    b->tag = !b->tag || b->tag == a->tag ? a->tag : SEVERAL;
    if (a->write || !(b->seen & (PRIVATE_WRITE | SHARED_WRITE)))
        b->site = a->site; /* a read keeps the site of the write before it */
    b->seen |= a->write ? (a->private_ ? PRIVATE_WRITE : SHARED_WRITE) : (a->private_ ? PRIVATE_READ : SHARED_READ);
    return stale;
}

/* A read through the levels missed another invocation's write: one record
 * per (write, read) pair. */
static void ref_record_stale(struct reference *r, const struct vkmm_level_stale *stale, const struct ref_access *a,
                             const struct ref_byte *before, uint32_t size)
{
    uint32_t writer_site = stale->held ? stale->writer_site : before->site;
    uint32_t writer_tag = stale->held ? stale->writer_tag : before->tag;
    for (uint32_t i = 0; i < r->races->count; i++) {
        struct vkmm_device_race *race = &r->races->race[i];
        if (race->stale && race->earlier.word == writer_site && race->later.word == a->site) {
            race->bytes += size;
            return;
        }
    }
    struct vkmm_device_race *race = ref_new_race(r, size);
    if (!race)
        return;
    *race = (struct vkmm_device_race){
        .earlier = { .text = text_of(writer_site), .word = writer_site,
                     .workgroup = writer_tag && writer_tag != SEVERAL ? writer_tag - 1 : UINT32_MAX,
                     .invocation = stale->held ? stale->writer_invocation : UINT32_MAX, .write = true },
        .later = { .text = text_of(a->site), .word = a->site, .workgroup = a->tag - 1, .invocation = a->invocation },
        .offset = stale->offset,
        .bytes = size,
        .stale = true,
        .held = stale->held,
    };
}

/* The seeded choices among the results the model permits (DESIGN §3
 * "Manifest"), a coin per (instruction, word of memory): the monitor's. */
static bool ref_coin(uint64_t seed, uint32_t instruction, uint64_t offset)
{
    uint64_t x = (seed * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)instruction << 32) ^ (offset >> 2);
    x = (x ^ (x >> 31)) * 0xD6E8FEB86659FD93ull;
    x = (x ^ (x >> 29)) * 0xBF58476D1CE4E5B9ull;
    return (x ^ (x >> 32)) & 1;
}

/* Non-private accesses of two workgroups that nothing orders: one record
 * per pair of instructions of that kind, the sides in program order. */
static void ref_record_unordered(struct reference *r, const struct vkmm_unordered *u, const struct ref_access *a,
                                 uint64_t offset, uint32_t size)
{
    uint32_t low = u->site < a->site ? u->site : a->site, high = u->site < a->site ? a->site : u->site;
    for (uint32_t i = 0; i < r->races->count; i++) {
        struct vkmm_device_race *race = &r->races->race[i];
        if (race->unordered && race->earlier.word == low && race->later.word == high) {
            race->bytes += size;
            return;
        }
    }
    struct vkmm_device_race *race = ref_new_race(r, size);
    if (!race)
        return;
    struct vkmm_device_race_access other = { .text = text_of(u->site), .word = u->site, .workgroup = u->tag - 1,
                                             .invocation = u->invocation, .write = u->write, .atomic = u->atomic };
    struct vkmm_device_race_access self = { .text = text_of(a->site), .word = a->site, .workgroup = a->tag - 1,
                                            .invocation = a->invocation, .write = a->write, .atomic = a->atomic };
    bool in_order = other.word <= self.word;
    *race = (struct vkmm_device_race){ .earlier = in_order ? other : self, .later = in_order ? self : other,
                                       .offset = offset, .bytes = size, .unordered = true, .why = (uint8_t)u->why };
}

/* Ordered, yet racing: a read never made visible (no MakePointerVisible,
 * nothing made visible by its subgroup), or of another subgroup's write in
 * the phase with no acquire naming device memory. */
static bool ref_unseen(struct reference *r, uint64_t at, uint32_t size, uint32_t flags, const struct ref_access *a,
                       struct vkmm_unordered *u)
{
    uint32_t subgroup = a->invocation / WIDTH;
    bool made_visible = (flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u) != VKMM_SCOPE_NONE;
    if (!made_visible && vkmm_happens_before_unseen_write(r->order, at, size, a->tag, subgroup, a->invocation, u))
        return true;
    return vkmm_happens_before_unacquired_write(r->order, at, size, a->tag, subgroup, a->invocation, WIDTH, u);
}

/* A non-private access's MakePointerVisible / MakePointerAvailable (legacy
 * Coherent: at Device scope) counts as its invocation's operation. */
static void ref_pointer_semantics(struct reference *r, uint32_t flags, const struct ref_access *a)
{
    uint32_t scope = flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u, subgroup = a->invocation / WIDTH;
    if (scope != VKMM_SCOPE_NONE && (flags & VKMM_WORKGROUP_READ))
        vkmm_happens_before_visible(r->order, a->tag, subgroup);
    if (scope == VKMM_SCOPE_DEVICE && (flags & VKMM_WORKGROUP_READ))
        vkmm_happens_before_device_visible(r->order, a->tag, subgroup);
    if (scope == VKMM_SCOPE_DEVICE && (flags & VKMM_WORKGROUP_WRITE))
        vkmm_happens_before_device_available(r->order, a->tag);
}

/* An atomic: one of narrower scope than Device judged against other
 * workgroups' accesses (vkmm_happens_before_scoped_atomic), one of Device
 * scope against non-atomic ones (vkmm_happens_before_wide_atomic); a load
 * racing with a write reads like a racing coherent read (returns true). */
static bool ref_scoped_atomic(struct reference *r, uint64_t at, uint32_t size, uint32_t flags, struct ref_access *a)
{
    struct vkmm_unordered u;
    bool read = (flags & VKMM_WORKGROUP_READ) != 0, write = (flags & VKMM_WORKGROUP_WRITE) != 0;
    uint32_t scope = flags >> VKMM_ACCESS_SCOPE_SHIFT & 3u;
    bool wide = scope == VKMM_SCOPE_DEVICE;
    bool race = wide ? vkmm_happens_before_wide_atomic(r->order, at, size, read, write, a->tag, a->invocation,
                                                       a->site - FIRST_SITE + 1, &u)
                : scope == VKMM_SCOPE_SUBGROUP
                    ? vkmm_happens_before_subgroup_atomic(r->order, at, size, read, write, a->tag,
                                                          a->invocation / WIDTH, a->invocation,
                                                          a->site - FIRST_SITE + 1, &u)
                    : vkmm_happens_before_scoped_atomic(r->order, at, size, read, write, a->tag,
                                                        a->invocation / WIDTH, a->invocation,
                                                        a->site - FIRST_SITE + 1, &u);
    if (wide)
        vkmm_happens_before_atomic(r->order, a->tag, at, read, write);
    if (scope >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_atomic_word(r->order, a->tag, a->invocation / WIDTH, at, read, write);
    if (!race)
        return false;
    u.site = u.site + FIRST_SITE - 1;
    a->write = write;
    a->atomic = true;
    ref_record_unordered(r, &u, a, at, size);
    a->atomic = false;
    if (write || !u.write)
        return false;
    bool stale = r->unordered_stale_reads++ < (1u << 16);
    if (!stale)
        r->unordered_stale_reads = 0;
    return stale;
}

/* The monitor's judgement of a non-private access by happens-before:
 * returns whether a read must see the bytes from before the dispatch
 * (until 65,536 such reads pile up with no write between), and sets
 * *racing_write for a write over another workgroup's unordered write. */
static bool ref_judge_order(struct reference *r, uint64_t at, uint32_t size, uint32_t flags, struct ref_access *a,
                            bool *racing_write)
{
    struct vkmm_unordered u;
    bool stale = false;
    ref_pointer_semantics(r, flags, a);
    if (flags & VKMM_WORKGROUP_READ) {
        a->write = false;
        if (vkmm_happens_before_access(r->order, at, size, false, a->tag, a->invocation, a->site - FIRST_SITE + 1,
                                       &u) ||
            ref_unseen(r, at, size, flags, a, &u)) {
            u.site = u.site + FIRST_SITE - 1;
            ref_record_unordered(r, &u, a, at, size);
            stale = r->unordered_stale_reads++ < (1u << 16);
            if (!stale)
                r->unordered_stale_reads = 0;
        }
    }
    if (flags & VKMM_WORKGROUP_WRITE) {
        a->write = true;
        if (vkmm_happens_before_access(r->order, at, size, true, a->tag, a->invocation, a->site - FIRST_SITE + 1,
                                       &u)) {
            u.site = u.site + FIRST_SITE - 1;
            ref_record_unordered(r, &u, a, at, size);
            *racing_write = u.write;
        }
    }
    return stale;
}

/* The lane's access through the reference's levels: sets *stale when the
 * read was stale (recorded when `report_stale`); moves the lane's address
 * where the levels hold its bytes, and then returns true. */
static bool ref_levels(struct reference *r, uint64_t *address, uint64_t at, uint32_t size, uint32_t flags,
                       struct ref_access *a, const struct ref_byte *before, uint32_t subgroup, bool report_stale,
                       bool *stale)
{
    a->write = (flags & VKMM_WORKGROUP_WRITE) != 0;
    uint8_t *bytes = vkmm_dispatch_levels_access(r->levels, a->tag, subgroup, at, size, flags,
                                                 r->level_view + (a->invocation % WIDTH) * 64, a->site,
                                                 a->invocation);
    assert_non_null(bytes);
    const struct vkmm_level_stale *level_stale = vkmm_dispatch_levels_stale(r->levels);
    if (level_stale->stale && report_stale)
        ref_record_stale(r, level_stale, a, before, size);
    *stale = level_stale->stale;
    if (bytes == r->base + at)
        return false;
    *address = (uintptr_t)bytes;
    return true;
}

static int64_t ref_access(struct reference *r, uint64_t *addresses, uint64_t lanes, uint32_t size, uint32_t flags,
                          uint32_t tag, uint32_t word, uint32_t subgroup)
{
    bool private_ = (flags & VKMM_ACCESS_PRIVATE) != 0;
    if (flags & VKMM_WORKGROUP_WRITE)
        r->unordered_stale_reads = 0;
    bool through_levels =
        !private_ || (flags & VKMM_WORKGROUP_ATOMIC) || vkmm_dispatch_levels_busy(r->levels, tag);
    int64_t moved = 0;
    for (uint32_t lane = 0; lane < WIDTH; lane++) {
        uint64_t at = addresses[lane] - (uintptr_t)r->base;
        if (!(lanes >> lane & 1) || at + size > DEVICE)
            continue;
        struct ref_byte before = r->byte[at];
        struct ref_access a = { .tag = tag, .site = word, .invocation = subgroup * WIDTH + lane,
                                .private_ = private_ };
        bool stale = false;
        if (flags & VKMM_WORKGROUP_READ)
            for (uint32_t i = 0; i < size; i++)
                stale |= ref_byte_access(r, at + i, &a);
        bool racing_write = false, unordered_read = false;
        if (flags & VKMM_WORKGROUP_ATOMIC)
            unordered_read = ref_scoped_atomic(r, at, size, flags, &a);
        else if (!(flags & VKMM_WORKGROUP_ATOMIC) && !private_)
            unordered_read = ref_judge_order(r, at, size, flags, &a, &racing_write);
        /* A private write over another workgroup's write (judged by the
         * lane's first byte), or a non-private one over an unordered write,
         * is dropped on seed 0, by a coin on others: the bytes keep the
         * first writer's. */
        bool drop = (flags & VKMM_WORKGROUP_WRITE) && !(flags & VKMM_WORKGROUP_READ) && size <= 64 &&
                    ((private_ && !through_levels && ref_another_agent(&before, tag, a.invocation) &&
                      (before.seen & (PRIVATE_WRITE | SHARED_WRITE))) ||
                     racing_write) &&
                    (!r->seed || ref_coin(r->seed, word ^ 0x5bd1e995u, at));
        a.write = true;
        if (flags & VKMM_WORKGROUP_WRITE)
            for (uint32_t i = 0; i < size; i++)
                ref_byte_access(r, at + i, &a);
        if (drop) {
            addresses[lane] = (uintptr_t)(r->view + lane * 64);
            moved = 1;
            continue;
        }
        /* A racing read the shader reads again later may see the newer
         * bytes on seeds other than 0. */
        bool again = r->seed && (flags & VKMM_ACCESS_READ_AGAIN) && ref_coin(r->seed, word, at);
        stale &= !again;
        unordered_read &= !again;
        if (unordered_read && through_levels) {
            /* A racing non-private read: the levels' older copy if they
             * hold one (not reported again), else the bytes from before. */
            bool held_older;
            moved |= ref_levels(r, &addresses[lane], at, size, flags, &a, &before, subgroup, false, &held_older);
            if (held_older)
                continue;
            stale = true;
        }
        if (stale) {
            /* Private reads never see another workgroup's writes inside a
             * command: the bytes as they were before the dispatch. */
            memcpy(r->view + lane * 64, r->before + at, size);
            addresses[lane] = (uintptr_t)(r->view + lane * 64);
            moved = 1;
            continue;
        }
        bool ignored;
        if (through_levels)
            moved |= ref_levels(r, &addresses[lane], at, size, flags, &a, &before, subgroup, true, &ignored);
    }
    return moved;
}

/* The dispatch ends: the levels empty and their lost updates are recorded
 * against the last access the owner states saw. */
static void ref_end_dispatch(struct reference *r)
{
    vkmm_dispatch_levels_end(r->levels);
    uint32_t count;
    const struct vkmm_level_lost *lost = vkmm_dispatch_levels_lost(r->levels, &count);
    for (uint32_t i = 0; i < count; i++) {
        struct vkmm_device_race *race = ref_new_race(r, 1);
        if (!race)
            continue;
        const struct ref_byte *b = &r->byte[lost[i].offset];
        *race = (struct vkmm_device_race){
            .earlier = { .text = text_of(lost[i].writer_site), .word = lost[i].writer_site,
                         .workgroup = lost[i].writer_tag - 1, .invocation = lost[i].writer_invocation,
                         .write = true },
            .later = { .text = text_of(b->site), .word = b->site,
                       .workgroup = b->tag && b->tag != SEVERAL ? b->tag - 1 : UINT32_MAX,
                       .invocation = b->tag && b->tag != SEVERAL && b->invoker != SEVERAL ? b->invoker - 1
                                                                                          : UINT32_MAX,
                       .write = true },
            .offset = lost[i].offset,
            .bytes = 1,
            .lost = true,
        };
    }
}

/* --- Helpers ---------------------------------------------------------------------------- */

static void assert_same_side(const struct vkmm_device_race_access *x, const struct vkmm_device_race_access *y)
{
    assert_ptr_equal(x->text, y->text);
    assert_int_equal(x->word, y->word);
    assert_int_equal(x->workgroup, y->workgroup);
    assert_int_equal(x->invocation, y->invocation);
    assert_int_equal(x->write, y->write);
    assert_int_equal(x->private_, y->private_);
}

static void assert_same_races(const struct vkmm_device_races *a, const struct vkmm_device_races *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->more, b->more);
    for (uint32_t i = 0; i < a->count; i++) {
        const struct vkmm_device_race *x = &a->race[i], *y = &b->race[i];
        assert_int_equal(x->offset, y->offset);
        assert_int_equal(x->bytes, y->bytes);
        assert_int_equal(x->stale, y->stale);
        assert_int_equal(x->held, y->held);
        assert_int_equal(x->lost, y->lost);
        assert_int_equal(x->unordered, y->unordered);
        assert_int_equal(x->why, y->why);
        assert_same_side(&x->earlier, &y->earlier);
        assert_same_side(&x->later, &y->later);
    }
}

/* One subgroup's access on the monitor: lane i at offsets[i]. */
static int64_t monitor_access(struct vkmm_device_monitor *m, uint8_t *base, uint64_t addresses[WIDTH],
                              uint64_t lanes, const uint32_t offsets[WIDTH], uint32_t size, uint32_t flags,
                              uint32_t tag, uint32_t word, uint32_t subgroup)
{
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        addresses[lane] = (uintptr_t)(base + offsets[lane]);
    return vkmm_device_monitor_access(m, addresses, lanes, size | flags << 16, tag, site(word), text_of(word),
                                      subgroup);
}

static void store(const uint64_t addresses[WIDTH], uint64_t lanes, const uint32_t offsets[WIDTH], uint32_t size,
                  uint8_t value)
{
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        if (lanes >> lane & 1 && offsets[lane] + size <= DEVICE)
            for (uint32_t i = 0; i < size; i++)
                ((uint8_t *)(uintptr_t)addresses[lane])[i] = (uint8_t)(value + lane * 7 + i);
}

/* --- The scan of exact accesses -------------------------------------------------------- */

enum { SCANNED_READ = 1, SCANNED_WRITE = 2 };

/* What a scan reported, per byte of the device; its runs must come in
 * order, non-empty and maximal (never two touching runs of one kind). */
struct scanned {
    uint64_t origin; /* the scanned window's first byte */
    uint8_t kinds[DEVICE];
    uint64_t end[2]; /* where the last run of each kind ended (+1: 0 is "none yet") */
};

static void scanned_run(struct scanned *sc, int kind, uint64_t offset, uint64_t length)
{
    assert_true(length > 0);
    if (sc->end[kind])
        assert_true(offset > sc->end[kind] - 1);
    for (uint64_t i = 0; i < length; i++) {
        assert_true(sc->origin + offset + i < DEVICE);
        sc->kinds[sc->origin + offset + i] |= (uint8_t)(1u << kind);
    }
    sc->end[kind] = offset + length + 1;
}

static void scanned_read(void *user, uint64_t offset, uint64_t length)
{
    scanned_run(user, 0, offset, length);
}

static void scanned_write(void *user, uint64_t offset, uint64_t length)
{
    scanned_run(user, 1, offset, length);
}

/* The monitor's scan of [begin, begin + size) against the reference: a
 * byte is read as found when the dispatch read it and did not write it
 * first, written when it wrote it. */
static void assert_scan_matches(const struct vkmm_device_monitor *m, const uint8_t *memory, const struct reference *r,
                                uint64_t begin, uint64_t size)
{
    struct scanned *scan = calloc(1, sizeof(*scan));
    assert_non_null(scan);
    scan->origin = begin;
    vkmm_device_monitor_scan(m, memory + begin, size, scanned_read, scanned_write, scan);
    for (uint64_t b = 0; b < DEVICE; b++) {
        const struct ref_byte *byte = &r->byte[b];
        bool inside = b >= begin && b < begin + size;
        bool read = inside && (byte->seen & (PRIVATE_READ | SHARED_READ)) && !byte->first_write;
        bool written = inside && (byte->seen & (PRIVATE_WRITE | SHARED_WRITE));
        assert_int_equal(scan->kinds[b], (read ? SCANNED_READ : 0) | (written ? SCANNED_WRITE : 0));
    }
    free(scan);
}

/* --- Fixed cases ------------------------------------------------------------------------ */

struct fixture {
    uint8_t memory[DEVICE];
    uint8_t before[DEVICE];
    struct vkmm_device_races races;
    struct vkmm_device_monitor *m;
};

static void fixture_begin_seeded(struct fixture *f, uint64_t seed)
{
    memset(f, 0, sizeof(*f));
    for (uint32_t i = 0; i < DEVICE; i++)
        f->memory[i] = f->before[i] = (uint8_t)(i * 13 + 1);
    f->m = vkmm_device_monitor_create(f->memory, DEVICE);
    assert_non_null(f->m);
    vkmm_device_monitor_begin(f->m, &f->races, peek_before, f->before, seed, WIDTH);
}

static void fixture_begin(struct fixture *f)
{
    fixture_begin_seeded(f, 0);
}

/* A subgroup's 128-byte span (eight vec4 lanes) by one workgroup, then a
 * 2-byte private write of another workgroup in the middle of one of its
 * words: one race of 2 bytes at that offset, naming the lane whose element
 * holds it. */
static void test_partial_word_write_into_a_span_races_on_its_bytes(void **state)
{
    (void)state;
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    uint32_t span[WIDTH], at[WIDTH] = { 0 };
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        span[lane] = 64 + lane * 16;
    const uint32_t private_write = VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE;
    assert_int_equal(monitor_access(f.m, f.memory, addresses, 0xff, span, 16, private_write, 1, 10, 0), 0);
    assert_int_equal(f.races.count, 0);
    at[0] = 64 + 3 * 16 + 5;
    monitor_access(f.m, f.memory, addresses, 1, at, 2, private_write, 2, 11, 1);
    assert_int_equal(f.races.count, 1);
    assert_int_equal(f.races.race[0].offset, 64 + 3 * 16 + 5);
    assert_int_equal(f.races.race[0].bytes, 2);
    assert_int_equal(f.races.race[0].earlier.word, 10);
    assert_int_equal(f.races.race[0].earlier.workgroup, 0);
    assert_int_equal(f.races.race[0].later.word, 11);
    assert_int_equal(f.races.race[0].later.workgroup, 1);
    assert_int_equal(f.races.race[0].later.invocation, WIDTH); /* lane 0 of subgroup 1 */
    /* The span again, read by its workgroup's other instruction: the two
     * split bytes now belong to workgroup 2, and only they race. */
    int64_t moved = monitor_access(f.m, f.memory, addresses, 0xff, span, 16, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE,
                                   1, 12, 0);
    assert_int_equal(f.races.count, 2);
    assert_int_equal(f.races.race[1].offset, 64 + 3 * 16 + 5);
    assert_int_equal(f.races.race[1].bytes, 2);
    assert_int_equal(f.races.race[1].later.invocation, 3);
    /* Lane 3 reads its element as it was before the dispatch. */
    assert_true(moved != 0);
    assert_memory_equal((const uint8_t *)(uintptr_t)addresses[3], f.before + 64 + 3 * 16, 16);
    assert_ptr_equal((const uint8_t *)(uintptr_t)addresses[2], f.memory + 64 + 2 * 16);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
}

static bool resident(const void *at)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char in = 0;
    assert_int_equal(mincore((void *)((uintptr_t)at & ~(page - 1)), page, &in), 0);
    return in & 1;
}

/* device_monitor_pages.c: the map pages of a large range stay after its
 * dispatch (the next one over the same buffer would fault them in again)
 * and go back at the end of a later dispatch that did not touch them. */
static void test_large_ranges_keep_their_map_pages_while_dispatches_use_them(void **state)
{
    (void)state;
    enum { LARGE = 40u << 20 };
    uint8_t *memory = calloc(1, LARGE);
    assert_non_null(memory);
    struct vkmm_device_monitor *m = vkmm_device_monitor_create(memory, LARGE);
    assert_non_null(m);
    uint64_t addresses[WIDTH];
    const uint32_t first[WIDTH] = { 0 }, last[WIDTH] = { LARGE - 64 };
    const uint32_t write = VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE;
    const void *near_first = vkmm_device_monitor_state_at(m, 0);
    const void *near_last = vkmm_device_monitor_state_at(m, LARGE - 64);
    for (int dispatch = 0; dispatch < 3; dispatch++) {
        struct vkmm_device_races races = { 0 };
        vkmm_device_monitor_begin(m, &races, peek_before, memory, 0, WIDTH);
        if (dispatch < 2)
            monitor_access(m, memory, addresses, 1, first, 4, write, 1, 10, 0);
        if (dispatch < 1)
            monitor_access(m, memory, addresses, 1, last, 4, write, 1, 11, 0);
        vkmm_device_monitor_end_dispatch(m);
        vkmm_device_monitor_clear(m, memory, LARGE);
        assert_int_equal(races.count, 0);
        /* Kept while the last dispatch or the one before touched them. */
        assert_int_equal(resident(near_first), dispatch < 2);
        assert_int_equal(resident(near_last), dispatch < 1);
    }
    vkmm_device_monitor_destroy(m);
    free(memory);
}

/* Byte writes of different workgroups into one word do not race (each byte
 * is its own memory location); after the clear, nothing of them remains. */
static void test_byte_writes_into_one_word_do_not_race_and_clear_forgets(void **state)
{
    (void)state;
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    for (uint32_t b = 0; b < 4; b++) {
        uint32_t at[WIDTH] = { 100 + b };
        monitor_access(f.m, f.memory, addresses, 1, at, 1, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 1 + b, 10 + b,
                       0);
    }
    assert_int_equal(f.races.count, 0);
    uint32_t word[WIDTH] = { 100 };
    monitor_access(f.m, f.memory, addresses, 1, word, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, 1, 15, 0);
    assert_int_equal(f.races.count, 3); /* with workgroups 2, 3 and 4, one byte each */
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(f.races.race[i].bytes, 1);
        assert_int_equal(f.races.race[i].offset, 101 + i);
    }
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    struct vkmm_device_races next = { 0 };
    vkmm_device_monitor_begin(f.m, &next, peek_before, f.before, 0, WIDTH);
    monitor_access(f.m, f.memory, addresses, 1, word, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 1, 15, 0);
    assert_int_equal(next.count, 0);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
}

/* A subgroup's span over words split by the same invocations' byte writes
 * (lane 1 wrote byte 97, lane 5 byte 101): each byte keeps its history
 * (the scan leaves the bytes this dispatch wrote first out of its reads),
 * and an invocation reading its own write is no race. */
static void test_span_over_split_words_keeps_each_bytes_history(void **state)
{
    (void)state;
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    uint32_t at[WIDTH] = { 0, 97 }, span[WIDTH];
    monitor_access(f.m, f.memory, addresses, 1u << 1, at, 1, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 1, 10, 0);
    at[5] = 101;
    monitor_access(f.m, f.memory, addresses, 1u << 5, at, 1, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 1, 11, 0);
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        span[lane] = 96 + lane;
    monitor_access(f.m, f.memory, addresses, 0xff, span, 1, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, 1, 12, 0);
    assert_int_equal(f.races.count, 0);
    struct scanned scan = { .origin = 90 };
    vkmm_device_monitor_scan(f.m, f.memory + 90, 20, scanned_read, scanned_write, &scan);
    for (uint32_t i = 90; i < 110; i++) {
        bool read = i >= 96 && i < 104 && i != 97 && i != 101, written = i == 97 || i == 101;
        assert_int_equal(scan.kinds[i], (read ? SCANNED_READ : 0) | (written ? SCANNED_WRITE : 0));
    }
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
}

/* Two invocations of one workgroup are two agents (000 "Private vs.
 * Non-Private"): invocation 3 reads, privately, the word invocation 0
 * wrote; a barrier between would change nothing.  The race names both
 * invocations, and the read sees the bytes from before the dispatch on
 * seed 0; invocation 0 reading its own write is no race. */
static void test_invocations_of_one_workgroup_race(void **state)
{
    (void)state;
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    uint32_t at[WIDTH] = { 200, 0, 0, 200 };
    monitor_access(f.m, f.memory, addresses, 1u << 0, at, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 1, 10, 0);
    store(addresses, 1u << 0, at, 4, 0x40);
    int64_t moved = monitor_access(f.m, f.memory, addresses, 1u << 0, at, 4,
                                   VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, 1, 11, 0);
    assert_int_equal(moved, 0);
    assert_int_equal(f.races.count, 0);
    moved = monitor_access(f.m, f.memory, addresses, 1u << 3, at, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, 1,
                           12, 0);
    assert_int_equal(moved, 1);
    assert_memory_equal((const uint8_t *)(uintptr_t)addresses[3], f.before + 200, 4);
    assert_int_equal(f.races.count, 1);
    const struct vkmm_device_race *r = &f.races.race[0];
    assert_int_equal(r->earlier.workgroup, 0);
    assert_int_equal(r->later.workgroup, 0);
    assert_int_equal(r->later.invocation, 3);
    assert_true(r->later.private_ && !r->later.write && r->earlier.write);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
}

/* A racing private read that is its variable's last (no READ_AGAIN) of
 * bytes an early store left: stale on seed 0, the early store's bytes on
 * some other seeds (load buffering), stale again on every seed once
 * another write came after the early store; the race reported each time. */
static bool early_store_read_moves(uint64_t seed, bool overwritten)
{
    struct fixture f;
    fixture_begin_seeded(&f, seed);
    uint64_t addresses[WIDTH];
    uint32_t at[WIDTH] = { 200 };
    uint32_t store_flags = VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE;
    monitor_access(f.m, f.memory, addresses, 1, at, 4, store_flags | VKMM_ACCESS_EARLY_STORE, 2, 10, 0);
    store(addresses, 1, at, 4, 0x40);
    if (overwritten) {
        monitor_access(f.m, f.memory, addresses, 1, at, 4, store_flags, 2, 11, 0);
        store(addresses, 1, at, 4, 0x50);
    }
    int64_t moved =
        monitor_access(f.m, f.memory, addresses, 1, at, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE, 1, 12, 0);
    assert_int_equal(f.races.count, 1); /* the read against the last write */
    if (moved)
        assert_memory_equal((const uint8_t *)(uintptr_t)addresses[0], f.before + 200, 4);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
    return moved != 0;
}

static void test_racing_last_read_sees_an_early_store_on_some_seeds(void **state)
{
    (void)state;
    assert_true(early_store_read_moves(0, false));
    uint32_t fresh = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        fresh += !early_store_read_moves(seed, false);
        assert_true(early_store_read_moves(seed, true));
    }
    assert_in_range(fresh, 1, 15);
}

/* Anti-dependencies: a racing private read of an in-place update
 * (VKMM_ACCESS_UPDATED_AFTER) sees another workgroup's write whose
 * instruction comes later in the module (not moved, on seed 0 too); the
 * same read without the mark, or of a write earlier in the module, reads
 * the bytes from before the dispatch.  The race is recorded either way. */
static bool update_read_moves(uint32_t read_flags, uint32_t write_word, bool *seen_newer)
{
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    uint32_t at[WIDTH] = { 200 };
    monitor_access(f.m, f.memory, addresses, 1, at, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 2, write_word, 0);
    store(addresses, 1, at, 4, 0x40);
    int64_t moved = monitor_access(f.m, f.memory, addresses, 1, at, 4,
                                   VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE | read_flags, 1, 15, 0);
    assert_int_equal(f.races.count, 1);
    assert_int_equal(f.races.race[0].in_place_update, write_word > 15 && (read_flags & VKMM_ACCESS_UPDATED_AFTER));
    bool read_first;
    vkmm_device_monitor_anti_dependency(f.m, &read_first, seen_newer);
    assert_false(read_first);
    if (moved)
        assert_memory_equal((const uint8_t *)(uintptr_t)addresses[0], f.before + 200, 4);
    else
        assert_memory_not_equal((const uint8_t *)(uintptr_t)addresses[0], f.before + 200, 4);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
    return moved != 0;
}

static void test_in_place_update_read_sees_the_later_write(void **state)
{
    (void)state;
    bool seen_newer;
    assert_false(update_read_moves(VKMM_ACCESS_UPDATED_AFTER, 17, &seen_newer));
    assert_true(seen_newer);
    assert_true(update_read_moves(0, 17, &seen_newer)); /* not an update: the stalest value */
    assert_false(seen_newer);
    assert_true(update_read_moves(VKMM_ACCESS_UPDATED_AFTER, 13, &seen_newer)); /* a write earlier in the module */
    assert_false(seen_newer);
}

/* Such a read that ran first, then another workgroup's write later in the
 * module: noted as read first (the dispatch would run again, writers
 * first); a write earlier in the module, or a read without the mark, is
 * not. */
static bool update_read_first(uint32_t read_flags, uint32_t write_word)
{
    struct fixture f;
    fixture_begin(&f);
    uint64_t addresses[WIDTH];
    uint32_t at[WIDTH] = { 200 };
    monitor_access(f.m, f.memory, addresses, 1, at, 4, VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE | read_flags, 1, 15,
                   0);
    monitor_access(f.m, f.memory, addresses, 1, at, 4, VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE, 2, write_word, 0);
    store(addresses, 1, at, 4, 0x40);
    assert_int_equal(f.races.count, 1);
    bool read_first, seen_newer;
    vkmm_device_monitor_anti_dependency(f.m, &read_first, &seen_newer);
    assert_false(seen_newer);
    vkmm_device_monitor_end_dispatch(f.m);
    vkmm_device_monitor_clear(f.m, f.memory, DEVICE);
    vkmm_device_monitor_destroy(f.m);
    return read_first;
}

static void test_in_place_update_read_first_is_noted(void **state)
{
    (void)state;
    assert_true(update_read_first(VKMM_ACCESS_UPDATED_AFTER, 17));
    assert_false(update_read_first(VKMM_ACCESS_UPDATED_AFTER, 13));
    assert_false(update_read_first(0, 17));
}

/* --- Against the per-byte reference ------------------------------------------------------ */

static uint64_t next(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

/* Lane offsets in the window: a contiguous span from lane 0 (the streaming
 * path), a broadcast, scattered at any alignment, or in a narrower window
 * (across the 4 KiB line) where accesses overlap often and split words
 * meet spans. */
static void random_offsets(uint64_t *rng, uint32_t size, uint64_t *lanes, uint32_t offsets[WIDTH])
{
    uint32_t shape = (uint32_t)next(rng) % 5, limit = WINDOW_SIZE - size + 1;
    uint32_t base = next(rng) % 2 ? 224 + (uint32_t)next(rng) % 64 : (uint32_t)next(rng) % limit;
    if (next(rng) % 2)
        base &= ~3u; /* word-aligned half of the time */
    *lanes = next(rng) % 4 == 0 ? next(rng) % 256 : (1ull << (1 + next(rng) % WIDTH)) - 1;
    for (uint32_t lane = 0; lane < WIDTH; lane++) {
        uint32_t at;
        switch (shape) {
        case 0:
        case 1: at = base + lane * size; break;                 /* consecutive elements */
        case 2: at = base; break;                               /* broadcast */
        case 3: at = (uint32_t)next(rng) % limit; break;        /* anywhere */
        default: at = 224 + (uint32_t)next(rng) % 64; break;    /* the narrower window */
        }
        offsets[lane] = WINDOW + (at < limit ? at : (uint32_t)next(rng) % limit);
    }
}

static uint32_t random_flags(uint64_t *rng)
{
    uint32_t scope = (uint32_t)next(rng) % 4 << VKMM_ACCESS_SCOPE_SHIFT;
    switch (next(rng) % 8) {
    case 0: return VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE | VKMM_ACCESS_READ_AGAIN;
    case 1: return VKMM_WORKGROUP_READ | VKMM_ACCESS_PRIVATE;
    case 2:
    case 3: return VKMM_WORKGROUP_WRITE | VKMM_ACCESS_PRIVATE;
    case 4: return VKMM_WORKGROUP_READ | scope;
    case 5: return VKMM_WORKGROUP_WRITE | scope;
    case 6: return VKMM_WORKGROUP_READ | VKMM_WORKGROUP_WRITE | VKMM_WORKGROUP_ATOMIC | scope;
    default: return (next(rng) % 2 ? VKMM_WORKGROUP_READ : VKMM_WORKGROUP_WRITE) | VKMM_WORKGROUP_ATOMIC | scope;
    }
}

static uint32_t random_size(uint64_t *rng)
{
    static const uint32_t common[] = { 1, 2, 4, 4, 8, 12, 16, 16 };
    return next(rng) % 2 ? common[next(rng) % 8] : 1 + (uint32_t)next(rng) % 64;
}

struct sides {
    uint8_t memory[2][DEVICE]; /* the monitor's, the reference's */
    uint8_t before[2][DEVICE];
    struct vkmm_device_races races[2];
    uint32_t sites;      /* instructions in this dispatch: few, or enough to fill the race table */
    uint32_t workgroups; /* workgroups in this dispatch: with few, one workgroup's accesses meet often */
    bool private_only;   /* as streaming shaders: no access goes through the levels */
    struct vkmm_device_monitor *m;
    struct reference *ref;
};

static void random_access(struct sides *s, uint64_t *rng, uint64_t *private_steps)
{
    uint32_t size = random_size(rng), flags = random_flags(rng);
    if (s->private_only)
        flags = (flags & VKMM_WORKGROUP_READ ? VKMM_WORKGROUP_READ : VKMM_WORKGROUP_WRITE) | VKMM_ACCESS_PRIVATE |
                (flags & VKMM_ACCESS_READ_AGAIN);
    uint32_t tag = 1 + (uint32_t)next(rng) % s->workgroups, subgroup = (uint32_t)next(rng) % SUBGROUPS;
    uint32_t word = FIRST_SITE + (uint32_t)next(rng) % s->sites;
    uint64_t lanes;
    uint32_t offsets[WIDTH];
    random_offsets(rng, size, &lanes, offsets);
    uint64_t addresses[2][WIDTH];
    int64_t moved = monitor_access(s->m, s->memory[0], addresses[0], lanes, offsets, size, flags, tag, word, subgroup);
    for (uint32_t lane = 0; lane < WIDTH; lane++)
        addresses[1][lane] = (uintptr_t)(s->memory[1] + offsets[lane]);
    int64_t ref_moved = ref_access(s->ref, addresses[1], lanes, size, flags, tag, word, subgroup);
    assert_int_equal(moved != 0, ref_moved != 0);
    *private_steps += (flags & VKMM_ACCESS_PRIVATE) != 0;
    for (uint32_t lane = 0; lane < WIDTH; lane++) {
        if (!(lanes >> lane & 1))
            continue;
        /* Redirected (or not) alike: the same bytes read. */
        assert_int_equal(addresses[0][lane] == (uintptr_t)(s->memory[0] + offsets[lane]),
                         addresses[1][lane] == (uintptr_t)(s->memory[1] + offsets[lane]));
        assert_memory_equal((const uint8_t *)(uintptr_t)addresses[0][lane],
                            (const uint8_t *)(uintptr_t)addresses[1][lane], size);
    }
    if (flags & VKMM_WORKGROUP_WRITE) {
        uint8_t value = (uint8_t)next(rng);
        store(addresses[0], lanes, offsets, size, value);
        store(addresses[1], lanes, offsets, size, value);
    }
}

/* A fence: happens-before between workgroups (an acquire-release acquires
 * first), then the levels. */
static void ref_fence(struct reference *r, uint32_t tag, uint32_t subgroup, uint32_t kind)
{
    bool wide = (kind & 3u) == VKMM_SCOPE_DEVICE;
    if (wide && (kind & VKMM_FENCE_AVAILABLE))
        vkmm_happens_before_device_available(r->order, tag);
    if (wide && (kind & VKMM_FENCE_VISIBLE))
        vkmm_happens_before_device_visible(r->order, tag, subgroup);
    if ((kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_ACQUIRE | VKMM_FENCE_ATOMIC)) ||
        ((kind & VKMM_FENCE_SYNC) && (wide || (kind & 3u) < VKMM_SCOPE_WORKGROUP)))
        vkmm_happens_before_acquire(r->order, tag, wide);
    if (kind & (VKMM_FENCE_AVAILABLE | VKMM_FENCE_RELEASE))
        vkmm_happens_before_release(r->order, tag, wide);
    if ((kind & 3u) < VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_subgroup_sync(r->order, tag);
    if (kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_SYNC))
        vkmm_happens_before_visible(r->order, tag, subgroup);
    if ((kind & (VKMM_FENCE_VISIBLE | VKMM_FENCE_ACQUIRE | VKMM_FENCE_ATOMIC)) && (kind & 3u) >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_device_acquire(r->order, tag, subgroup, (kind & VKMM_FENCE_ATOMIC) != 0);
    if ((kind & (VKMM_FENCE_AVAILABLE | VKMM_FENCE_RELEASE)) && (kind & 3u) >= VKMM_SCOPE_WORKGROUP)
        vkmm_happens_before_device_release(r->order, tag, subgroup);
    vkmm_dispatch_levels_fence(r->levels, tag, subgroup, kind);
}

/* Fences and scheduling points, alike on both sides' levels. */
static void random_schedule(struct sides *s, uint64_t *rng)
{
    struct vkmm_dispatch_levels *levels[2] = { vkmm_device_monitor_levels(s->m), s->ref->levels };
    uint32_t tag = 1 + (uint32_t)next(rng) % s->workgroups, subgroup = (uint32_t)next(rng) % SUBGROUPS;
    uint32_t choice = (uint32_t)next(rng) % 4;
    uint32_t kind = (uint32_t)next(rng) % 4 | (uint32_t)(next(rng) % 4) * VKMM_FENCE_AVAILABLE;
    for (int k = 0; k < 2; k++) {
        if (choice == 0 && k == 0)
            vkmm_device_monitor_fence(s->m, tag, subgroup, kind);
        else if (choice == 0)
            ref_fence(s->ref, tag, subgroup, kind);
        else if (choice == 1)
            vkmm_dispatch_levels_yield(levels[k], tag, subgroup);
        else if (choice == 3 && k == 0)
            vkmm_device_monitor_barrier_open(s->m, tag);
        else if (choice == 3)
            vkmm_happens_before_barrier(s->ref->order, tag);
        else
            vkmm_dispatch_levels_round(levels[k]);
    }
}

static void test_word_states_match_byte_reference(void **state)
{
    (void)state;
    struct sides *s = calloc(1, sizeof(*s));
    assert_non_null(s);
    s->ref = calloc(1, sizeof(*s->ref));
    assert_non_null(s->ref);
    s->m = vkmm_device_monitor_create(s->memory[0], DEVICE);
    assert_non_null(s->m);
    s->ref->base = s->memory[1];
    s->ref->before = s->before[1];
    s->ref->levels = vkmm_dispatch_levels_create(s->memory[1], DEVICE);
    assert_non_null(s->ref->levels);
    s->ref->order = vkmm_happens_before_create(DEVICE);
    assert_non_null(s->ref->order);
    uint64_t rng = 2024, steps = 0, private_steps = 0, races = 0, stale = 0, moved_reads = 0, full = 0, unordered = 0;
    for (int dispatch = 0; dispatch < 400; dispatch++) {
        uint64_t seed = next(&rng) % 3;
        s->sites = 2 + (uint32_t)next(&rng) % (SITES - 1);
        s->workgroups = 1 + (uint32_t)next(&rng) % WORKGROUPS;
        s->private_only = next(&rng) % 4 == 0;
        for (uint32_t i = 0; i < DEVICE; i++)
            s->memory[0][i] = s->memory[1][i] = (uint8_t)next(&rng);
        memcpy(s->before[0], s->memory[0], DEVICE);
        memcpy(s->before[1], s->memory[1], DEVICE);
        memset(s->races, 0, sizeof(s->races));
        vkmm_device_monitor_begin(s->m, &s->races[0], peek_before, s->before[0], seed, WIDTH);
        vkmm_dispatch_levels_begin(s->ref->levels, seed, WIDTH);
        vkmm_happens_before_begin(s->ref->order);
        vkmm_happens_before_subgroup_width(s->ref->order, WIDTH);
        s->ref->unordered_stale_reads = 0;
        s->ref->seed = seed;
        s->ref->races = &s->races[1];
        memset(s->ref->byte, 0, sizeof(s->ref->byte));
        for (int op = 0; op < 150; op++, steps++) {
            if (next(&rng) % 6 == 0) {
                random_schedule(s, &rng);
            } else {
                random_access(s, &rng, &private_steps);
            }
            assert_memory_equal(s->memory[0], s->memory[1], DEVICE);
            if (op % 16 == 15) {
                uint64_t begin = next(&rng) % DEVICE;
                assert_scan_matches(s->m, s->memory[0], s->ref, begin, next(&rng) % (DEVICE - begin + 1));
            }
            assert_same_races(&s->races[0], &s->races[1]);
            assert_false(vkmm_device_monitor_lost(s->m));
        }
        vkmm_device_monitor_end_dispatch(s->m);
        ref_end_dispatch(s->ref);
        assert_memory_equal(s->memory[0], s->memory[1], DEVICE);
        assert_scan_matches(s->m, s->memory[0], s->ref, 0, DEVICE);
        assert_same_races(&s->races[0], &s->races[1]);
        for (uint32_t i = 0; i < s->races[0].count; i++) {
            stale += s->races[0].race[i].stale;
            unordered += s->races[0].race[i].unordered;
            moved_reads += !s->races[0].race[i].stale && !s->races[0].race[i].lost &&
                           s->races[0].race[i].later.private_ && !s->races[0].race[i].later.write;
        }
        races += s->races[0].count;
        full += s->races[0].more != 0;
        vkmm_device_monitor_clear(s->m, s->memory[0], DEVICE);
    }
    /* The run must have exercised races of every kind, and the table's
     * overflow, not only ordered accesses. */
    assert_true(races > 2000);
    assert_true(stale > 50);
    assert_true(unordered > 50);
    assert_true(moved_reads > 200);
    assert_true(private_steps > steps / 4);
    vkmm_dispatch_levels_destroy(s->ref->levels);
    vkmm_happens_before_destroy(s->ref->order);
    vkmm_device_monitor_destroy(s->m);
    free(s->ref);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partial_word_write_into_a_span_races_on_its_bytes),
        cmocka_unit_test(test_byte_writes_into_one_word_do_not_race_and_clear_forgets),
        cmocka_unit_test(test_large_ranges_keep_their_map_pages_while_dispatches_use_them),
        cmocka_unit_test(test_span_over_split_words_keeps_each_bytes_history),
        cmocka_unit_test(test_invocations_of_one_workgroup_race),
        cmocka_unit_test(test_racing_last_read_sees_an_early_store_on_some_seeds),
        cmocka_unit_test(test_in_place_update_read_sees_the_later_write),
        cmocka_unit_test(test_in_place_update_read_first_is_noted),
        cmocka_unit_test(test_word_states_match_byte_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
