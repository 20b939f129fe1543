#include "atomic_history.h"

#include <stdlib.h>
#include <string.h>

#define VERSIONS 4          /* values kept per word, newest last */
#define VIEW_WORDS 8        /* words an agent's view (or a write's carried view) names */
#define MAX_WORDS (1u << 18)  /* words followed per dispatch */
#define MAX_AGENTS (1u << 16) /* agents followed per dispatch */
#define MAX_CARRIED (1u << 16) /* views carried by writes, per dispatch */
#define TICK (1ull << 16)      /* time between events: room for writes placed between two values */

/* One word of one level: (level, offset). */
struct word_key {
    uint64_t offset;
    uint32_t level;
};

struct view_entry {
    struct word_key word;
    uint64_t start; /* the oldest write of the word the agent may read: the one current from `start` */
};

struct view {
    uint64_t floor;
    uint32_t count;
    struct view_entry entry[VIEW_WORDS];
};

struct version {
    uint32_t value;
    uint32_t carried; /* index + 1 in h->carried of the view its write carried; 0: none */
    bool fixed;       /* no write may take a place just before it: a read-modify-write wrote it (it
                         read the value just before it: atomicity), or it was first seen current
                         (it may come from before the dispatch, which happens before every write) */
    uint64_t start;   /* when it became current (the next version's start ends it); also its place
                         in the coherence order, which a hidden write may take between two others */
};

struct word {
    struct word_key key; /* level UINT32_MAX: empty slot */
    uint32_t count;
    uint64_t pending;         /* a read-modify-write at this time wrote a value not yet seen (0: none) */
    uint64_t pending_agent;
    struct version version[VERSIONS];
};

struct agent {
    uint64_t key; /* UINT64_MAX: empty slot */
    struct view view;    /* bounds its reads */
    struct view pending; /* joined from the writes it read since its last acquire */
    bool untracked;      /* it read something this structure did not follow since its last acquire */
};

struct vkmm_atomic_history {
    uint64_t seed, random, now;
    bool tracking, saturated;
    struct word *words;
    uint32_t word_slots, word_count;
    struct agent *agents;
    uint32_t agent_slots, agent_count;
    struct view *carried;
    uint32_t carried_count, carried_room;
};

/* --- Tables --------------------------------------------------------------------- */

static uint64_t tick(struct vkmm_atomic_history *h)
{
    h->now += TICK;
    return h->now;
}

static uint64_t mix(uint64_t x)
{
    x = (x ^ (x >> 31)) * 0xD6E8FEB86659FD93ull;
    return x ^ (x >> 32);
}

static bool same_word(struct word_key a, struct word_key b)
{
    return a.offset == b.offset && a.level == b.level;
}

/* Everything stops being followed: loads return the newest value from now
 * on, which is always allowed. */
static void saturate(struct vkmm_atomic_history *h)
{
    h->saturated = true;
    h->tracking = false;
}

static bool grow_words(struct vkmm_atomic_history *h)
{
    uint32_t slots = h->word_slots ? 2 * h->word_slots : 1024;
    struct word *grown = malloc((size_t)slots * sizeof(*grown));
    if (!grown)
        return false;
    for (uint32_t i = 0; i < slots; i++)
        grown[i].key.level = UINT32_MAX;
    for (uint32_t i = 0; i < h->word_slots; i++) {
        if (h->words[i].key.level == UINT32_MAX)
            continue;
        uint32_t at = (uint32_t)mix(h->words[i].key.offset ^ (uint64_t)h->words[i].key.level << 48) & (slots - 1);
        while (grown[at].key.level != UINT32_MAX)
            at = (at + 1) & (slots - 1);
        grown[at] = h->words[i];
    }
    free(h->words);
    h->words = grown;
    h->word_slots = slots;
    return true;
}

/* The word's entry, added (empty) when absent; NULL when the table is
 * full (then nothing is followed any more). */
static struct word *word_at(struct vkmm_atomic_history *h, struct word_key key, bool add)
{
    if (h->word_slots) {
        uint32_t at = (uint32_t)mix(key.offset ^ (uint64_t)key.level << 48) & (h->word_slots - 1);
        for (; h->words[at].key.level != UINT32_MAX; at = (at + 1) & (h->word_slots - 1))
            if (same_word(h->words[at].key, key))
                return &h->words[at];
    }
    if (!add)
        return NULL;
    if (h->word_count >= MAX_WORDS || ((h->word_count + 1) * 2 > h->word_slots && !grow_words(h))) {
        saturate(h);
        return NULL;
    }
    uint32_t at = (uint32_t)mix(key.offset ^ (uint64_t)key.level << 48) & (h->word_slots - 1);
    while (h->words[at].key.level != UINT32_MAX)
        at = (at + 1) & (h->word_slots - 1);
    h->words[at] = (struct word){ .key = key };
    h->word_count++;
    return &h->words[at];
}

static bool grow_agents(struct vkmm_atomic_history *h)
{
    uint32_t slots = h->agent_slots ? 2 * h->agent_slots : 256;
    struct agent *grown = malloc((size_t)slots * sizeof(*grown));
    if (!grown)
        return false;
    for (uint32_t i = 0; i < slots; i++)
        grown[i].key = UINT64_MAX;
    for (uint32_t i = 0; i < h->agent_slots; i++) {
        if (h->agents[i].key == UINT64_MAX)
            continue;
        uint32_t at = (uint32_t)mix(h->agents[i].key) & (slots - 1);
        while (grown[at].key != UINT64_MAX)
            at = (at + 1) & (slots - 1);
        grown[at] = h->agents[i];
    }
    free(h->agents);
    h->agents = grown;
    h->agent_slots = slots;
    return true;
}

/* The agent's entry; a new agent's floor is the time tracking started (it
 * has seen nothing of this dispatch).  NULL when the table is full. */
static struct agent *agent_at(struct vkmm_atomic_history *h, uint64_t key, bool add)
{
    if (h->agent_slots) {
        uint32_t at = (uint32_t)mix(key) & (h->agent_slots - 1);
        for (; h->agents[at].key != UINT64_MAX; at = (at + 1) & (h->agent_slots - 1))
            if (h->agents[at].key == key)
                return &h->agents[at];
    }
    if (!add)
        return NULL;
    if (h->agent_count >= MAX_AGENTS || ((h->agent_count + 1) * 2 > h->agent_slots && !grow_agents(h))) {
        saturate(h);
        return NULL;
    }
    uint32_t at = (uint32_t)mix(key) & (h->agent_slots - 1);
    while (h->agents[at].key != UINT64_MAX)
        at = (at + 1) & (h->agent_slots - 1);
    h->agents[at] = (struct agent){ .key = key };
    h->agent_count++;
    return &h->agents[at];
}

/* --- Views -------------------------------------------------------------------------- */

/* The oldest write of `word` the view allows (0: none named). */
static uint64_t view_start(const struct view *v, struct word_key word)
{
    for (uint32_t i = 0; i < v->count; i++)
        if (same_word(v->entry[i].word, word))
            return v->entry[i].start;
    return 0;
}

/* Raises the view's bound on `word`.  A view with no room left gives up
 * its words for a floor of now: it then allows only values current now,
 * at least as strong as every bound it held (they all started earlier). */
static void view_raise(struct vkmm_atomic_history *h, struct view *v, struct word_key word, uint64_t start)
{
    for (uint32_t i = 0; i < v->count; i++) {
        if (same_word(v->entry[i].word, word)) {
            if (start > v->entry[i].start)
                v->entry[i].start = start;
            return;
        }
    }
    if (v->count == VIEW_WORDS) {
        v->floor = h->now;
        v->count = 0;
    }
    v->entry[v->count++] = (struct view_entry){ .word = word, .start = start };
}

static void view_join(struct vkmm_atomic_history *h, struct view *into, const struct view *from)
{
    if (from->floor > into->floor)
        into->floor = from->floor;
    for (uint32_t i = 0; i < from->count; i++)
        view_raise(h, into, from->entry[i].word, from->entry[i].start);
}

/* A copy of the writer's view, carried by its write: index + 1, or 0 when
 * there is no room (then the write carries its landing time as a floor:
 * every bound of the writer's view started before it). */
static uint32_t carry_view(struct vkmm_atomic_history *h, const struct view *v)
{
    if (h->carried_count == h->carried_room) {
        uint32_t room = h->carried_room ? 2 * h->carried_room : 256;
        struct view *grown = room <= MAX_CARRIED ? realloc(h->carried, (size_t)room * sizeof(*grown)) : NULL;
        if (!grown)
            return 0;
        h->carried = grown;
        h->carried_room = room;
    }
    h->carried[h->carried_count] = *v;
    return ++h->carried_count;
}

/* --- Coherence order ---------------------------------------------------------- */

static void append(struct word *w, uint32_t value, uint64_t start, uint32_t carried)
{
    if (w->count == VERSIONS) {
        memmove(&w->version[0], &w->version[1], (VERSIONS - 1) * sizeof(w->version[0]));
        w->count--;
    }
    w->version[w->count++] = (struct version){ .value = value, .start = start, .carried = carried };
}

static uint32_t carried_by(struct vkmm_atomic_history *h, uint64_t writer)
{
    struct agent *a = agent_at(h, writer, true);
    return a ? carry_view(h, &a->view) : 0;
}

/* Brings the word's order up to its `current` value.  A read-modify-write
 * since the last look explains a change (its value became current at its
 * time); any other change came from an access this structure does not
 * follow (a non-atomic store to the word), so the older values are
 * forgotten: reads can then only return the current one. */
static void catch_up(struct vkmm_atomic_history *h, struct word *w, uint32_t current)
{
    uint64_t pending = w->pending;
    w->pending = 0;
    if (!w->count) {
        append(w, current, h->now, 0); /* first look: nothing older is known */
        w->version[0].fixed = true;
        return;
    }
    if (w->version[w->count - 1].value == current)
        return;
    if (pending) {
        append(w, current, pending, carried_by(h, w->pending_agent));
        w->version[w->count - 1].fixed = true;
        return;
    }
    w->count = 0;
    append(w, current, tick(h), 0);
    w->version[0].fixed = true;
}

static struct word *followed_word(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t current)
{
    struct word *w = word_at(h, (struct word_key){ .offset = offset, .level = level }, true);
    if (w)
        catch_up(h, w, current);
    return w;
}

/* --- Operations ------------------------------------------------------------------ */

static uint64_t next_random(struct vkmm_atomic_history *h);

/* Where a landing write of agent `a` may take its place just before the
 * newest value instead of after it: the coherence order of two writes no
 * happens-before orders is free (000 "Coherence"), so a write whose agent
 * has not seen the newest value (not in its view, not current at its
 * floor) may come first in it (2+2W).  Never before a fixed value.
 * Returns the place's time, or 0. */
static uint64_t place_before_newest(const struct word *w, const struct agent *a)
{
    const struct version *newest = &w->version[w->count - 1];
    uint64_t lower = w->count > 1 ? w->version[w->count - 2].start : 0;
    uint64_t seen = view_start(&a->view, w->key);
    if (seen > lower)
        lower = seen;
    if (newest->fixed || newest->start <= a->view.floor || seen >= newest->start)
        return 0;
    uint64_t start = lower + (newest->start - lower) / 2;
    return start > lower && start < newest->start ? start : 0;
}

/* Tracking starts with the dispatch's first atomic load or landing store
 * (read-modify-writes alone need no history: each reads the newest value). */
static bool start_tracking(struct vkmm_atomic_history *h)
{
    if (!h->tracking && !h->saturated) {
        h->tracking = true;
        h->now = TICK;
    }
    return h->tracking;
}

bool vkmm_atomic_history_landed_words(struct vkmm_atomic_history *h, uint32_t level, const uint64_t *offsets,
                                      const uint32_t *before, const uint32_t *after, uint32_t count, uint64_t agent)
{
    if (!count || count > VKMM_ATOMIC_LANDING_WORDS || !start_tracking(h))
        return false;
    /* First every word's order is brought up to date (the table may grow:
     * no entry is held across it), then the entries are taken. */
    for (uint32_t i = 0; i < count; i++)
        if (!followed_word(h, level, offsets[i], before[i]))
            return false;
    struct word *w[VKMM_ATOMIC_LANDING_WORDS];
    for (uint32_t i = 0; i < count; i++) {
        w[i] = word_at(h, (struct word_key){ .offset = offsets[i], .level = level }, false);
        if (!w[i])
            return false;
    }
    struct agent *a = agent_at(h, agent, true);
    if (!a)
        return false;
    uint32_t carried = carry_view(h, &a->view);
    /* The words of one landing are one write (a 64-bit store's halves):
     * all of them take a place before the newest value, or none, so that
     * nobody reads half of it.  Seed 0 hides the write whenever the order
     * allows (the stalest: a racing store is lost); other seeds toss a
     * coin. */
    uint64_t hidden_at[VKMM_ATOMIC_LANDING_WORDS];
    bool hide = true;
    for (uint32_t i = 0; i < count; i++) {
        hidden_at[i] = place_before_newest(w[i], a);
        hide = hide && hidden_at[i];
    }
    hide = hide && (h->seed == 0 || (next_random(h) & 1));
    uint64_t start = hide ? 0 : tick(h);
    for (uint32_t i = 0; i < count; i++) {
        if (hide) {
            struct version newest = w[i]->version[w[i]->count - 1];
            w[i]->count--;
            append(w[i], after[i], hidden_at[i], carried);
            append(w[i], newest.value, newest.start, newest.carried);
            w[i]->version[w[i]->count - 1].fixed = newest.fixed;
        } else {
            append(w[i], after[i], start, carried);
        }
        /* The writer reads its own write or a later one (000 coherence: CoWR). */
        view_raise(h, &a->view, w[i]->key, hide ? hidden_at[i] : start);
    }
    return hide;
}

bool vkmm_atomic_history_landed(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t before,
                                uint32_t after, uint64_t agent)
{
    return vkmm_atomic_history_landed_words(h, level, &offset, &before, &after, 1, agent);
}

void vkmm_atomic_history_rmw(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t current,
                             uint64_t agent)
{
    if (!h->tracking)
        return;
    struct word *w = followed_word(h, level, offset, current);
    struct agent *a = agent_at(h, agent, true);
    if (!w || !a)
        return;
    /* An atomic read-modify-write reads the newest value (atomicity): it
     * reads from that write, and its own write comes next. */
    struct version *newest = &w->version[w->count - 1];
    if (newest->carried)
        view_join(h, &a->pending, &h->carried[newest->carried - 1]);
    w->pending = tick(h);
    w->pending_agent = agent;
    view_raise(h, &a->view, w->key, w->pending);
}

static uint64_t next_random(struct vkmm_atomic_history *h)
{
    h->random ^= h->random << 13;
    h->random ^= h->random >> 7;
    h->random ^= h->random << 17;
    return h->random;
}

/* The oldest version the agent may read: not older than its view of the
 * word, and still current at or after its floor. */
static uint32_t oldest_readable(const struct word *w, const struct agent *a)
{
    uint64_t start = view_start(&a->view, w->key);
    uint32_t oldest = w->count - 1;
    while (oldest > 0) {
        const struct version *older = &w->version[oldest - 1];
        uint64_t end = w->version[oldest].start;
        if (older->start < start || end <= a->view.floor)
            break;
        oldest--;
    }
    return oldest;
}

uint32_t vkmm_atomic_history_load(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset, uint32_t current,
                                  uint64_t agent)
{
    return vkmm_atomic_history_load_together(h, level, offset, current, &agent, 1);
}

uint32_t vkmm_atomic_history_load_together(struct vkmm_atomic_history *h, uint32_t level, uint64_t offset,
                                           uint32_t current, const uint64_t *agents, uint32_t count)
{
    if (!count || !start_tracking(h))
        return current;
    struct word *w = followed_word(h, level, offset, current);
    if (!w)
        return current;
    /* Every agent gets its entry first (the table may grow: no entry is
     * held across it), then the entries are taken. */
    for (uint32_t i = 0; i < count; i++)
        if (!agent_at(h, agents[i], true))
            return current;
    /* One value every agent may read: not older than any one's bound. */
    uint32_t oldest = 0, newest = w->count - 1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t bound = oldest_readable(w, agent_at(h, agents[i], false));
        if (bound > oldest)
            oldest = bound;
    }
    /* Seed 0: the stalest value allowed; other seeds: any of them. */
    uint32_t pick = h->seed == 0 ? oldest : oldest + (uint32_t)(next_random(h) % (newest - oldest + 1));
    const struct version *read = &w->version[pick];
    for (uint32_t i = 0; i < count; i++) {
        struct agent *a = agent_at(h, agents[i], false);
        if (read->carried)
            view_join(h, &a->pending, &h->carried[read->carried - 1]);
        /* Coherence (CoRR): later reads see this value or a newer one; a
         * stale read moves the bound one value further, so that a
         * spin-wait reaches the newest value within VERSIONS reads. */
        view_raise(h, &a->view, w->key, w->version[pick < newest ? pick + 1 : pick].start);
    }
    return read->value;
}

void vkmm_atomic_history_untracked_read(struct vkmm_atomic_history *h, uint64_t agent)
{
    if (!h->tracking)
        return;
    struct agent *a = agent_at(h, agent, true);
    if (a)
        a->untracked = true;
}

void vkmm_atomic_history_acquire(struct vkmm_atomic_history *h, uint64_t agent, bool precise)
{
    if (!h->tracking)
        return;
    struct agent *a = agent_at(h, agent, true);
    if (!a)
        return;
    view_join(h, &a->view, &a->pending);
    a->pending = (struct view){ 0 };
    if (!precise || a->untracked)
        a->view.floor = tick(h);
    a->untracked = false;
}

uint32_t vkmm_atomic_history_versions(const struct vkmm_atomic_history *h, uint32_t level, uint64_t offset)
{
    struct word *w = word_at((struct vkmm_atomic_history *)h, (struct word_key){ .offset = offset, .level = level },
                             false);
    return w ? w->count : 0;
}

/* --- Life ---------------------------------------------------------------------------- */

struct vkmm_atomic_history *vkmm_atomic_history_create(void)
{
    return calloc(1, sizeof(struct vkmm_atomic_history));
}

void vkmm_atomic_history_destroy(struct vkmm_atomic_history *h)
{
    if (!h)
        return;
    free(h->words);
    free(h->agents);
    free(h->carried);
    free(h);
}

bool vkmm_atomic_history_tracking(const struct vkmm_atomic_history *h)
{
    return h->tracking;
}

void vkmm_atomic_history_begin(struct vkmm_atomic_history *h, uint64_t seed)
{
    h->seed = seed;
    h->random = seed * 0x2545F4914F6CDD1Dull | 1;
    h->now = 0;
    h->tracking = false;
    h->saturated = false;
    for (uint32_t i = 0; i < h->word_slots; i++)
        h->words[i].key.level = UINT32_MAX;
    h->word_count = 0;
    for (uint32_t i = 0; i < h->agent_slots; i++)
        h->agents[i].key = UINT64_MAX;
    h->agent_count = 0;
    h->carried_count = 0;
}
