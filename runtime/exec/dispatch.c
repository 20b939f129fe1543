#include "dispatch.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "buffer.h"
#include "command_buffer.h"
#include "descriptor_set.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "device_memory.h"
#include "device_monitor.h"
#include "dispatch_levels.h"
#include "execute.h"
#include "log.h"
#include "physical_device.h"
#include "pipeline.h"
#include "pipeline_layout.h"
#include "strict/strict.h"
#include "texel_format.h"
#include "thread_pool.h"
#include "vkmm/vkmm.h"
#include "workgroup_monitor.h"

/* maxComputeWorkGroupInvocations is 1024, so at most 1024 subgroups of one
 * invocation each. */
#define MAX_SUBGROUPS 1024

/* The dispatch's watchdog (shader_abi.h, poll): its time limit, and once
 * over, where it was found looping. */
struct watchdog {
    uint64_t deadline_ns; /* 0: none */
    atomic_bool over;
    atomic_flag claimed;
    const char *loop;
    uint32_t workgroup[3];
    /* Strict mode: why the dispatch can never finish (a monitor's text,
     * copied: a workgroup monitor is gone before the device is lost). */
    char hopeless[384];
    /* A part of a dispatch in parts: its monitor, its writes at the last
     * poll, and polls since one of them changed (gave_up: too many). */
    const struct vkmm_device_monitor *part_monitor;
    /* Strict mode: the monitor of the dispatch run in turns (a part's is
     * part_monitor), asked at each poll whether a spin can never end. */
    const struct vkmm_device_monitor *monitor;
    uint64_t part_writes;
    uint32_t quiet_polls;
    bool gave_up;
};

/* Polls (of 4096 loop passes each) a part may make with no write in any of
 * its workgroups before it gives up: its running workgroups all wait, most
 * likely for another part's (which then raced with them). */
#define PART_QUIET_POLLS 16

/* A part whose workgroups only wait gives up: the dispatch runs in turns
 * on one thread then, where every workgroup it may wait for takes turns. */
static bool part_waits(struct watchdog *w)
{
    if (!w->part_monitor)
        return false;
    uint64_t writes = vkmm_device_monitor_writes(w->part_monitor);
    if (writes != w->part_writes) {
        w->part_writes = writes;
        w->quiet_polls = 0;
        return false;
    }
    return ++w->quiet_polls >= PART_QUIET_POLLS;
}

struct dispatch_run {
    struct watchdog *watchdog;
    const struct vkmm_pipeline *pipeline;
    const struct vkmm_compiled_shader *shader;
    struct vkmm_shader_invocation invocation; /* sets and push constants; ids filled per workgroup */
    uint32_t count[3];
    uint32_t base[3];
    uint8_t *scratch;       /* per thread: subgroup states, then shared memory */
    size_t scratch_stride;
    size_t states_size;
    bool patterned;         /* strict mode: variables start with the seeded pattern */
    uint8_t *pattern;       /* that pattern over a scratch stride, made once per dispatch (NULL: per workgroup) */
    uint64_t seed;
    struct vkmm_dispatch_levels *levels; /* strict mode: the subgroup and workgroup domains */
    struct vkmm_device_monitor *monitor; /* strict mode: with them, the device-memory monitor */
    bool writers_first;     /* strict mode's second run: the seeded orders reversed (run_in_turns) */
};

/* Strict mode (DESIGN §3.2): Workgroup, Private and Function variables
 * without an initializer start with the seeded pattern, as fresh device
 * memory does — never with what the previous workgroup or the allocator
 * left, so one seed gives the same bytes on every run.  Every 32-bit word
 * has its high bit set, as in the allocation pattern (levels.c). */
static void fill_pattern(uint8_t *bytes, size_t size, uint64_t seed)
{
    for (size_t at = 0; at < size; at += 8) {
        uint64_t x = seed ^ (at * 0x9e3779b97f4a7c15ull) ^ 0x5641524941424cull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        x ^= x >> 31;
        x |= 0x8000000080000000ull;
        memcpy(bytes + at, &x, size - at < 8 ? size - at : 8);
    }
}

/* A loop that polls may spin on a private flag that it can never see
 * change (device_monitor.c, note_private_spin): the dispatch ends now, with
 * the monitor's text, rather than at the time limit. */
static bool spins_for_ever(struct watchdog *w, const struct vkmm_shader_invocation *invocation)
{
    const struct vkmm_device_monitor *monitor = w->monitor ? w->monitor : w->part_monitor;
    const char *hopeless = monitor ? vkmm_device_monitor_hopeless(monitor) : NULL;
    if (!hopeless)
        return false;
    if (!atomic_flag_test_and_set(&w->claimed)) {
        snprintf(w->hopeless, sizeof(w->hopeless), "%s", hopeless);
        memcpy(w->workgroup, invocation->workgroup_id, sizeof(w->workgroup));
    }
    atomic_store(&w->over, true);
    return true;
}

static uint64_t monotonic_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
}

/* Called by every subgroup every VKMM_POLL_ITERATIONS loop iterations: a
 * clock read, so a runaway dispatch costs its loops nothing noticeable. */
static int32_t poll_watchdog(void *context, const struct vkmm_shader_invocation *invocation, const char *loop)
{
    struct watchdog *w = context;
    if (atomic_load_explicit(&w->over, memory_order_relaxed))
        return 1;
    if (part_waits(w)) {
        w->gave_up = true;
        atomic_store(&w->over, true);
        return 1;
    }
    if (spins_for_ever(w, invocation))
        return 1;
    if (!w->deadline_ns || monotonic_ns() < w->deadline_ns)
        return 0;
    if (!atomic_flag_test_and_set(&w->claimed)) {
        w->loop = loop;
        memcpy(w->workgroup, invocation->workgroup_id, sizeof(w->workgroup));
        atomic_store(&w->over, true);
    }
    return 1;
}

/* VKMM_DISPATCH_TIMEOUT_MS: how long one dispatch may run before the
 * device is lost (default 20 s, as GPU drivers end runaway work; 0: no
 * limit).  Read once per device: a dispatch costs no environment lookup. */
uint64_t vkmm_dispatch_timeout_ns(void)
{
    const char *text = getenv("VKMM_DISPATCH_TIMEOUT_MS");
    uint64_t ms = text && *text ? strtoull(text, NULL, 10) : 20000;
    return ms * 1000000ull;
}

bool vkmm_dispatch_parts_allowed(void)
{
    const char *text = getenv("VKMM_STRICT_PARTS");
    return !text || strcmp(text, "0") != 0;
}

static uint64_t dispatch_deadline(const struct vkmm_device *device)
{
    return device->dispatch_timeout_ns ? monotonic_ns() + device->dispatch_timeout_ns : 0;
}

/* Where one workgroup is: its scratch (subgroup states, then shared
 * memory), each subgroup's status, and its invocation block. */
struct workgroup_slot {
    uint8_t *scratch;
    struct vkmm_shader_invocation invocation;
    uint32_t unfinished;
    uint8_t status[MAX_SUBGROUPS]; /* vkmm_shader_status per subgroup (checked in vkmm_dispatch_execute) */
    uint64_t random;                 /* strict mode: the seeded turns */
    bool started;                    /* every subgroup has had its first turn */
    struct vkmm_workgroup_monitor *monitor; /* strict mode with Workgroup storage, else NULL */
};

static void start_workgroup(const struct dispatch_run *run, struct workgroup_slot *slot, uint64_t index)
{
    const struct vkmm_compiled_shader *shader = run->shader;
    slot->invocation = run->invocation;
    slot->invocation.shared_memory = slot->scratch + run->states_size;
    slot->invocation.workgroup_id[0] = run->base[0] + (uint32_t)(index % run->count[0]);
    slot->invocation.workgroup_id[1] = run->base[1] + (uint32_t)(index / run->count[0] % run->count[1]);
    slot->invocation.workgroup_id[2] = run->base[2] + (uint32_t)(index / run->count[0] / run->count[1]);
    slot->invocation.workgroup_tag = (uint32_t)(index + 1 <= UINT32_MAX ? index + 1 : UINT32_MAX);
    if (run->pattern)
        memcpy(slot->scratch, run->pattern, run->states_size + shader->shared_memory_size);
    else if (run->patterned)
        fill_pattern(slot->scratch, run->states_size + shader->shared_memory_size, run->seed);
    /* A fresh state only needs its header cleared: the status word, the
     * dispatcher's spin lanes and the loop passes (translate.c). */
    for (uint32_t g = 0; g < shader->subgroup_count; g++)
        memset(slot->scratch + (size_t)g * shader->state_size, 0, 16);
    memset(slot->status, VKMM_SHADER_YIELDED, shader->subgroup_count);
    slot->started = false;
    slot->random = (run->seed + 1) * 0x9E3779B97F4A7C15ull ^ (index + 1) * 0xBF58476D1CE4E5B9ull;
    slot->unfinished = shader->subgroup_count;
    /* Strict-mode code calls the hooks whether or not there is a monitor
     * (a shader without Workgroup storage has none): they accept NULL. */
    slot->invocation.workgroup_monitor = slot->monitor;
    slot->invocation.workgroup_access = vkmm_workgroup_monitor_access;
    slot->invocation.workgroup_barrier = vkmm_workgroup_monitor_barrier;
    if (slot->monitor)
        vkmm_workgroup_monitor_begin(slot->monitor, slot->invocation.shared_memory, slot->invocation.workgroup_id);
    /* A `shared` flag's release or acquire may name buffers. */
    if (slot->monitor && run->monitor)
        vkmm_workgroup_monitor_forward_atomics(slot->monitor, vkmm_device_monitor_shared_atomic, run->monitor,
                                               slot->invocation.workgroup_tag);
}

/* Runs every subgroup that may run once: each until it finishes, waits at
 * a control barrier, or yields (strict mode stops after atomics so that a
 * workgroup spinning on another's flag still finishes).  When none could,
 * the barrier opens: every unfinished subgroup waits at it (SPIR-V
 * OpControlBarrier: all invocations of the workgroup).  Returns true while
 * the workgroup has not finished. */
static uint64_t next_turn_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static bool step_workgroup(const struct dispatch_run *run, struct workgroup_slot *slot)
{
    const struct vkmm_compiled_shader *shader = run->shader;
    bool ran = false, sat_out = false;
    for (uint32_t k = 0; k < shader->subgroup_count; k++) {
        /* Writers first: subgroup 0 (which clears zero-initialised
         * Workgroup variables), then the others from the last. */
        uint32_t g = run->writers_first && k ? shader->subgroup_count - k : k;
        if (slot->status[g] != VKMM_SHADER_YIELDED)
            continue;
        /* Strict mode: after the first turn, a subgroup sometimes sits out
         * a turn, as the seed decides, so that subgroups drift a step apart
         * as they do on a GPU (a reader one step behind its writer sees a
         * half-published result).  When every runnable one sat out, the
         * barrier does not open: the next turn runs them. */
        if (run->levels && slot->started && (next_turn_random(&slot->random) & 3) == 0) {
            sat_out = true;
            continue;
        }
        slot->invocation.subgroup_id = g;
        slot->status[g] = (uint8_t)shader->function(slot->scratch + (size_t)g * shader->state_size, &slot->invocation);
        if (slot->status[g] == VKMM_SHADER_ABORTED) {
            slot->unfinished = 0; /* the dispatch is over: nothing of it runs again */
            return false;
        }
        slot->unfinished -= slot->status[g] == VKMM_SHADER_DONE;
        ran = true;
        /* A scheduling point for the Workgroup-storage store buffers too. */
        if (slot->status[g] == VKMM_SHADER_DONE)
            vkmm_workgroup_monitor_subgroup_done(slot->monitor, g);
        else
            vkmm_workgroup_monitor_yield(slot->monitor, g);
        if (!run->levels)
            continue;
        /* A scheduling point: the subgroup's caches may evict (DESIGN §3.3);
         * a finished subgroup's writes move to its workgroup's domain. */
        if (slot->status[g] == VKMM_SHADER_DONE)
            vkmm_dispatch_levels_subgroup_done(run->levels, slot->invocation.workgroup_tag, g);
        else
            vkmm_dispatch_levels_yield(run->levels, slot->invocation.workgroup_tag, g);
        if (slot->status[g] == VKMM_SHADER_AT_BARRIER)
            vkmm_dispatch_levels_wait_at_barrier(run->levels, slot->invocation.workgroup_tag, g);
    }
    /* The first turn runs every subgroup in order: subgroup 0 clears the
     * zero-initialised Workgroup variables before anyone uses them. */
    slot->started = true;
    if (!ran && !sat_out) {
        for (uint32_t g = 0; g < shader->subgroup_count; g++)
            if (slot->status[g] == VKMM_SHADER_AT_BARRIER)
                slot->status[g] = VKMM_SHADER_YIELDED;
        if (slot->monitor)
            vkmm_workgroup_monitor_barrier_open(slot->monitor);
        if (run->monitor)
            vkmm_device_monitor_barrier_open(run->monitor, slot->invocation.workgroup_tag);
        if (run->levels)
            vkmm_dispatch_levels_barrier_open(run->levels, slot->invocation.workgroup_tag);
    }
    return slot->unfinished != 0;
}

/* Fast mode: one workgroup on a pool thread, run to the end. */
static void run_workgroup(void *context, unsigned thread, uint64_t index)
{
    struct dispatch_run *run = context;
    if (atomic_load_explicit(&run->watchdog->over, memory_order_relaxed))
        return;
    struct workgroup_slot slot = { .scratch = run->scratch + thread * run->scratch_stride };
    start_workgroup(run, &slot, index);
    while (step_workgroup(run, &slot))
        ;
}

/* Strict mode (DESIGN §3.3): up to VKMM_RESIDENT_WORKGROUPS workgroups are
 * resident at once, as on a GPU, and take turns at every suspension point
 * (barriers, atomics); a finished one makes room for the next in the seeded
 * order.  So a workgroup that spins on a flag or lock of another resident
 * workgroup lets it run (inter-workgroup barriers, decoupled look-back),
 * and everything stays deterministic on one thread. */
#define VKMM_RESIDENT_WORKGROUPS 16

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* The seeded order of workgroups: seed 0 in index order; other seeds an
 * affine permutation i -> (a*i + seed) mod n with a coprime to n. */
static uint64_t workgroup_order(uint64_t i, uint64_t groups, uint64_t seed)
{
    if (seed == 0 || groups < 2)
        return i;
    uint64_t a = (seed * 2654435761ull) % groups;
    while (a == 0 || gcd(a, groups) != 1)
        a = (a + 1) % groups;
    unsigned __int128 product = (unsigned __int128)a * i + seed;
    return (uint64_t)(product % groups);
}

/* The workgroup that starts `i`-th: the seeded order, or, writers first,
 * that order backwards. */
static uint64_t workgroup_at(const struct dispatch_run *run, uint64_t i, uint64_t groups)
{
    return workgroup_order(run->writers_first ? groups - 1 - i : i, groups, run->seed);
}

/* The workgroups [first, end) of the seeded order (of `groups`) run in
 * turns on `resident` slots. */
static void run_resident(struct dispatch_run *run, struct workgroup_slot *slots, unsigned resident, uint64_t first,
                         uint64_t end, uint64_t groups)
{
    uint64_t next = first;
    unsigned active = 0;
    bool busy[VKMM_RESIDENT_WORKGROUPS] = { false };
    for (unsigned r = 0; r < resident && next < end; r++, next++, active++) {
        start_workgroup(run, &slots[r], workgroup_at(run, next, groups));
        busy[r] = true;
    }
    uint64_t random = (run->seed + 1) * 0xD1B54A32D192ED03ull;
    while (active && !atomic_load(&run->watchdog->over)) {
        if (run->levels)
            vkmm_dispatch_levels_round(run->levels);
        for (unsigned r = 0; r < resident; r++) {
            /* A workgroup sometimes sits out a round (seeded): workgroups
             * started together drift apart. */
            if (run->levels && busy[r] && (next_turn_random(&random) & 3) == 0)
                continue;
            if (!busy[r])
                continue;
            bool unfinished = step_workgroup(run, &slots[r]);
            const char *hopeless = run->monitor ? vkmm_device_monitor_hopeless(run->monitor) : NULL;
            if (!hopeless)
                hopeless = vkmm_workgroup_monitor_hopeless(slots[r].monitor);
            if (hopeless && !atomic_flag_test_and_set(&run->watchdog->claimed)) {
                /* Every running invocation spins on what it can never see:
                 * the dispatch ends now rather than at the watchdog's limit. */
                snprintf(run->watchdog->hopeless, sizeof(run->watchdog->hopeless), "%s", hopeless);
                memcpy(run->watchdog->workgroup, slots[r].invocation.workgroup_id, sizeof(run->watchdog->workgroup));
                atomic_store(&run->watchdog->over, true);
            }
            if (unfinished)
                continue;
            if (run->levels)
                vkmm_dispatch_levels_workgroup_done(run->levels, slots[r].invocation.workgroup_tag);
            if (run->monitor)
                vkmm_device_monitor_workgroup_done(run->monitor, slots[r].invocation.workgroup_tag);
            if (next < end) {
                start_workgroup(run, &slots[r], workgroup_at(run, next++, groups));
            } else {
                busy[r] = false;
                active--;
            }
        }
    }
}

/* Descriptor tables for the shader: the set's own array, or a copy with
 * dynamic offsets applied, or zeroes (null descriptors) for a set the
 * layout has but nothing bound. */
static bool build_tables(struct vkmm_device *device, const struct vkmm_dispatch *d, struct dispatch_run *run,
                         struct vkmm_descriptor **copies)
{
    const struct vkmm_pipeline_layout *layout = d->bindings.pipeline->layout;
    for (uint32_t s = 0; s < layout->set_count && s < VKMM_SHADER_MAX_SETS; s++) {
        const struct vkmm_descriptor_set_layout *expected = layout->sets[s];
        uint32_t needed = expected ? expected->descriptor_count : 0;
        struct vkmm_descriptor_set *set = d->bindings.sets[s];
        if (set && set->descriptor_count >= needed && !set->layout->dynamic_count) {
            run->invocation.sets[s] = set->descriptors;
            continue;
        }
        copies[s] = vkmm_zalloc(&device->allocator, NULL, (needed ? needed : 1) * sizeof(struct vkmm_descriptor),
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
        if (!copies[s])
            return false;
        uint32_t available = set ? (set->descriptor_count < needed ? set->descriptor_count : needed) : 0;
        if (available)
            memcpy(copies[s], set->descriptors, available * sizeof(struct vkmm_descriptor));
        for (uint32_t b = 0; set && b < set->layout->binding_count; b++) {
            const struct vkmm_set_layout_binding *binding = &set->layout->bindings[b];
            if (binding->type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC &&
                binding->type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
                continue;
            for (uint32_t e = 0; e < binding->count && binding->first + e < available; e++) {
                uint32_t dynamic = binding->dynamic_first + e;
                uint32_t offset = dynamic < VKMM_MAX_DYNAMIC_PER_SET ? d->bindings.dynamic_offsets[s][dynamic] : 0;
                struct vkmm_descriptor *descriptor = &copies[s][binding->first + e];
                /* An offset past the buffer was reported at
                 * vkCmdBindDescriptorSets; here it makes the descriptor
                 * reach nothing (reads give zeros, writes are dropped). */
                if (!vkmm_descriptor_apply_dynamic_offset(descriptor, offset))
                    *descriptor = (struct vkmm_descriptor){ 0 };
            }
        }
        run->invocation.sets[s] = copies[s];
    }
    return true;
}

static void read_indirect(struct vkmm_execution *x, const struct vkmm_command *command, uint32_t count[3])
{
    const struct vkmm_dispatch *d = command->u.dispatch;
    if (!d->indirect)
        memcpy(count, d->count, 3 * sizeof(uint32_t));
    else if (x->device->strict)
        vkmm_execution_strict_read(x, command, d->indirect, d->indirect_offset, 12,
                                   VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, count);
    else
        memcpy(count, vkmm_buffer_device_bytes(d->indirect, d->indirect_offset, 12), 12);
}

/* The watchdog ended the dispatch: the device is lost (DESIGN §3.3 "no
 * hangs"; a runaway dispatch ends in device loss as on a GPU), with a
 * message naming the loop. */
static void lose_device(struct vkmm_execution *x, const struct vkmm_command *command, const struct watchdog *w)
{
    struct vkmm_device *device = x->device;
    char text[768];
    if (w->hopeless[0])
        snprintf(text, sizeof(text),
                 "vkCmdDispatch can never finish: %s. Workgroup (%u,%u,%u) was among the spinning ones. The device "
                 "is lost",
                 w->hopeless, w->workgroup[0], w->workgroup[1], w->workgroup[2]);
    else
        snprintf(text, sizeof(text),
                 "vkCmdDispatch did not finish within VKMM_DISPATCH_TIMEOUT_MS: workgroup (%u,%u,%u) was still in %s. "
                 "The device is lost. A loop that waits for a value another invocation writes sees it only through "
                 "an atomic or a coherent (NonPrivatePointer, MakePointerVisible) load at a scope that holds both "
                 "invocations; a private load never sees another invocation's write inside a dispatch",
                 w->workgroup[0], w->workgroup[1], w->workgroup[2], w->loop ? w->loop : "a loop");
    vkmm_device_lose(device, "%s", text);
    if (device->strict) {
        struct vkmm_strict_graph graph;
        struct vkmm_strict_command strict_command;
        vkmm_execution_strict_command(x, command, &graph, &strict_command);
        vkmm_strict_report_lost_dispatch(device->strict, &strict_command, text);
    }
}

/* A dispatch that cannot get the memory to run is not skipped silently:
 * its results would be wrong while the wait reports success.  The device is
 * lost instead (the spec lets out-of-memory during execution end in device
 * loss), and the message says why. */
static void lose_for_memory(struct vkmm_device *device, uint64_t groups)
{
    vkmm_device_lose(device, "no host memory to run a dispatch of %llu workgroups: the device is lost",
                     (unsigned long long)groups);
}

static void free_slots(struct workgroup_slot *slots, unsigned resident)
{
    for (unsigned r = 0; slots && r < resident; r++)
        vkmm_workgroup_monitor_destroy(slots[r].monitor);
    free(slots);
}

/* The resident slots of a run in turns on its scratch, each with a
 * workgroup-memory monitor when the shader has Workgroup storage (its
 * races go to `races`).  NULL: out of memory. */
static struct workgroup_slot *make_slots(const struct dispatch_run *run, unsigned resident,
                                         struct vkmm_workgroup_races *races)
{
    const struct vkmm_compiled_shader *shader = run->shader;
    struct workgroup_slot *slots = calloc(resident, sizeof(*slots));
    for (unsigned r = 0; slots && r < resident; r++) {
        slots[r].scratch = run->scratch + r * run->scratch_stride;
        if (!shader->shared_memory_size || !races)
            continue;
        slots[r].monitor =
            vkmm_workgroup_monitor_create(shader->local_size, shader->subgroup_width, shader->shared_memory_size, races);
        if (!slots[r].monitor) {
            free_slots(slots, r);
            return NULL;
        }
        vkmm_workgroup_monitor_set_seed(slots[r].monitor, run->seed);
    }
    return slots;
}

/* Strict mode: the resident workgroups in turns on this thread; races in
 * Workgroup memory go to `races` (NULL: no strict engine, no workgroup
 * monitors). */
static void run_strict(struct vkmm_device *device, struct dispatch_run *run, unsigned resident, uint64_t groups,
                       struct vkmm_workgroup_races *races)
{
    /* Without workgroup monitors, no `shared` atomic reaches the device
     * monitor: its acquires count every release (happens_before.h). */
    if (!races && run->monitor)
        vkmm_device_monitor_unmonitored_atomics(run->monitor);
    struct workgroup_slot *slots = make_slots(run, resident, races);
    if (slots)
        run_resident(run, slots, resident, 0, groups, groups);
    else
        lose_for_memory(device, groups);
    free_slots(slots, resident);
    if (run->monitor)
        vkmm_device_monitor_end_dispatch(run->monitor);
}

/* --- Strict mode: a dispatch in parts ---------------------------------------- */

/* A part runs this many workgroups at least: a part costs a pool hand-off
 * and a monitor's begin and end (microseconds), a tiled workgroup (SGEMM's
 * 64 x 64 tile) milliseconds in strict mode. */
#define PART_MIN_WORKGROUPS 4

/* One part of a dispatch in parts: a slice of the seeded order, run in
 * turns on one pool thread under a device monitor of its own. */
struct part {
    struct dispatch_run run; /* the dispatch's, with the part's monitor, levels and watchdog */
    struct watchdog watchdog;
    struct vkmm_device_races races; /* a helper's (part 0's go to the mirror) */
    struct vkmm_workgroup_races workgroup_races;
    uint64_t first, end, groups;
    unsigned resident;
    bool failed; /* out of memory */
};

static void run_part(void *context, unsigned thread, uint64_t index)
{
    (void)thread;
    struct part *p = &((struct part *)context)[index];
    struct workgroup_slot *slots = make_slots(&p->run, p->resident, &p->workgroup_races);
    if (slots)
        run_resident(&p->run, slots, p->resident, p->first, p->end, p->groups);
    p->failed = !slots;
    vkmm_device_monitor_end_dispatch(p->run.monitor);
    free_slots(slots, p->resident);
}

/* Writes the module makes that no monitor sees (storage images and texel
 * buffers): parts could not tell whether they raced. */
static bool writes_unmonitored(const struct vkmm_pipeline_layout *layout)
{
    for (uint32_t s = 0; s < layout->set_count; s++) {
        const struct vkmm_descriptor_set_layout *set = layout->sets[s];
        for (uint32_t b = 0; set && b < set->binding_count; b++)
            if (set->bindings[b].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                set->bindings[b].type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
                return true;
    }
    return false;
}

/* How many parts the dispatch runs in: one per pool thread, each of
 * PART_MIN_WORKGROUPS workgroups or more; 0 when it runs in turns on one
 * thread (a module with atomics on memory other than Workgroup storage:
 * its workgroups may synchronize, and only the one seeded schedule makes
 * that deterministic; VKMM_STRICT_PARTS=0).  Atomics on Workgroup storage
 * synchronize invocations of one workgroup only. */
static unsigned part_count(struct vkmm_device *device, const struct vkmm_pipeline *pipeline, uint64_t groups)
{
    uint64_t parts = groups / PART_MIN_WORKGROUPS;
    if (parts < 2 || !device->strict_parts || pipeline->device_atomics || writes_unmonitored(pipeline->layout))
        return 0; /* the cheap tests first: most dispatches are small */
    struct vkmm_thread_pool *pool = vkmm_device_thread_pool(device);
    uint64_t threads = pool ? vkmm_thread_pool_size(pool) : 1;
    parts = parts < threads ? parts : threads;
    parts = parts < VKMM_STRICT_MAX_HELPERS + 1 ? parts : VKMM_STRICT_MAX_HELPERS + 1;
    return parts >= 2 ? (unsigned)parts : 0;
}

static bool prepare_parts(struct vkmm_dispatch_mirror *mirror, const struct dispatch_run *run, struct part *parts,
                          unsigned count, uint64_t groups, uint8_t *scratch)
{
    for (unsigned i = 0; i < count; i++) {
        struct part *p = &parts[i];
        p->run = *run;
        p->watchdog.deadline_ns = run->watchdog->deadline_ns;
        atomic_flag_clear(&p->watchdog.claimed);
        p->run.watchdog = &p->watchdog;
        p->run.invocation.poll_context = &p->watchdog;
        p->groups = groups;
        p->first = groups * i / count;
        p->end = groups * (i + 1) / count;
        p->resident = (unsigned)(p->end - p->first < VKMM_RESIDENT_WORKGROUPS ? p->end - p->first
                                                                              : VKMM_RESIDENT_WORKGROUPS);
        p->run.scratch = scratch + (size_t)i * VKMM_RESIDENT_WORKGROUPS * run->scratch_stride;
        if (i > 0) { /* part 0 keeps the device monitor the mirror began */
            struct vkmm_device_monitor *helper = vkmm_strict_dispatch_helper(mirror, i - 1, &p->races);
            if (!helper)
                return false;
            p->run.monitor = helper;
            p->run.levels = vkmm_device_monitor_levels(helper);
            p->run.invocation.device_monitor = helper;
        }
        p->watchdog.part_monitor = p->run.monitor;
    }
    return true;
}

/* Did every part run to its end with nothing to show?  A part that ran
 * past the time limit ends the dispatch (*timed_out, named in the
 * dispatch's watchdog). */
static bool parts_quiet(struct part *parts, unsigned count, struct watchdog *watchdog, bool *timed_out)
{
    bool quiet = true;
    for (unsigned i = 0; i < count; i++) {
        struct part *p = &parts[i];
        if (atomic_load(&p->watchdog.over) && !p->watchdog.hopeless[0] && !p->watchdog.gave_up && !*timed_out) {
            *timed_out = true;
            watchdog->loop = p->watchdog.loop;
            memcpy(watchdog->workgroup, p->watchdog.workgroup, sizeof(watchdog->workgroup));
            atomic_flag_test_and_set(&watchdog->claimed);
            atomic_store(&watchdog->over, true);
        }
        quiet &= !p->failed && !atomic_load(&p->watchdog.over) && !p->workgroup_races.count &&
                 !p->workgroup_races.more && !p->workgroup_races.has_narrow_read &&
                 !vkmm_device_monitor_eventful(p->run.monitor);
    }
    return quiet;
}

/* Strict mode, a dispatch whose workgroups cannot synchronize (a module
 * without atomics on device memory; docs/memory-model.md "A dispatch in
 * parts"): its seeded order is cut into parts that run at once on the
 * pool's threads, each in turns under a monitor of its own.  In such a
 * module any two
 * accesses of different workgroups to one byte, one a write, are a race;
 * when no part recorded anything and no two parts touched bytes one of them
 * wrote, the dispatch had no race, and a race-free dispatch has one
 * outcome whatever the schedule (DESIGN §3: a correct program is always
 * right) — the parts' bytes are the dispatch's.  Otherwise what they wrote
 * is undone and the dispatch runs in turns on one thread, where its races
 * manifest and are reported as the seed decides.  Returns false then. */
static bool run_in_parts(struct vkmm_device *device, struct vkmm_dispatch_mirror *mirror, struct dispatch_run *run,
                         uint64_t groups)
{
    unsigned count = part_count(device, run->pipeline, groups);
    if (!count)
        return false;
    struct part *parts = calloc(count, sizeof(*parts));
    uint8_t *scratch = aligned_alloc(64, (size_t)count * VKMM_RESIDENT_WORKGROUPS * run->scratch_stride);
    bool ran = parts && scratch && prepare_parts(mirror, run, parts, count, groups, scratch);
    bool stands = false, timed_out = false;
    if (ran) {
        vkmm_thread_pool_run(vkmm_device_thread_pool(device), count, run_part, parts);
        stands = parts_quiet(parts, count, run->watchdog, &timed_out) && vkmm_strict_dispatch_join(mirror, count - 1);
    }
    if (ran && !stands)
        vkmm_strict_dispatch_restart(mirror, count - 1);
    if (ran && !timed_out)
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
                 stands ? "VKMM-STRICT-PARTS" : "VKMM-STRICT-PARTS-AGAIN",
                 stands ? "vkCmdDispatch of %llu workgroups ran in %u parts on the device's threads: no part touched "
                          "bytes another wrote, none found a race"
                        : "vkCmdDispatch of %llu workgroups ran in %u parts, then again in turns on one thread: its "
                          "workgroups raced or waited for one another (or a part ran out of memory), and a race "
                          "manifests only in the one seeded schedule",
                 (unsigned long long)groups, count);
    free(scratch);
    free(parts);
    /* A part past the time limit ends the dispatch: the device is lost. */
    return stands || timed_out;
}

static uint32_t count_descriptors(const struct vkmm_pipeline_layout *layout)
{
    uint32_t count = 0;
    for (uint32_t s = 0; s < layout->set_count; s++)
        count += layout->sets[s] ? layout->sets[s]->descriptor_count : 0;
    return count;
}

static bool is_storage(VkDescriptorType type)
{
    return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

/* The access a shader's reads through a descriptor of (API) type `type`
 * are: uniform texel buffers and sampled images are read as
 * SHADER_SAMPLED_READ (which SHADER_READ holds), uniform buffers as
 * UNIFORM_READ (which it does not), the rest as SHADER_STORAGE_READ. */
static VkAccessFlags2 read_access_of(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
        return VK_ACCESS_2_UNIFORM_READ_BIT;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        return VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    default:
        return VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    }
}

static bool is_buffer(VkDescriptorType type)
{
    return is_storage(type) || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
           type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

/* Strict mode: the bridge is told the dispatch's grid and every buffer
 * range bound to it (and, with buffer references, every memory with device
 * addresses), and makes the device bytes hold what the shader's read paths
 * see (strict/strict.h). */
static struct vkmm_dispatch_mirror *strict_begin(struct vkmm_execution *x, const struct vkmm_strict_command *command,
                                                 const struct vkmm_pipeline *pipeline, struct dispatch_run *run)
{
    struct vkmm_pipeline_layout_view view;
    const struct vkmm_pipeline_layout *layout = vkmm_pipeline_layout_memory_view(pipeline->layout, &view);
    struct vkmm_strict_grid grid;
    memcpy(grid.base, run->base, sizeof(grid.base));
    memcpy(grid.count, run->count, sizeof(grid.count));
    memcpy(grid.local_size, pipeline->shader.local_size, sizeof(grid.local_size));
    grid.subgroup_width = pipeline->shader.subgroup_width;
    struct vkmm_dispatch_mirror *mirror =
        vkmm_strict_dispatch_begin(x->device->strict, command, &grid, count_descriptors(layout),
                                   pipeline->shader.uses_buffer_references,
                                   !pipeline->has_atomics           ? VKMM_STRICT_NO_ATOMICS
                                   : pipeline->unmonitored_atomics ? VKMM_STRICT_UNMONITORED_ATOMICS
                                                                   : VKMM_STRICT_MONITORED_ATOMICS,
                                   &run->invocation);
    for (uint32_t s = 0; mirror && s < layout->set_count && s < VKMM_SHADER_MAX_SETS; s++) {
        const struct vkmm_descriptor_set_layout *set = layout->sets[s];
        const struct vkmm_descriptor *table = run->invocation.sets[s];
        for (uint32_t b = 0; set && table && b < set->binding_count; b++) {
            const struct vkmm_set_layout_binding *binding = &set->bindings[b];
            /* The memory view's binding types are buffer types; the API's
             * say how the shader reads. */
            VkAccessFlags2 read_access = read_access_of(pipeline->layout->sets[s]->bindings[b].type);
            bool read = !vkmm_pipeline_never_reads(pipeline, s, binding->binding);
            for (uint32_t e = 0; is_buffer(binding->type) && e < binding->count; e++) {
                const struct vkmm_descriptor *descriptor = &table[binding->first + e];
                if (descriptor->base && descriptor->memory && descriptor->memory->strict)
                    vkmm_strict_dispatch_range(mirror, descriptor->memory->strict, descriptor->memory_offset,
                                               descriptor->range, read_access, read);
            }
        }
    }
    if (mirror && pipeline->shader.uses_buffer_references)
        vkmm_strict_dispatch_addressable(mirror);
    return mirror;
}

/* DESIGN §3 "Manifest" for anti-dependencies (device_monitor.h): a racing
 * read of an in-place update (`a[i] = a[i + 1] + 1`) sees the newer bytes
 * where its writer ran first, but the seeded order ran every such read
 * first and no read saw a newer value — so the dispatch's answer is the
 * one its author meant.  Then it runs again (its bytes made again what the
 * read path gave) with the orders reversed: workgroups last to first, the
 * subgroups of each from the last (subgroup 0 still first, as it clears
 * zero-initialised variables).  Not after a lost device or the watchdog. */
static bool runs_writers_first(const struct dispatch_run *run, const struct vkmm_workgroup_races *races)
{
    if (!run->monitor || run->writers_first || vkmm_device_monitor_lost(run->monitor) ||
        atomic_load(&run->watchdog->over))
        return false;
    bool read_first, seen_newer;
    vkmm_device_monitor_anti_dependency(run->monitor, &read_first, &seen_newer);
    read_first |= races && races->updates_read_first;
    seen_newer |= races && races->updates_seen_newer;
    return read_first && !seen_newer;
}

/* Strict mode: the resident workgroups run in turns on this thread, under
 * the bridge's monitors (the shader runs on device bytes that hold what its
 * read paths see; what it changes becomes its writes). */
static void run_in_turns(struct vkmm_execution *x, const struct vkmm_command *command, struct dispatch_run *run,
                         unsigned threads, uint64_t groups)
{
    struct vkmm_device *device = x->device;
    struct vkmm_strict_graph graph;
    struct vkmm_strict_command strict_command;
    struct vkmm_dispatch_mirror *mirror = NULL;
    if (device->strict) {
        vkmm_execution_strict_command(x, command, &graph, &strict_command);
        mirror = strict_begin(x, &strict_command, command->u.dispatch->bindings.pipeline, run);
        if (!mirror) {
            lose_for_memory(device, groups); /* without it the shader's hooks are not set */
            return;
        }
        struct vkmm_device_monitor *monitor = vkmm_strict_device_monitor(device->strict);
        run->levels = vkmm_device_monitor_levels(monitor);
        run->monitor = monitor;
        run->watchdog->monitor = monitor;
        if (run_in_parts(device, mirror, run, groups)) {
            vkmm_strict_dispatch_finish(mirror);
            return;
        }
    }
    struct vkmm_workgroup_races *races = device->strict ? calloc(1, sizeof(*races)) : NULL;
    if (device->strict && !races) {
        lose_for_memory(device, groups);
        vkmm_strict_dispatch_finish(mirror);
        return;
    }
    run_strict(device, run, threads, groups, races);
    if (mirror && runs_writers_first(run, races)) {
        vkmm_strict_dispatch_restart(mirror, 0);
        memset(races, 0, sizeof(*races));
        run->writers_first = true;
        run_strict(device, run, threads, groups, races);
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT, "VKMM-STRICT-WRITERS-FIRST",
                 "vkCmdDispatch of %llu workgroups ran again with its workgroups and subgroups in reverse order: "
                 "an in-place update's read raced with another invocation's later write and read the old value",
                 (unsigned long long)groups);
    }
    if (races && (races->count || races->has_narrow_read))
        vkmm_strict_report_workgroup_races(device->strict, &strict_command, races);
    free(races);
    if (run->monitor && vkmm_device_monitor_lost(run->monitor))
        lose_for_memory(device, groups);
    if (mirror)
        vkmm_strict_dispatch_finish(mirror);
}

void vkmm_dispatch_execute(struct vkmm_execution *x, const struct vkmm_command *command)
{
    const struct vkmm_dispatch *d = command->u.dispatch;
    struct vkmm_device *device = x->device;
    const struct vkmm_pipeline *pipeline = d->bindings.pipeline;
    struct watchdog watchdog = { .claimed = ATOMIC_FLAG_INIT };
    struct dispatch_run run = { .pipeline = pipeline, .shader = &pipeline->shader, .watchdog = &watchdog };
    read_indirect(x, command, run.count);
    if (run.count[0] > VKMM_MAX_WORKGROUP_COUNT || run.count[1] > VKMM_MAX_WORKGROUP_COUNT ||
        run.count[2] > VKMM_MAX_WORKGROUP_COUNT) {
        /* VUID-VkDispatchIndirectCommand-x-00417 (and y, z).  Often the
         * arguments were read stale: strict mode reports that read. */
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VUID-VkDispatchIndirectCommand-x-00417",
                 "vkCmdDispatchIndirect read group counts (%u, %u, %u), beyond maxComputeWorkGroupCount (%u): "
                 "the dispatch was skipped", run.count[0], run.count[1], run.count[2], VKMM_MAX_WORKGROUP_COUNT);
        return;
    }
    memcpy(run.base, d->base, sizeof(run.base));
    uint64_t groups = (uint64_t)run.count[0] * run.count[1] * run.count[2];
    if (groups == 0)
        return;
    if (pipeline->shader.subgroup_count > MAX_SUBGROUPS || pipeline->shader.subgroup_count == 0) {
        /* Cannot happen for a compiled or verified cached pipeline; kept so
         * that no metadata can overrun the status array. */
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-INTERNAL",
                 "pipeline claims %u subgroups per workgroup (at most %d): the dispatch was skipped",
                 pipeline->shader.subgroup_count, MAX_SUBGROUPS);
        return;
    }
    /* Strict mode runs resident workgroups in turns on the thread that runs
     * the submission: deterministic (DESIGN §1). */
    struct vkmm_thread_pool *pool = vkmm_mode() == VKMM_MODE_STRICT ? NULL : vkmm_device_thread_pool(device);
    unsigned threads = pool ? vkmm_thread_pool_size(pool)
                            : (unsigned)(groups < VKMM_RESIDENT_WORKGROUPS ? groups : VKMM_RESIDENT_WORKGROUPS);
    run.patterned = device->strict != NULL;
    run.seed = vkmm_seed();
    run.states_size = ((size_t)pipeline->shader.subgroup_count * pipeline->shader.state_size + 63) & ~(size_t)63;
    run.scratch_stride = (run.states_size + pipeline->shader.shared_memory_size + 127) & ~(size_t)63;
    struct vkmm_descriptor *copies[VKMM_SHADER_MAX_SETS] = { 0 };
    run.scratch = aligned_alloc(64, run.scratch_stride * threads);
    /* The pattern does not depend on the workgroup: every workgroup copies
     * it rather than computing it again. */
    run.pattern = run.patterned ? malloc(run.scratch_stride) : NULL;
    if (run.pattern)
        fill_pattern(run.pattern, run.states_size + pipeline->shader.shared_memory_size, run.seed);
    run.invocation.push_constants = d->bindings.push_constants;
    watchdog.deadline_ns = dispatch_deadline(device);
    run.invocation.poll_context = &watchdog;
    run.invocation.poll = poll_watchdog;
    run.invocation.texel_decode = vkmm_texels_decode;
    run.invocation.texel_encode = vkmm_texels_encode;
    run.invocation.device_memory_base = (uint64_t)(uintptr_t)device->address_space.base;
    run.invocation.device_memory_end = run.invocation.device_memory_base + device->address_space.size;
    for (int i = 0; i < 3; i++)
        run.invocation.num_workgroups[i] = run.count[i];
    if (!run.scratch || !build_tables(device, d, &run, copies)) {
        lose_for_memory(device, groups);
    } else if (pool) {
        vkmm_thread_pool_run(pool, groups, run_workgroup, &run);
    } else {
        run_in_turns(x, command, &run, threads, groups);
    }
    if (atomic_load(&watchdog.over))
        lose_device(x, command, &watchdog);
    for (int s = 0; s < VKMM_SHADER_MAX_SETS; s++)
        vkmm_free(&device->allocator, NULL, copies[s]);
    free(run.scratch);
    free(run.pattern);
}
