/* libFuzzer target: API sequences over command recording and submission.
 * The input's bytes decode into operations on a small pool of objects —
 * buffers and memory (create, bind, destroy, map, write, flush, unmap),
 * command buffers (begin, record fills, copies, updates, dispatches of two
 * fixed shaders, barriers with random valid masks, event set/reset/wait,
 * end, reset), submissions to three queues with fences, binary and
 * timeline semaphores, host waits with small timeouts, idle waits.  The
 * decoder tracks every object's state and skips an operation the spec
 * would forbid (submitting a command buffer that is not executable or is
 * pending, destroying what a pending submission uses, waiting on a binary
 * semaphore nothing signals), so every call is valid Vulkan.
 *
 * What must hold: the process survives, every call returns a result the
 * spec allows, the results agree with the state (an unsignaled fence is
 * not ready, an idle queue has finished its submissions, a host-set event
 * reads as set), and after each input's objects are destroyed the device
 * holds no more allocations than before.  The mode is the process's
 * (VKMM_MODE): scripts/run-fuzz.sh runs both. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_vk.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { BUFFERS = 4, MEMORIES = 4, CMDS = 4, EVENTS = 2, FENCES = 2, BINARIES = 2, QUEUES = 3 };
enum { MEMORY_SIZE = 4096, MAX_OPS = 200 };
/* Command buffers 0..2 come from family 0 (compute), 3 from the last family. */
#define CMD_FAMILY(c) ((c) == CMDS - 1 ? vk.family_count - 1 : 0)
/* Bits of what a recording refers to. */
#define REF_BUFFER(i) (1u << (i))
#define REF_MEMORY(j) (1u << (BUFFERS + (j)))
#define REF_EVENT(e) (1u << (BUFFERS + MEMORIES + (e)))

/* --- Counting allocator: "nothing leaks" at the level of Vulkan objects. ---------- */

/* Live allocations of object and command scope: the spec ties those to an
 * object's or a command's lifetime, so once an input's objects are gone
 * the count must be back where it was.  (Device-scope allocations are the
 * device's own, e.g. strict mode's tables that grow once and stay.) */
static atomic_long live_allocations;

/* Each block is preceded by a header — its offset from the block's start,
 * its size and its scope — so free and realloc know them; the header is a
 * multiple of the alignment asked for. */
struct header {
    size_t skip;
    size_t size;
    VkSystemAllocationScope scope;
    uint8_t padding[32 - 2 * sizeof(size_t) - sizeof(VkSystemAllocationScope)]; /* a power of two in all */
};

static bool counted(VkSystemAllocationScope scope)
{
    return scope == VK_SYSTEM_ALLOCATION_SCOPE_OBJECT || scope == VK_SYSTEM_ALLOCATION_SCOPE_COMMAND;
}

static void *count_alloc(void *user, size_t size, size_t alignment, VkSystemAllocationScope scope)
{
    (void)user;
    size_t skip = alignment < sizeof(struct header) ? sizeof(struct header) : alignment;
    uint8_t *block = aligned_alloc(skip, (skip + size + skip - 1) / skip * skip);
    if (!block)
        return NULL;
    struct header *h = (struct header *)(block + skip) - 1;
    *h = (struct header){ skip, size, scope, { 0 } };
    if (counted(scope))
        atomic_fetch_add(&live_allocations, 1);
    return block + skip;
}

static void count_free(void *user, void *p)
{
    (void)user;
    if (!p)
        return;
    const struct header *h = (const struct header *)p - 1;
    if (counted(h->scope))
        atomic_fetch_sub(&live_allocations, 1);
    free((uint8_t *)p - h->skip);
}

static void *count_realloc(void *user, void *old, size_t size, size_t alignment, VkSystemAllocationScope scope)
{
    if (!old)
        return count_alloc(user, size, alignment, scope);
    if (!size) {
        count_free(user, old);
        return NULL;
    }
    void *p = count_alloc(user, size, alignment, scope);
    if (p) {
        struct header *h = (struct header *)old - 1;
        memcpy(p, old, h->size < size ? h->size : size);
        count_free(user, old);
    }
    return p;
}

static const VkAllocationCallbacks counting = {
    .pfnAllocation = count_alloc, .pfnReallocation = count_realloc, .pfnFree = count_free,
};

/* --- State --------------------------------------------------------------------------- */

enum cmd_state { INITIAL, RECORDING, EXECUTABLE, INVALID };
enum binary_state { UNSIGNALED, SIGNALED, WAITED }; /* as submitted: WAITED until the wait's batch completes */

/* Where a submission is: its queue's progress value. */
struct ticket {
    int queue; /* -1: none */
    uint64_t value;
};

struct memory {
    VkDeviceMemory memory;
    uint32_t type;
    bool host_visible, coherent;
    void *mapped;
    VkDeviceSize map_offset;
};

struct buffer {
    VkBuffer buffer;
    VkDeviceSize size;
    int memory; /* -1: unbound; -2: its memory was freed */
    VkDeviceSize offset;
};

struct cmd {
    VkCommandBuffer cmd;
    enum cmd_state state;
    bool one_time;
    uint32_t refs;
    struct ticket pending;
    VkPipelineStageFlags set_stages[EVENTS]; /* this recording's vkCmdSetEvent masks since a reset */
    bool bound_add, bound_ids;               /* this recording's descriptor set is written */
};

struct state {
    struct memory memories[MEMORIES];
    struct buffer buffers[BUFFERS];
    struct cmd cmds[CMDS];
    VkCommandPool pools[2];
    VkEvent events[EVENTS];
    VkFence fences[FENCES];
    struct ticket fence_ticket[FENCES]; /* queue -1 and !fence_submitted: unsignaled */
    bool fence_submitted[FENCES];
    VkSemaphore binaries[BINARIES];
    enum binary_state binary_state[BINARIES];
    struct ticket binary_wait[BINARIES];
    VkSemaphore timeline; /* the input's own */
    uint64_t timeline_last, timeline_seen;
    struct ticket timeline_signal; /* the newest signal's batch */
    VkQueue queues[QUEUES];
    uint32_t queue_family[QUEUES];
    VkSemaphore progress[QUEUES]; /* every submission signals its queue's next value */
    uint64_t progress_last[QUEUES];
};

static struct fuzz_vk vk;
static struct fuzz_kernel add_arrays, dispatch_ids;
static VkPipeline add_pipeline, ids_pipeline;
static VkDescriptorPool set_pool;
static VkDescriptorSet add_sets[CMDS], ids_sets[CMDS];
static VkDeviceSize atom;

struct reader {
    const uint8_t *data;
    size_t size, at;
};

static uint32_t take(struct reader *r)
{
    return r->at < r->size ? r->data[r->at++] : 0;
}

static uint32_t take16(struct reader *r)
{
    return take(r) | take(r) << 8;
}

/* --- Tracking ----------------------------------------------------------------------------- */

static uint64_t progress_of(struct state *s, int q)
{
    uint64_t value = 0;
    FUZZ_CHECK(vkGetSemaphoreCounterValue(vk.device, s->progress[q], &value));
    FUZZ_ASSERT(value <= s->progress_last[q], "queue %d's progress semaphore reads %llu, past %llu", q,
                (unsigned long long)value, (unsigned long long)s->progress_last[q]);
    return value;
}

static bool done(struct state *s, struct ticket t)
{
    return t.queue < 0 || progress_of(s, t.queue) >= t.value;
}

/* Command buffers whose submission completed leave the pending state. */
static void refresh(struct state *s)
{
    for (int c = 0; c < CMDS; c++) {
        struct cmd *cmd = &s->cmds[c];
        if (cmd->pending.queue >= 0 && done(s, cmd->pending)) {
            cmd->pending.queue = -1;
            if (cmd->one_time)
                cmd->state = INVALID;
        }
    }
}

static bool in_use(struct state *s, uint32_t refs)
{
    refresh(s);
    for (int c = 0; c < CMDS; c++) {
        if (s->cmds[c].pending.queue >= 0 && (s->cmds[c].refs & refs))
            return true;
    }
    return false;
}

/* Recordings that refer to a destroyed object become invalid. */
static void invalidate(struct state *s, uint32_t refs)
{
    for (int c = 0; c < CMDS; c++) {
        if ((s->cmds[c].state == RECORDING || s->cmds[c].state == EXECUTABLE) && (s->cmds[c].refs & refs))
            s->cmds[c].state = INVALID;
    }
}

static bool usable(const struct state *s, int i)
{
    return s->buffers[i].buffer && s->buffers[i].memory >= 0;
}

static uint32_t buffer_refs(const struct state *s, int i)
{
    return REF_BUFFER(i) | REF_MEMORY(s->buffers[i].memory);
}

/* --- Buffers and memory ------------------------------------------------------------------ */

static void op_create_buffer(struct state *s, struct reader *r)
{
    int i = take(r) % BUFFERS;
    if (s->buffers[i].buffer)
        return;
    uint32_t families[2] = { 0, 1 };
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = take(r) % 2 ? 1024 : 256,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = vk.family_count > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE,
        .queueFamilyIndexCount = vk.family_count > 1 ? 2 : 0,
        .pQueueFamilyIndices = families,
    };
    FUZZ_CHECK(vkCreateBuffer(vk.device, &info, vk.allocator, &s->buffers[i].buffer));
    s->buffers[i].size = info.size;
    s->buffers[i].memory = -1;
}

static void destroy_buffer(struct state *s, int i)
{
    vkDestroyBuffer(vk.device, s->buffers[i].buffer, vk.allocator);
    invalidate(s, REF_BUFFER(i));
    memset(&s->buffers[i], 0, sizeof(s->buffers[i]));
}

static void op_destroy_buffer(struct state *s, struct reader *r)
{
    int i = take(r) % BUFFERS;
    if (s->buffers[i].buffer && !in_use(s, REF_BUFFER(i)))
        destroy_buffer(s, i);
}

static void op_allocate_memory(struct state *s, struct reader *r)
{
    int j = take(r) % MEMORIES;
    uint32_t type = take(r) % vk.memory.memoryTypeCount;
    if (s->memories[j].memory)
        return;
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = MEMORY_SIZE, .memoryTypeIndex = type,
    };
    FUZZ_CHECK(vkAllocateMemory(vk.device, &info, vk.allocator, &s->memories[j].memory));
    VkMemoryPropertyFlags flags = vk.memory.memoryTypes[type].propertyFlags;
    s->memories[j].type = type;
    s->memories[j].host_visible = flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    s->memories[j].coherent = flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
}

static void free_memory(struct state *s, int j)
{
    vkFreeMemory(vk.device, s->memories[j].memory, vk.allocator);
    invalidate(s, REF_MEMORY(j));
    for (int i = 0; i < BUFFERS; i++) {
        if (s->buffers[i].buffer && s->buffers[i].memory == j)
            s->buffers[i].memory = -2; /* unusable: only destroyed from now on */
    }
    memset(&s->memories[j], 0, sizeof(s->memories[j]));
}

static void op_free_memory(struct state *s, struct reader *r)
{
    int j = take(r) % MEMORIES;
    if (s->memories[j].memory && !in_use(s, REF_MEMORY(j)))
        free_memory(s, j);
}

static void op_bind(struct state *s, struct reader *r)
{
    int i = take(r) % BUFFERS, j = take(r) % MEMORIES;
    uint32_t slot = take(r) % 16;
    struct buffer *b = &s->buffers[i];
    if (!b->buffer || b->memory != -1 || !s->memories[j].memory)
        return;
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(vk.device, b->buffer, &needs);
    VkDeviceSize offset = slot * needs.alignment;
    if (!(needs.memoryTypeBits & (1u << s->memories[j].type)) || offset + needs.size > MEMORY_SIZE)
        return;
    FUZZ_CHECK(vkBindBufferMemory(vk.device, b->buffer, s->memories[j].memory, offset));
    b->memory = j;
    b->offset = offset;
}

static void op_map(struct state *s, struct reader *r)
{
    struct memory *m = &s->memories[take(r) % MEMORIES];
    VkDeviceSize offset = (take(r) % 4) * atom;
    if (!m->memory || !m->host_visible || m->mapped || offset >= MEMORY_SIZE)
        return;
    FUZZ_CHECK(vkMapMemory(vk.device, m->memory, offset, VK_WHOLE_SIZE, 0, &m->mapped));
    FUZZ_ASSERT(m->mapped, "vkMapMemory gave NULL");
    m->map_offset = offset;
}

/* A range of the mapping in whole atoms (or to its end). */
static VkMappedMemoryRange mapped_range(const struct memory *m, struct reader *r)
{
    VkDeviceSize atoms = (MEMORY_SIZE - m->map_offset) / atom;
    VkDeviceSize first = take(r) % (atoms ? atoms : 1), count = take(r) % 4;
    return (VkMappedMemoryRange){
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, .memory = m->memory,
        .offset = m->map_offset + first * atom,
        .size = count == 0 || first + count > atoms ? VK_WHOLE_SIZE : count * atom,
    };
}

static void op_host_write(struct state *s, struct reader *r)
{
    int j = take(r) % MEMORIES;
    struct memory *m = &s->memories[j];
    if (!m->mapped || in_use(s, REF_MEMORY(j)))
        return;
    VkMappedMemoryRange range = mapped_range(m, r);
    VkDeviceSize length = range.size == VK_WHOLE_SIZE ? MEMORY_SIZE - range.offset : range.size;
    memset((uint8_t *)m->mapped + (range.offset - m->map_offset), (int)take(r), length);
    if (!m->coherent)
        FUZZ_CHECK(vkFlushMappedMemoryRanges(vk.device, 1, &range));
}

static void op_flush_or_invalidate(struct state *s, struct reader *r)
{
    int j = take(r) % MEMORIES;
    bool flush = take(r) % 2;
    struct memory *m = &s->memories[j];
    if (!m->mapped || in_use(s, REF_MEMORY(j)))
        return;
    VkMappedMemoryRange range = mapped_range(m, r);
    if (flush)
        FUZZ_CHECK(vkFlushMappedMemoryRanges(vk.device, 1, &range));
    else
        FUZZ_CHECK(vkInvalidateMappedMemoryRanges(vk.device, 1, &range));
}

static void op_unmap(struct state *s, struct reader *r)
{
    struct memory *m = &s->memories[take(r) % MEMORIES];
    if (!m->mapped)
        return;
    vkUnmapMemory(vk.device, m->memory);
    m->mapped = NULL;
}

/* --- Command buffers ---------------------------------------------------------------------- */

static struct cmd *recording(struct state *s, struct reader *r, int *index)
{
    int c = take(r) % CMDS;
    if (index)
        *index = c;
    return s->cmds[c].state == RECORDING ? &s->cmds[c] : NULL;
}

static void op_begin(struct state *s, struct reader *r)
{
    int c = take(r) % CMDS;
    bool one_time = take(r) % 2;
    struct cmd *cmd = &s->cmds[c];
    refresh(s);
    if (cmd->state == RECORDING || cmd->pending.queue >= 0)
        return;
    VkCommandBufferBeginInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = one_time ? VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT : 0,
    };
    FUZZ_CHECK(vkBeginCommandBuffer(cmd->cmd, &info));
    *cmd = (struct cmd){ .cmd = cmd->cmd, .state = RECORDING, .one_time = one_time, .pending = { -1, 0 } };
}

static void op_end(struct state *s, struct reader *r)
{
    struct cmd *cmd = recording(s, r, NULL);
    if (!cmd)
        return;
    FUZZ_CHECK(vkEndCommandBuffer(cmd->cmd));
    cmd->state = EXECUTABLE;
}

static void op_reset(struct state *s, struct reader *r)
{
    struct cmd *cmd = &s->cmds[take(r) % CMDS];
    refresh(s);
    if (cmd->pending.queue >= 0)
        return;
    FUZZ_CHECK(vkResetCommandBuffer(cmd->cmd, take(r) % 2 ? VK_COMMAND_BUFFER_RESET_RELEASE_RESOURCES_BIT : 0));
    cmd->state = INITIAL;
    cmd->refs = 0;
}

static void op_reset_pool(struct state *s, struct reader *r)
{
    uint32_t family = take(r) % vk.family_count;
    refresh(s);
    for (int c = 0; c < CMDS; c++) {
        if (CMD_FAMILY(c) == family && s->cmds[c].pending.queue >= 0)
            return;
    }
    FUZZ_CHECK(vkResetCommandPool(vk.device, s->pools[family], 0));
    for (int c = 0; c < CMDS; c++) {
        if (CMD_FAMILY(c) == family) {
            s->cmds[c].state = INITIAL;
            s->cmds[c].refs = 0;
        }
    }
}

static void op_fill(struct state *s, struct reader *r)
{
    struct cmd *cmd = recording(s, r, NULL);
    int i = take(r) % BUFFERS;
    VkDeviceSize offset = (take(r) % 64) * 4, size = (take(r) % 64) * 4;
    uint32_t value = take16(r);
    if (!cmd || !usable(s, i) || offset >= s->buffers[i].size)
        return;
    if (size == 0 || size > s->buffers[i].size - offset)
        size = VK_WHOLE_SIZE;
    vkCmdFillBuffer(cmd->cmd, s->buffers[i].buffer, offset, size, value * 0x10001u);
    cmd->refs |= buffer_refs(s, i);
}

static void op_update(struct state *s, struct reader *r)
{
    struct cmd *cmd = recording(s, r, NULL);
    int i = take(r) % BUFFERS;
    VkDeviceSize offset = (take(r) % 64) * 4, size = (1 + take(r) % 64) * 4;
    uint8_t bytes[256];
    memset(bytes, (int)take(r), sizeof(bytes));
    if (!cmd || !usable(s, i) || offset + size > s->buffers[i].size)
        return;
    vkCmdUpdateBuffer(cmd->cmd, s->buffers[i].buffer, offset, size, bytes);
    cmd->refs |= buffer_refs(s, i);
}

static void op_copy(struct state *s, struct reader *r)
{
    struct cmd *cmd = recording(s, r, NULL);
    int i = take(r) % BUFFERS, k = take(r) % BUFFERS;
    VkBufferCopy region = { (take(r) % 64) * 4, (take(r) % 64) * 4, (1 + take(r) % 64) * 4 };
    if (!cmd || !usable(s, i) || !usable(s, k) || region.srcOffset + region.size > s->buffers[i].size ||
        region.dstOffset + region.size > s->buffers[k].size)
        return;
    /* The source and destination must not overlap in memory (the same
     * buffer, or two bound to one memory). */
    if (s->buffers[i].memory == s->buffers[k].memory) {
        VkDeviceSize src = s->buffers[i].offset + region.srcOffset, dst = s->buffers[k].offset + region.dstOffset;
        if (src < dst + region.size && dst < src + region.size)
            return;
    }
    vkCmdCopyBuffer(cmd->cmd, s->buffers[i].buffer, s->buffers[k].buffer, 1, &region);
    cmd->refs |= buffer_refs(s, i) | buffer_refs(s, k);
}

static void write_set(VkDescriptorSet set, uint32_t binding, VkBuffer buffer)
{
    VkDescriptorBufferInfo info = { buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
        .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info,
    };
    vkUpdateDescriptorSets(vk.device, 1, &write, 0, NULL);
}

/* add_arrays over three buffers (c = a * scale + b), n within all three.
 * The recording's descriptor set is written once, at its first dispatch:
 * writing a set bound in a recording would invalidate it. */
static void op_dispatch_add(struct state *s, struct reader *r)
{
    int c;
    struct cmd *cmd = recording(s, r, &c);
    int bufs[3] = { take(r) % BUFFERS, take(r) % BUFFERS, take(r) % BUFFERS };
    uint32_t n = take(r);
    if (!cmd || CMD_FAMILY(c) != 0)
        return;
    if (!cmd->bound_add) {
        for (int k = 0; k < 3; k++) {
            if (!usable(s, bufs[k]))
                return;
        }
        for (int k = 0; k < 3; k++) {
            write_set(add_sets[c], (uint32_t)k, s->buffers[bufs[k]].buffer);
            cmd->refs |= buffer_refs(s, bufs[k]);
        }
        cmd->bound_add = true;
    }
    struct { uint32_t n; float scale; } push = { n, 2.0f };
    vkCmdBindPipeline(cmd->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, add_pipeline);
    vkCmdBindDescriptorSets(cmd->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, add_arrays.layout, 0, 1, &add_sets[c], 0, NULL);
    vkCmdPushConstants(cmd->cmd, add_arrays.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    /* Past the buffers' ends the shader's accesses are dropped (robustBufferAccess). */
    vkCmdDispatch(cmd->cmd, 1 + n / 128, 1, 1);
}

static void op_dispatch_ids(struct state *s, struct reader *r)
{
    int c;
    struct cmd *cmd = recording(s, r, &c);
    int i = take(r) % BUFFERS;
    uint32_t groups = take(r);
    if (!cmd || CMD_FAMILY(c) != 0)
        return;
    if (!cmd->bound_ids) {
        if (!usable(s, i))
            return;
        write_set(ids_sets[c], 0, s->buffers[i].buffer);
        cmd->refs |= buffer_refs(s, i);
        cmd->bound_ids = true;
    }
    vkCmdBindPipeline(cmd->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, ids_pipeline);
    vkCmdBindDescriptorSets(cmd->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, dispatch_ids.layout, 0, 1, &ids_sets[c], 0,
                            NULL);
    vkCmdDispatch(cmd->cmd, 1 + groups % 2, 1 + groups / 2 % 2, 1);
}

/* A stage mask the command buffer's family supports (no HOST when
 * `host` is false: vkCmdSetEvent and semaphore waits refuse it). */
static VkPipelineStageFlags random_stages(uint32_t family, uint32_t bits, bool host)
{
    static const VkPipelineStageFlags stages[] = {
        VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
    };
    VkPipelineStageFlags mask = 0;
    for (int k = 0; k < 6; k++) {
        if ((bits >> k & 1) && (family == 0 || k != 5) && (host || k != 4))
            mask |= stages[k];
    }
    return mask ? mask : VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
}

/* Access bits that `stages` support, chosen by `bits`. */
static VkAccessFlags random_access(VkPipelineStageFlags stages, uint32_t family, uint32_t bits)
{
    VkAccessFlags allowed = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    bool all = stages & VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    if (all || (stages & VK_PIPELINE_STAGE_TRANSFER_BIT))
        allowed |= VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    if (all || (stages & VK_PIPELINE_STAGE_HOST_BIT))
        allowed |= VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
    if (family == 0 && (all || (stages & VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT)))
        allowed |= VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_UNIFORM_READ_BIT;
    return allowed & (bits * 0x01010101u);
}

static void op_barrier(struct state *s, struct reader *r)
{
    int c;
    struct cmd *cmd = recording(s, r, &c);
    uint32_t family = CMD_FAMILY(c);
    VkPipelineStageFlags src = random_stages(family, take(r), true), dst = random_stages(family, take(r), true);
    VkMemoryBarrier memory = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = random_access(src, family, take(r)),
        .dstAccessMask = random_access(dst, family, take(r)),
    };
    int i = take(r) % (BUFFERS + 1);
    bool sync2 = take(r) % 2;
    if (!cmd)
        return;
    VkBufferMemoryBarrier buffer = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = memory.srcAccessMask,
        .dstAccessMask = memory.dstAccessMask, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .size = VK_WHOLE_SIZE,
    };
    bool with_buffer = i < BUFFERS && usable(s, i);
    if (with_buffer) {
        buffer.buffer = s->buffers[i].buffer;
        cmd->refs |= buffer_refs(s, i);
    }
    if (!sync2) {
        vkCmdPipelineBarrier(cmd->cmd, src, dst, 0, 1, &memory, with_buffer, &buffer, 0, NULL);
        return;
    }
    /* The synchronization2 form: the legacy bits are the same values. */
    VkMemoryBarrier2 memory2 = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, .srcStageMask = src, .srcAccessMask = memory.srcAccessMask,
        .dstStageMask = dst, .dstAccessMask = memory.dstAccessMask,
    };
    VkBufferMemoryBarrier2 buffer2 = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2, .srcStageMask = src, .srcAccessMask = buffer.srcAccessMask,
        .dstStageMask = dst, .dstAccessMask = buffer.dstAccessMask, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = buffer.buffer, .size = VK_WHOLE_SIZE,
    };
    VkDependencyInfo dependency = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &memory2,
        .bufferMemoryBarrierCount = with_buffer, .pBufferMemoryBarriers = &buffer2,
    };
    vkCmdPipelineBarrier2(cmd->cmd, &dependency);
}

static void op_cmd_event(struct state *s, struct reader *r)
{
    int c;
    struct cmd *cmd = recording(s, r, &c);
    int e = take(r) % EVENTS;
    uint32_t what = take(r) % 3;
    VkPipelineStageFlags stages = random_stages(CMD_FAMILY(c), take(r), false);
    if (!cmd)
        return;
    cmd->refs |= REF_EVENT(e);
    if (what == 0) {
        vkCmdSetEvent(cmd->cmd, s->events[e], stages);
        cmd->set_stages[e] |= stages;
    } else if (what == 1) {
        vkCmdResetEvent(cmd->cmd, s->events[e], stages);
        cmd->set_stages[e] = 0;
    } else if (cmd->set_stages[e]) {
        /* Only an event this recording set: anything else could wait
         * forever.  srcStageMask is the set's stages, as the spec requires. */
        VkMemoryBarrier memory = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT,
        };
        vkCmdWaitEvents(cmd->cmd, 1, &s->events[e], cmd->set_stages[e], stages, 1, &memory, 0, NULL, 0, NULL);
    }
}

/* --- Submission --------------------------------------------------------------------------- */

/* Whether command buffer `c` may join a batch of `queue` that already
 * holds `taken` (a bitmask of command buffers) referring to `events`. */
static bool submittable(struct state *s, int c, int queue, uint32_t taken, uint32_t events)
{
    const struct cmd *cmd = &s->cmds[c];
    uint32_t mine = cmd->refs & (REF_EVENT(0) | REF_EVENT(1));
    /* Events: one user at a time, or a reset could overtake a wait. */
    return cmd->state == EXECUTABLE && cmd->pending.queue < 0 && CMD_FAMILY(c) == s->queue_family[queue] &&
           !(taken & (1u << c)) && !(mine & events) && !in_use(s, mine);
}

struct batch {
    VkCommandBuffer cmds[2];
    uint32_t cmd_count, taken;
    VkSemaphore waits[2], signals[3];
    uint64_t wait_values[2], signal_values[3];
    VkPipelineStageFlags wait_stages[2];
    uint32_t wait_count, signal_count;
    int binary_wait, binary_signal; /* -1: none */
    bool timeline_signal;
};

static void choose_semaphores(struct state *s, struct reader *r, int q, struct batch *b)
{
    uint32_t choice = take(r);
    int k = (int)(choice >> 4) % BINARIES;
    b->binary_wait = b->binary_signal = -1;
    if ((choice & 1) && s->binary_state[k] == SIGNALED) {
        b->binary_wait = k;
        b->waits[b->wait_count] = s->binaries[k];
        b->wait_values[b->wait_count] = 0;
        b->wait_stages[b->wait_count++] = random_stages(s->queue_family[q], take(r), false);
    }
    /* The timeline: only values already submitted for signalling, so the
     * batch can always proceed. */
    if ((choice & 2) && s->timeline_last) {
        b->waits[b->wait_count] = s->timeline;
        b->wait_values[b->wait_count] = 1 + take(r) % s->timeline_last;
        b->wait_stages[b->wait_count++] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    }
    int m = (int)(choice >> 5) % BINARIES;
    bool free_to_signal = s->binary_state[m] == UNSIGNALED ||
                          (s->binary_state[m] == WAITED && done(s, s->binary_wait[m]));
    if ((choice & 4) && free_to_signal && m != b->binary_wait) {
        b->binary_signal = m;
        b->signals[b->signal_count] = s->binaries[m];
        b->signal_values[b->signal_count++] = 0;
    }
    /* Signals must rise in execution order: another queue's pending
     * signal could run after this one. */
    if ((choice & 8) && (s->timeline_signal.queue == q || done(s, s->timeline_signal))) {
        b->timeline_signal = true;
        b->signals[b->signal_count] = s->timeline;
        b->signal_values[b->signal_count++] = ++s->timeline_last;
    }
    b->signals[b->signal_count] = s->progress[q];
    b->signal_values[b->signal_count++] = ++s->progress_last[q];
}

static VkResult submit_batch(struct state *s, int q, const struct batch *b, VkFence fence, bool sync2)
{
    if (!sync2) {
        VkTimelineSemaphoreSubmitInfo values = {
            .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, .waitSemaphoreValueCount = b->wait_count,
            .pWaitSemaphoreValues = b->wait_values, .signalSemaphoreValueCount = b->signal_count,
            .pSignalSemaphoreValues = b->signal_values,
        };
        VkSubmitInfo info = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &values, .waitSemaphoreCount = b->wait_count,
            .pWaitSemaphores = b->waits, .pWaitDstStageMask = b->wait_stages, .commandBufferCount = b->cmd_count,
            .pCommandBuffers = b->cmds, .signalSemaphoreCount = b->signal_count, .pSignalSemaphores = b->signals,
        };
        return vkQueueSubmit(s->queues[q], 1, &info, fence);
    }
    VkSemaphoreSubmitInfo waits[2], signals[3];
    VkCommandBufferSubmitInfo cmds[2];
    for (uint32_t k = 0; k < b->wait_count; k++)
        waits[k] = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                            .semaphore = b->waits[k], .value = b->wait_values[k],
                                            .stageMask = b->wait_stages[k] };
    for (uint32_t k = 0; k < b->signal_count; k++)
        signals[k] = (VkSemaphoreSubmitInfo){ .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                              .semaphore = b->signals[k], .value = b->signal_values[k],
                                              .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT };
    for (uint32_t k = 0; k < b->cmd_count; k++)
        cmds[k] = (VkCommandBufferSubmitInfo){ .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                               .commandBuffer = b->cmds[k] };
    VkSubmitInfo2 info = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .waitSemaphoreInfoCount = b->wait_count, .pWaitSemaphoreInfos = waits,
        .commandBufferInfoCount = b->cmd_count, .pCommandBufferInfos = cmds,
        .signalSemaphoreInfoCount = b->signal_count, .pSignalSemaphoreInfos = signals,
    };
    return vkQueueSubmit2(s->queues[q], 1, &info, fence);
}

static void op_submit(struct state *s, struct reader *r)
{
    int q = (int)(take(r) % QUEUES);
    uint32_t wanted = take(r) % 3;
    struct batch b = { 0 };
    int chosen[2];
    uint32_t events = 0;
    for (uint32_t k = 0; k < wanted; k++) {
        int c = (int)(take(r) % CMDS);
        if (!submittable(s, c, q, b.taken, events))
            continue;
        chosen[b.cmd_count] = c;
        b.cmds[b.cmd_count++] = s->cmds[c].cmd;
        b.taken |= 1u << c;
        events |= s->cmds[c].refs & (REF_EVENT(0) | REF_EVENT(1));
    }
    int f = (int)(take(r) % (FENCES + 1));
    bool sync2 = take(r) % 2;
    refresh(s);
    /* A fence must be unsignaled and not in use. */
    bool fence = f < FENCES && !s->fence_submitted[f];
    choose_semaphores(s, r, q, &b);
    FUZZ_CHECK(submit_batch(s, q, &b, fence ? s->fences[f] : VK_NULL_HANDLE, sync2));
    struct ticket ticket = { q, s->progress_last[q] };
    for (uint32_t k = 0; k < b.cmd_count; k++)
        s->cmds[chosen[k]].pending = ticket;
    if (fence) {
        s->fence_submitted[f] = true;
        s->fence_ticket[f] = ticket;
    }
    if (b.binary_wait >= 0) {
        s->binary_state[b.binary_wait] = WAITED;
        s->binary_wait[b.binary_wait] = ticket;
    }
    if (b.binary_signal >= 0)
        s->binary_state[b.binary_signal] = SIGNALED;
    if (b.timeline_signal)
        s->timeline_signal = ticket;
}

/* --- Host synchronisation ----------------------------------------------------------------- */

static uint64_t small_timeout(struct reader *r)
{
    return (take(r) % 4) * 500000ull; /* 0 to 1.5 ms */
}

static void op_wait_fences(struct state *s, struct reader *r)
{
    uint32_t which = 1 + take(r) % 3;
    bool all = take(r) % 2;
    uint64_t timeout = small_timeout(r);
    VkFence fences[FENCES];
    uint32_t count = 0, never_submitted = 0;
    for (int f = 0; f < FENCES; f++) {
        if (which >> f & 1) {
            fences[count++] = s->fences[f];
            never_submitted += !s->fence_submitted[f];
        }
    }
    VkResult result = vkWaitForFences(vk.device, count, fences, all, timeout);
    FUZZ_ASSERT(result == VK_SUCCESS || result == VK_TIMEOUT, "vkWaitForFences returned %d", (int)result);
    FUZZ_ASSERT(result == VK_TIMEOUT || !(all ? never_submitted : never_submitted == count),
                "vkWaitForFences succeeded on a fence nothing signals");
}

static void op_fence_status_or_reset(struct state *s, struct reader *r)
{
    int f = (int)(take(r) % FENCES);
    bool reset = take(r) % 2;
    VkResult status = vkGetFenceStatus(vk.device, s->fences[f]);
    FUZZ_ASSERT(status == VK_SUCCESS || status == VK_NOT_READY, "vkGetFenceStatus returned %d", (int)status);
    FUZZ_ASSERT(s->fence_submitted[f] || status == VK_NOT_READY, "an unsignaled fence reads signaled");
    /* Reset only once signaled: never while its batch may still run. */
    if (reset && (status == VK_SUCCESS || !s->fence_submitted[f])) {
        FUZZ_CHECK(vkResetFences(vk.device, 1, &s->fences[f]));
        s->fence_submitted[f] = false;
        s->fence_ticket[f] = (struct ticket){ -1, 0 };
    }
}

/* After an idle wait, every submission `finished(queue)` covers is done. */
static void check_idle(struct state *s, int only_queue)
{
    for (int q = 0; q < QUEUES; q++) {
        if (only_queue >= 0 && q != only_queue)
            continue;
        FUZZ_ASSERT(progress_of(s, q) == s->progress_last[q], "queue %d is idle with submissions unfinished", q);
    }
    for (int f = 0; f < FENCES; f++) {
        if (s->fence_submitted[f] && (only_queue < 0 || s->fence_ticket[f].queue == only_queue))
            FUZZ_ASSERT(vkGetFenceStatus(vk.device, s->fences[f]) == VK_SUCCESS,
                        "a fence of a finished submission is not signaled");
    }
}

static void op_idle(struct state *s, struct reader *r)
{
    int q = (int)(take(r) % (QUEUES + 1));
    if (q == QUEUES) {
        FUZZ_CHECK(vkDeviceWaitIdle(vk.device));
        check_idle(s, -1);
    } else {
        FUZZ_CHECK(vkQueueWaitIdle(s->queues[q]));
        check_idle(s, q);
    }
}

static void op_timeline(struct state *s, struct reader *r)
{
    uint32_t what = take(r) % 3;
    uint64_t value = 0;
    FUZZ_CHECK(vkGetSemaphoreCounterValue(vk.device, s->timeline, &value));
    FUZZ_ASSERT(value >= s->timeline_seen && value <= s->timeline_last,
                "the timeline reads %llu: seen %llu, signalled at most %llu", (unsigned long long)value,
                (unsigned long long)s->timeline_seen, (unsigned long long)s->timeline_last);
    s->timeline_seen = value;
    if (what == 0) {
        uint64_t target = 1 + take(r) % (s->timeline_last + 2);
        VkSemaphoreWaitInfo info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1, .pSemaphores = &s->timeline,
            .pValues = &target,
        };
        VkResult result = vkWaitSemaphores(vk.device, &info, small_timeout(r));
        FUZZ_ASSERT(result == VK_SUCCESS || result == VK_TIMEOUT, "vkWaitSemaphores returned %d", (int)result);
        FUZZ_ASSERT(result == VK_TIMEOUT || target <= s->timeline_last, "a wait for a value never signalled ended");
    } else if (what == 1 && value == s->timeline_last) {
        /* From the host: only with no signal pending, above the value. */
        VkSemaphoreSignalInfo info = {
            .sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = s->timeline, .value = ++s->timeline_last,
        };
        FUZZ_CHECK(vkSignalSemaphore(vk.device, &info));
    }
}

static void op_host_event(struct state *s, struct reader *r)
{
    int e = (int)(take(r) % EVENTS);
    uint32_t what = take(r) % 3;
    VkResult status = vkGetEventStatus(vk.device, s->events[e]);
    FUZZ_ASSERT(status == VK_EVENT_SET || status == VK_EVENT_RESET, "vkGetEventStatus returned %d", (int)status);
    if (what == 2 || in_use(s, REF_EVENT(e)))
        return;
    if (what == 0)
        FUZZ_CHECK(vkSetEvent(vk.device, s->events[e]));
    else
        FUZZ_CHECK(vkResetEvent(vk.device, s->events[e]));
    status = vkGetEventStatus(vk.device, s->events[e]);
    FUZZ_ASSERT(status == (what == 0 ? VK_EVENT_SET : VK_EVENT_RESET), "a host-%s event reads %d",
                what == 0 ? "set" : "reset", (int)status);
}

/* --- The input's objects ------------------------------------------------------------------- */

static void create_state(struct state *s)
{
    memset(s, 0, sizeof(*s));
    const VkAllocationCallbacks *a = vk.allocator;
    for (uint32_t f = 0; f < vk.family_count; f++) {
        VkCommandPoolCreateInfo pool = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = f,
        };
        FUZZ_CHECK(vkCreateCommandPool(vk.device, &pool, a, &s->pools[f]));
    }
    for (int c = 0; c < CMDS; c++) {
        VkCommandBufferAllocateInfo info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = s->pools[CMD_FAMILY(c)],
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
        };
        FUZZ_CHECK(vkAllocateCommandBuffers(vk.device, &info, &s->cmds[c].cmd));
        s->cmds[c].pending.queue = -1;
    }
    VkEventCreateInfo event = { .sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO };
    VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkSemaphoreCreateInfo binary = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    VkSemaphoreTypeCreateInfo timeline_type = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE,
    };
    VkSemaphoreCreateInfo timeline = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &timeline_type };
    for (int e = 0; e < EVENTS; e++)
        FUZZ_CHECK(vkCreateEvent(vk.device, &event, a, &s->events[e]));
    for (int f = 0; f < FENCES; f++) {
        FUZZ_CHECK(vkCreateFence(vk.device, &fence, a, &s->fences[f]));
        s->fence_ticket[f].queue = -1;
    }
    for (int k = 0; k < BINARIES; k++)
        FUZZ_CHECK(vkCreateSemaphore(vk.device, &binary, a, &s->binaries[k]));
    FUZZ_CHECK(vkCreateSemaphore(vk.device, &timeline, a, &s->timeline));
    s->timeline_signal.queue = -1;
    /* Queues 0 and 1 of family 0, then queue 0 of the last family. */
    for (int q = 0; q < QUEUES; q++) {
        s->queue_family[q] = q == QUEUES - 1 ? vk.family_count - 1 : 0;
        uint32_t index = q == 1 && vk.queue_count[0] > 1 ? 1 : 0;
        s->queues[q] = vk.queues[s->queue_family[q]][index];
        FUZZ_CHECK(vkCreateSemaphore(vk.device, &timeline, a, &s->progress[q]));
    }
}

static void destroy_state(struct state *s)
{
    /* Waiting for the device first makes every destruction valid. */
    FUZZ_CHECK(vkDeviceWaitIdle(vk.device));
    check_idle(s, -1);
    const VkAllocationCallbacks *a = vk.allocator;
    for (int i = 0; i < BUFFERS; i++)
        vkDestroyBuffer(vk.device, s->buffers[i].buffer, a);
    for (int j = 0; j < MEMORIES; j++)
        vkFreeMemory(vk.device, s->memories[j].memory, a);
    for (uint32_t f = 0; f < vk.family_count; f++)
        vkDestroyCommandPool(vk.device, s->pools[f], a);
    for (int e = 0; e < EVENTS; e++)
        vkDestroyEvent(vk.device, s->events[e], a);
    for (int f = 0; f < FENCES; f++)
        vkDestroyFence(vk.device, s->fences[f], a);
    for (int k = 0; k < BINARIES; k++)
        vkDestroySemaphore(vk.device, s->binaries[k], a);
    vkDestroySemaphore(vk.device, s->timeline, a);
    for (int q = 0; q < QUEUES; q++)
        vkDestroySemaphore(vk.device, s->progress[q], a);
}

/* --- The target ------------------------------------------------------------------------------ */

static void (*const operations[])(struct state *, struct reader *) = {
    op_create_buffer, op_destroy_buffer, op_allocate_memory, op_free_memory, op_bind, op_map, op_host_write,
    op_flush_or_invalidate, op_unmap, op_begin, op_end, op_reset, op_reset_pool, op_fill, op_update, op_copy,
    op_dispatch_add, op_dispatch_ids, op_barrier, op_cmd_event, op_submit, op_wait_fences,
    op_fence_status_or_reset, op_idle, op_timeline, op_host_event,
};

static void run_input(const uint8_t *data, size_t size)
{
    struct state s;
    create_state(&s);
    struct reader r = { data, size, 0 };
    /* VKMM_FUZZ_TRACE: each operation's number and input offset, to
     * read a crashing input by. */
    static int trace = -1;
    if (trace < 0)
        trace = getenv("VKMM_FUZZ_TRACE") != NULL;
    for (int n = 0; n < MAX_OPS && r.at < r.size; n++) {
        size_t at = r.at;
        uint32_t op = take(&r) % (sizeof(operations) / sizeof(operations[0]));
        if (trace)
            fprintf(stderr, "fuzz_api: byte %zu: operation %u\n", at, op);
        operations[op](&s, &r);
    }
    destroy_state(&s);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_vk_init(&vk, &counting);
    atom = vk.properties.limits.nonCoherentAtomSize;
    fuzz_kernel_create(&vk, fuzz_shader_add_arrays, fuzz_shader_add_arrays_size, 3, 8, &add_arrays);
    fuzz_kernel_create(&vk, fuzz_shader_dispatch_ids, fuzz_shader_dispatch_ids_size, 1, 0, &dispatch_ids);
    FUZZ_CHECK(fuzz_pipeline_create(&vk, &add_arrays, VK_NULL_HANDLE, &add_pipeline, NULL));
    FUZZ_CHECK(fuzz_pipeline_create(&vk, &dispatch_ids, VK_NULL_HANDLE, &ids_pipeline, NULL));
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4 * CMDS };
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2 * CMDS, .poolSizeCount = 1,
        .pPoolSizes = &size,
    };
    FUZZ_CHECK(vkCreateDescriptorPool(vk.device, &pool, vk.allocator, &set_pool));
    VkDescriptorSetLayout add_layouts[CMDS], ids_layouts[CMDS];
    for (int c = 0; c < CMDS; c++) {
        add_layouts[c] = add_arrays.set_layout;
        ids_layouts[c] = dispatch_ids.set_layout;
    }
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = set_pool,
        .descriptorSetCount = CMDS, .pSetLayouts = add_layouts,
    };
    FUZZ_CHECK(vkAllocateDescriptorSets(vk.device, &alloc, add_sets));
    alloc.pSetLayouts = ids_layouts;
    FUZZ_CHECK(vkAllocateDescriptorSets(vk.device, &alloc, ids_sets));
    /* One busy input first: whatever the device sets up on first use
     * (worker threads, arenas) is not counted as an input's leak. */
    static const uint8_t warm_up[] = { 0, 0, 1, 2, 0, 1, 4, 0, 0, 0, 9, 0, 0, 13, 0, 0, 0, 0, 0, 10, 0, 20, 0, 1, 0,
                                       0, 0, 0, 0, 23, 3 };
    run_input(warm_up, sizeof(warm_up));
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long before = atomic_load(&live_allocations);
    run_input(data, size);
    long after = atomic_load(&live_allocations);
    FUZZ_ASSERT(after == before, "the device holds %ld allocations more than before the input", after - before);
    return 0;
}
