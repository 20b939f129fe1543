/* The device-memory monitor's state (device_monitor.c), shared with the
 * scan of a dispatch's exact accesses (device_monitor_scan.c).  Nothing
 * outside the monitor includes it. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "device_monitor.h"

/* Owner state of a byte: workgroup tag (19 bits, 0: untouched in this
 * dispatch, all ones: several), whether the dispatch wrote the byte before
 * anything read it (1 bit), the last instruction's site index (8 bits) and
 * the kinds of access seen (4 bits).
 *
 * The map keeps one state per aligned 4-byte word while every access in
 * the dispatch covers the word whole (the common case: 32-bit and wider
 * data; a subgroup's 128-byte span is 32 states, not 128), and splits a
 * word into four byte states when an access covers part of it: races are
 * between bytes (each byte is a memory location), so a split word judges
 * each byte by its own history.  A word whose four byte states become equal
 * again is one state again.
 *
 * A dispatch starts with every state untouched (0), without a pass over the
 * map: word states are zeroed a chunk at a time when the dispatch first
 * touches the chunk (its generation, the dispatch it holds states of, is
 * older), while the chunk is about to be used anyway.  Byte states need no
 * zeroing: they are read only under a SPLIT word and are rewritten when a
 * word splits. */
#define TAG_BITS 19u
#define TAG_MASK ((1u << TAG_BITS) - 1u)
#define SEVERAL TAG_MASK
#define FIRST_WRITE (1u << 19) /* the dispatch's first access to the byte was a write */
#define SITE_SHIFT 20u
#define SITE_MASK 0xffu
#define PRIVATE_WRITE (1u << 28)
#define SHARED_WRITE (1u << 29)
#define PRIVATE_READ (1u << 30)
#define SHARED_READ (1u << 31)
#define WORD 4u
/* A word's state when its bytes have states of their own: a tag of 0 with
 * another bit set is no byte's state (untouched bytes are 0, touched ones
 * have a tag). */
#define SPLIT FIRST_WRITE
#define CHUNK_WORDS 1024u /* words zeroed at a time: 4 KiB of map */
/* Beside each state, the invocation of the owner's workgroup that made
 * its accesses: local invocation index + 1, or SEVERAL_INVOKERS.  Read only
 * while the state's tag is this dispatch's (so never zeroed): two
 * invocations of one workgroup are two agents as much as two workgroups
 * are (000 "Private vs. Non-Private": private accesses of distinct agents
 * are location-ordered only by system-synchronizes-with, which a barrier
 * inside the dispatch is not). */
#define SEVERAL_INVOKERS 0xffffu
_Static_assert((SPLIT & TAG_MASK) == 0 && SPLIT != 0, "SPLIT is no byte's state");

struct site {
    uint32_t word;
    const char *text;
    bool updated_after; /* a load of an in-place update (VKMM_ACCESS_UPDATED_AFTER) */
};

/* A word an early store wrote (compiler/early_stores.c) and the state it
 * left: while the word's state is still that one, nothing touched it since,
 * and a racing read may see the early store's bytes.  Direct-mapped by
 * word: a collision forgets one (the read then stays stale, which is
 * always allowed). */
struct early_word {
    uint64_t generation, word;
    uint32_t state;
    uint16_t invoker;
};
#define EARLY_WORDS 512u
#define KEPT_SPANS 32u

struct vkmm_device_monitor {
    uint8_t *base;
    uint64_t size;
    /* Both maps are virtual, committed where touched. */
    uint32_t *owner; /* per aligned word (the last may be partial): its bytes' state, or SPLIT */
    uint32_t *bytes; /* per byte: its state, where its word is SPLIT */
    uint16_t *invoker;       /* per word: the invoker of its state */
    uint16_t *invoker_bytes; /* per byte: the invoker of its byte state, where its word is SPLIT */
    uint64_t words;
    uint64_t *chunk_generation; /* per CHUNK_WORDS words: the dispatch whose states they hold */
    uint64_t generation;        /* dispatches begun */
    struct vkmm_device_races *races;
    vkmm_device_monitor_peek peek;
    void *peek_user;
    uint32_t site_count;
    struct site sites[VKMM_DEVICE_MAX_SITES + 1]; /* index 0: unknown */
    uint8_t view[64 * 64];                        /* what moved lanes read: W lanes of up to 64 bytes */
    uint8_t level_view[64 * 64];                  /* what lanes read through the dispatch's levels */
    struct vkmm_dispatch_levels *levels;
    struct vkmm_happens_before *order; /* between workgroups, for non-private accesses */
    /* Non-private reads made stale by a race since the last write: past
     * VKMM_HOPELESS_READS one sees the newer bytes, so that a spin on a
     * racing (coherent, non-atomic) flag still ends (the race is reported). */
    uint64_t unordered_stale_reads;
    /* Anti-dependencies seen (vkmm_device_monitor_anti_dependency). */
    bool updates_read_first, updates_seen_newer;
    bool lost;                                    /* the levels ran out of memory */
    /* Reads that returned stale bytes for good, one after the other, with
     * no write and no fresh read between: every invocation that runs spins
     * on a value it can never see (DESIGN §3.3 "no hangs"). */
    uint64_t hopeless_reads;
    /* A spin on a private flag (note_private_spin): the instruction and
     * bytes of the last racing private read, which returned the bytes from
     * before the dispatch, and how many times in a row it did, with no
     * write to those bytes between. */
    uint32_t spin_site, spin_size;
    uint64_t spin_at, spin_reads;
    uint32_t hopeless_site; /* the read of the spin that can never end */
    char hopeless[384];
    uint64_t writes; /* write accesses in this dispatch (a part's progress, dispatch.c) */
    uint32_t subgroup_width;  /* lanes per subgroup: local invocation index = subgroup * width + lane */
    uint64_t seed;
    struct early_word early[EARLY_WORDS];
    /* Large spans of map a dispatch used, whose pages go back only when a
     * later dispatch does not use them (device_monitor_pages.c). */
    struct kept_span {
        uint64_t first, count; /* words */
        uint64_t generation;   /* the dispatch that used them last */
    } kept[KEPT_SPANS];
    uint32_t kept_count;
    /* A dispatch run in parts (device_monitor_parts.c): the monitors of
     * the other parts, whose states count as this one's where it has none
     * (each chunk touched by two of them was merged into this one). */
    struct vkmm_device_monitor *partners[VKMM_DEVICE_MAX_PARTNERS];
    uint32_t partner_count;
};
