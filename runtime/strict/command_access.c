/* Commands' accesses and dependencies (strict.h): whole-command reads and
 * writes through their (stage, access) paths, barriers, semaphore and fence
 * signals and waits as the engine's dependencies, and the check of every
 * command access against the commands that ran out of submission order.
 *
 * Strict mode runs commands out of submission order when nothing orders
 * them: submissions of different queues, and commands of one submission
 * (command_graph.c).  The coherent view follows execution order, so a
 * consumer that overtook its producer reads "fresh" bytes as far as the
 * engine can tell; the access records catch it: every command access since
 * the device was last idle, checked against later accesses of commands
 * that come earlier in submission order but ran later (004: with no
 * dependency chain between them the application must not let them touch
 * the same bytes unless both read). */
#include <string.h>

#include "alloc.h"
#include "bridge.h"
#include "log.h"

/* --- Commands run out of submission order -------------------------------------- */

static bool later_in_submission_order(const struct vkmm_strict_access *a, const struct vkmm_strict_access *b)
{
    if (a->agent.submission != b->agent.submission)
        return a->agent.submission > b->agent.submission;
    return a->agent.position > b->agent.position;
}

/* The host touched mapped bytes (host_trap.h) that a submission it had not
 * waited for writes (or reads, for a host write). */
static void report_host_overtaken(struct vkmm_strict *strict, const struct vkmm_strict_access *host,
                                  const struct vkmm_strict_access *command, struct vkmm_mm_hazard *hazard)
{
    unsigned long long submission = (unsigned long long)command->agent.submission;
    if (!host->write) {
        hazard->id = VKMM_MM_HAZARD_HOST_STALE_READ;
        vkmm_print_cut(hazard->missing, sizeof(hazard->missing),
                       "a wait for submission %llu (vkWaitForFences, vkQueueWaitIdle or a semaphore wait) before the "
                       "host read the mapped memory, then a HOST_READ dependency (and vkInvalidateMappedMemoryRanges "
                       "for non-coherent memory): the host read it while %s had not run",
                       submission, command->agent.kind);
    } else {
        hazard->id = command->write ? VKMM_MM_HAZARD_WRITE_AFTER_WRITE : VKMM_MM_HAZARD_WRITE_AFTER_READ;
        vkmm_print_cut(hazard->missing, sizeof(hazard->missing),
                       "a wait for submission %llu (vkWaitForFences, vkQueueWaitIdle or a semaphore wait) before the "
                       "host wrote the mapped memory that %s %s: the host wrote it while the work was pending",
                       submission, command->agent.kind, command->write ? "writes" : "reads");
    }
    vkmm_strict_report(strict, hazard);
}

static void report_overtaken(struct vkmm_strict *strict, const struct vkmm_strict_access *earlier_run,
                             const struct vkmm_strict_access *now)
{
    uint64_t begin = earlier_run->offset > now->offset ? earlier_run->offset : now->offset;
    uint64_t end_a = earlier_run->offset + earlier_run->size, end_b = now->offset + now->size;
    struct vkmm_mm_hazard hazard = {
        .memory_id = now->memory_id,
        .offset = begin,
        .size = (end_a < end_b ? end_a : end_b) - begin,
        .writer_or_first = now->agent,
        .reader_or_second = earlier_run->agent,
    };
    if (now->write && !earlier_run->write)
        hazard.id = VKMM_MM_HAZARD_STALE_READ;
    else if (!now->write)
        hazard.id = VKMM_MM_HAZARD_WRITE_AFTER_READ;
    else
        hazard.id = VKMM_MM_HAZARD_WRITE_AFTER_WRITE;
    if (earlier_run->agent.queue == VKMM_MM_HOST_QUEUE) {
        report_host_overtaken(strict, earlier_run, now, &hazard);
        return;
    }
    /* The dependency that was missing: from the command first in
     * submission order to the later one; a write-after-read needs only its
     * execution half (no access masks). */
    char src_stage[128], src_access[128], dst_stage[128], dst_access[128];
    vkmm_mm_stage_names(src_stage, sizeof(src_stage), now->stage);
    vkmm_mm_stage_names(dst_stage, sizeof(dst_stage), earlier_run->stage);
    vkmm_mm_access_names(src_access, sizeof(src_access), now->write ? now->access : 0);
    vkmm_mm_access_names(dst_access, sizeof(dst_access), now->write ? earlier_run->access : 0);
    const char *first = now->agent.kind, *second = earlier_run->agent.kind;
    if (now->agent.queue == earlier_run->agent.queue) {
        /* A barrier's first scope reaches into earlier submissions of its
         * queue, so a barrier (or event) is the fix across submissions too. */
        vkmm_print_cut(hazard.missing, sizeof(hazard.missing),
                       "a barrier with srcStageMask ⊇ %s, srcAccessMask ⊇ %s, dstStageMask ⊇ %s, dstAccessMask ⊇ %s "
                       "(or an event) ordering %s before the later %s: none did, and the later one ran first",
                       src_stage, src_access, dst_stage, dst_access, first, second);
    } else {
        vkmm_print_cut(hazard.missing, sizeof(hazard.missing),
                       "a semaphore signalled after %s (queue %u, signal stageMask ⊇ %s) and waited for before %s "
                       "(queue %u, wait stageMask ⊇ %s): none did, and the later one ran first",
                       first, now->agent.queue, src_stage, second, earlier_run->agent.queue, dst_stage);
    }
    vkmm_strict_report(strict, &hazard);
}

static uint32_t add_race(struct vkmm_strict_race *races, uint32_t count, uint64_t begin, uint64_t end)
{
    if (count == VKMM_STRICT_MAX_RACES) {
        /* Out of room: the hull, which can only show more racing bytes. */
        races[count - 1].begin = begin < races[count - 1].begin ? begin : races[count - 1].begin;
        races[count - 1].end = end > races[count - 1].end ? end : races[count - 1].end;
        return count;
    }
    races[count] = (struct vkmm_strict_race){ begin, end };
    return count + 1;
}

static void sort_races(struct vkmm_strict_race *races, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++) {
        struct vkmm_strict_race x = races[i];
        uint32_t j = i;
        for (; j > 0 && races[j - 1].begin > x.begin; j--)
            races[j] = races[j - 1];
        races[j] = x;
    }
}

/* Whether `w` and `reader` are in `graph` (both submitted since it began). */
static bool both_in_graph(const struct vkmm_strict_graph *graph, const struct vkmm_strict_access *w,
                          const struct vkmm_strict_access *reader)
{
    return graph && w->agent.queue == reader->agent.queue && w->agent.submission >= graph->first_sequence &&
           reader->agent.submission >= graph->first_sequence;
}

/* A write of a command that a conflicting later one overtook, and that
 * nothing orders before `reader` (of the same queue's graph): a read of its
 * bytes races with it.  The program expected the overtaking command's
 * bytes; strict mode shows the overtaken one's (DESIGN §3 "Manifest"),
 * without a second report — the overtaking is the mistake, reported once. */
static bool racing_overtaken_write(const struct vkmm_strict_access *w, const struct vkmm_strict_access *reader,
                                   const struct vkmm_strict_graph *graph)
{
    if (!w->overtaken || !w->write || !both_in_graph(graph, w, reader))
        return false;
    return !graph->reaches(graph->graph, w->agent.position, reader->agent.position);
}

/* Whether a command between `earlier` and the overtaking access `r` in
 * submission order, ordered after `earlier` and not run yet, may write
 * r's memory: then r overtakes that command too, and its report — naming
 * the dependency that orders both before r — is the one for this mistake
 * (one report per bug). */
static bool overtaken_again_later(const struct vkmm_strict *strict, const struct vkmm_strict_graph *graph,
                                  const struct vkmm_strict_access *earlier, const struct vkmm_strict_access *r)
{
    const struct vkmm_strict_memory *memory = vkmm_strict_memory_with_id(strict, earlier->memory_id);
    if (!memory || !both_in_graph(graph, earlier, r))
        return false;
    return graph->pending_writer_between(graph->graph, earlier->agent.position, r->agent.position, memory);
}

/* Keeps `now` among the accesses since idle (out of host memory: fewer
 * reports, never a wrong result). */
static void keep_access(struct vkmm_strict *strict, const struct vkmm_strict_access *now,
                        const struct vkmm_strict_access *latest)
{
    if (strict->access_count == strict->access_capacity) {
        uint32_t capacity = strict->access_capacity ? strict->access_capacity * 2 : 64;
        struct vkmm_strict_access *grown = vkmm_zalloc(strict->allocator, NULL, capacity * sizeof(*grown),
                                                       VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
        if (!grown)
            return;
        if (strict->access_count)
            memcpy(grown, strict->accesses, strict->access_count * sizeof(*grown));
        vkmm_free(strict->allocator, NULL, strict->accesses);
        strict->accesses = grown;
        strict->access_capacity = capacity;
    }
    strict->accesses[strict->access_count++] = *now;
    strict->access_overtaken += now->overtaken && now->write;
    if (strict->access_count == 1 || later_in_submission_order(now, latest)) {
        strict->access_latest_submission = now->agent.submission;
        strict->access_latest_position = now->agent.position;
    }
}

uint32_t vkmm_strict_check_access(struct vkmm_strict *strict, const struct vkmm_strict_access *access,
                                  struct vkmm_strict_race *races, bool record, const struct vkmm_strict_graph *graph)
{
    struct vkmm_strict_access now = *access;
    uint64_t offset = now.offset, size = now.size;
    uint32_t race_count = 0;
    /* In-order execution, the common case: no recorded access comes later
     * in submission order than this one, so none was overtaken. */
    struct vkmm_strict_access latest = { .agent = { .submission = strict->access_latest_submission,
                                                    .position = (uint32_t)strict->access_latest_position } };
    bool any_overtaken = strict->access_overtaken && !now.write && races;
    uint32_t scan = later_in_submission_order(&latest, &now) || any_overtaken ? strict->access_count : 0;
    for (uint32_t i = 0; i < scan; i++) {
        const struct vkmm_strict_access *r = &strict->accesses[i];
        if (r->memory_id != now.memory_id || (!r->write && !now.write))
            continue;
        if (r->offset >= offset + size || offset >= r->offset + r->size)
            continue;
        bool overtook = later_in_submission_order(r, &now);
        if (!overtook && !(any_overtaken && racing_overtaken_write(r, &now, graph)))
            continue;
        now.overtaken |= overtook;
        if (record && overtook && !overtaken_again_later(strict, graph, &now, r))
            report_overtaken(strict, r, &now);
        if (!now.write && races) {
            uint64_t begin = r->offset > offset ? r->offset : offset;
            uint64_t end = r->offset + r->size < offset + size ? r->offset + r->size : offset + size;
            race_count = add_race(races, race_count, begin, end);
        }
    }
    sort_races(races, race_count);
    if (record)
        keep_access(strict, &now, &latest);
    return race_count;
}

/* A command's read into `out`: the bytes a later command already
 * overwrote show that write (the adversarial value of a write-after-read
 * race; the race is reported), the others come through the read path.
 * Unchecked (a peek: what a command about to run may read), it is neither
 * recorded nor reported: the accesses it really makes are known only after
 * it ran. */
static void command_read(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                         struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint8_t *out, bool checked,
                         uint64_t *suspect)
{
    struct vkmm_strict_race races[VKMM_STRICT_MAX_RACES];
    struct vkmm_strict_access read = { memory->id, offset, size, false, stage, access, command->agent, false };
    uint32_t count = vkmm_strict_check_access(strict, &read, races, checked, command->graph);
    uint64_t at = offset, end = offset + size;
    for (uint32_t i = 0; i <= count && at < end; i++) {
        uint64_t gap_end = i < count ? races[i].begin : end;
        if (gap_end > at && checked)
            vkmm_mm_read(strict->engine, memory->mm, at, gap_end - at, stage, access, &command->agent,
                         out + (at - offset));
        else if (gap_end > at)
            vkmm_mm_peek_marking(strict->engine, memory->mm, at, gap_end - at, stage, access, out + (at - offset),
                                 suspect, offset);
        if (i == count)
            break;
        uint64_t race_begin = races[i].begin > at ? races[i].begin : at;
        if (races[i].end > race_begin)
            vkmm_mm_read_racing(strict->engine, memory->mm, race_begin, races[i].end - race_begin,
                                out + (race_begin - offset));
        at = races[i].end > at ? races[i].end : at;
    }
}

void vkmm_strict_command_read(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                              struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                              VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint8_t *out, bool checked)
{
    command_read(strict, command, memory, offset, size, stage, access, out, checked, NULL);
}

void vkmm_strict_command_peek_marking(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                                      struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                                      VkPipelineStageFlags2 stage, VkAccessFlags2 access, uint8_t *out,
                                      uint64_t *suspect)
{
    command_read(strict, command, memory, offset, size, stage, access, out, false, suspect);
}

bool vkmm_strict_overtaken_writer(const struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard)
{
    struct vkmm_strict_access reader = { .memory_id = hazard->memory_id, .agent = hazard->reader_or_second };
    for (uint32_t i = 0; i < strict->access_count; i++) {
        const struct vkmm_strict_access *w = &strict->accesses[i];
        if (w->write && w->memory_id == hazard->memory_id && w->offset < hazard->offset + hazard->size &&
            hazard->offset < w->offset + w->size && later_in_submission_order(&reader, w))
            return true;
    }
    return false;
}

/* --- Transfers ----------------------------------------------------------------- */

void vkmm_strict_read(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                      struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size, VkPipelineStageFlags2 stage,
                      VkAccessFlags2 access, void *out)
{
    vkmm_strict_lock_device(strict);
    vkmm_strict_command_read(strict, command, memory, offset, size, stage, access, out, true);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_write(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                       struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size, VkPipelineStageFlags2 stage,
                       VkAccessFlags2 access, const void *data)
{
    vkmm_strict_lock_device(strict);
    struct vkmm_strict_access write = { memory->id, offset, size, true, stage, access, command->agent, false };
    vkmm_strict_check_access(strict, &write, NULL, true, command->graph);
    vkmm_mm_write(strict->engine, memory->mm, offset, size, stage, access, &command->agent, data);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_discard(struct vkmm_strict *strict, const struct vkmm_strict_command *command,
                         struct vkmm_strict_memory *memory, uint64_t offset, uint64_t size,
                         VkPipelineStageFlags2 dst_stages, VkAccessFlags2 dst_access)
{
    vkmm_strict_lock_device(strict);
    vkmm_mm_discard(strict->engine, memory->mm, offset, size, &command->agent, dst_stages, dst_access);
    vkmm_strict_unlock(strict);
}

/* --- Dependencies -------------------------------------------------------------- */

static bool writer_in_scope(void *user, const struct vkmm_mm_agent *writer)
{
    const struct vkmm_strict_scope *scope = user;
    if (scope->queue == VKMM_STRICT_ANY_QUEUE)
        return true;
    if (writer->queue != scope->queue)
        return false;
    if (!scope->graph || writer->submission < scope->graph->first_sequence)
        return true;
    return scope->graph->reaches(scope->graph->graph, writer->position, scope->node);
}

/* Lock held. */
static void scoped_dependency(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope,
                              struct vkmm_mm_dependency *d)
{
    if (scope && scope->queue != VKMM_STRICT_ANY_QUEUE) {
        d->writers = writer_in_scope;
        d->writers_user = (void *)scope;
    }
    vkmm_mm_dependency(strict->engine, d);
}

/* Only the writes of the scope's own command. */
static bool writer_is_command(void *user, const struct vkmm_mm_agent *writer)
{
    const struct vkmm_strict_scope *scope = user;
    return writer->queue == scope->queue && scope->graph && writer->submission >= scope->graph->first_sequence &&
           writer->position == scope->node;
}

void vkmm_strict_evict(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope)
{
    struct vkmm_mm_dependency d = { .src_stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                    .src_access = VK_ACCESS_2_MEMORY_WRITE_BIT,
                                    .writers = writer_is_command,
                                    .writers_user = (void *)scope };
    vkmm_strict_lock_device(strict);
    vkmm_mm_dependency(strict->engine, &d);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_barrier(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope,
                         const struct vkmm_strict_barrier *b)
{
    struct vkmm_mm_dependency d = { b->src_stages, b->dst_stages, b->src_access, b->dst_access,
                                    b->memory ? b->memory->mm : NULL, b->offset, b->size, NULL, NULL };
    vkmm_strict_lock_device(strict);
    scoped_dependency(strict, scope, &d);
    vkmm_strict_unlock(strict);
}

/* The stages whose accesses a semaphore operation's access scope holds.
 * "The first access scope includes all memory access performed by the
 * device" (signal; the second, for a wait): every access of the operations
 * in its synchronization scope.  There BOTTOM_OF_PIPE (first scope) and
 * TOP_OF_PIPE (second scope) are "equivalent to ALL_COMMANDS" — the engine
 * gives them no access scope, as it must for a barrier, so they are made
 * ALL_COMMANDS here (the CTS's multi-queue tests signal BOTTOM and wait
 * TOP).  A fence signal covers every stage. */
static VkPipelineStageFlags2 semaphore_access_stages(VkPipelineStageFlags2 stages, bool second_scope)
{
    VkPipelineStageFlags2 all = second_scope ? VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT;
    return stages & all ? stages | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : stages;
}

void vkmm_strict_signal(struct vkmm_strict *strict, const struct vkmm_strict_scope *scope,
                        VkPipelineStageFlags2 stages)
{
    struct vkmm_mm_dependency d = { semaphore_access_stages(stages, false), 0, VK_ACCESS_2_MEMORY_WRITE_BIT, 0, NULL,
                                    0, 0, NULL, NULL };
    vkmm_strict_lock_device(strict);
    scoped_dependency(strict, scope, &d);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_wait(struct vkmm_strict *strict, VkPipelineStageFlags2 stages)
{
    struct vkmm_mm_dependency d = { 0, semaphore_access_stages(stages, true), 0,
                                    VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT, NULL, 0, 0, NULL, NULL };
    vkmm_strict_lock_device(strict);
    vkmm_mm_dependency(strict->engine, &d);
    vkmm_strict_unlock(strict);
}

void vkmm_strict_wait_idle(struct vkmm_strict *strict, uint32_t queue)
{
    struct vkmm_strict_scope scope = { NULL, 0, queue };
    vkmm_strict_signal(strict, &scope, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    vkmm_strict_host_wait(strict);
}
