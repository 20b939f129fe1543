/* Allocation-failure sweep (issue #11): a small but complete compute
 * session — device, buffer and memory, descriptors, a compute pipeline with
 * a pipeline cache and its data, a command buffer recording a dispatch and
 * a copy, a submission with a fence and its wait, then destruction — run
 * again and again with vkmm's N-th host allocation failing, N = 0, 1, 2, ...
 * until a run completes without reaching an N-th allocation.
 *
 * After each run: the failing call returned VK_ERROR_OUT_OF_HOST_MEMORY (or
 * a code the spec documents for that call), vkmm said why through
 * VK_EXT_debug_utils, the scenario stopped and destroyed what existed, and
 * every allocation made through the callbacks (vkmm's and the loader's) was
 * freed.  A run that absorbs the failure (vkmm did without that allocation)
 * must still compute the right answer.
 *
 * Only vkmm's allocation calls count towards N (the loader's pass through:
 * allocation_callbacks.c covers those); the instance and its messenger use
 * no callbacks, so the sweep starts at vkCreateDevice.  Memory vkmm takes
 * from libc (LLVM, SPIRV-Tools, the compiled code) is outside the count;
 * LeakSanitizer checks that.  No validation layer: it allocates through the
 * callbacks too and is not what is under test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vkmm_test.h"

/* Every N up to DENSE_LIMIT, then every SPARSE_STEP-th: a full run makes
 * about 50 allocations today (strict mode), so every one is tried; a
 * larger scenario would repeat the same paths past the first few hundred
 * (command recording, per-command records), each run recompiling the
 * shader. */
#define DENSE_LIMIT 200
#define SPARSE_STEP 7
#define MAX_RUNS 2000

/* --- Allocation tracking ------------------------------------------------ */

/* VKMM_SWEEP_VERBOSE=1: each run's N and where the failing allocation was
 * made, on stderr, to find the run that crashes. */
static bool verbose;

struct allocation {
    void *pointer;
    size_t size;
    bool vkmm;
};

/* Live allocations, and the failure to inject: vkmm's allocation call
 * number fail_at (counted from arm()).  Queue threads (fast mode) allocate
 * and free too, hence the lock. */
static struct {
    pthread_mutex_t lock;
    struct allocation *items;
    size_t count, capacity;
    int64_t fail_at; /* -1: never */
    uint32_t vkmm_calls;
    uint32_t injected;
    uint32_t bad_frees;
} tracker = { .lock = PTHREAD_MUTEX_INITIALIZER, .fail_at = -1 };

static bool called_from_vkmm(const void *return_address)
{
    Dl_info info;
    if (!dladdr(return_address, &info) || !info.dli_fname)
        return false;
    return strstr(info.dli_fname, "libvkmm") != NULL;
}

/* Allocations made while device work executes — inside vkWaitForFences and
 * vkDeviceWaitIdle (strict mode runs the work there) and on vkmm's queue
 * threads (fast mode) — are failed too (VKMM_SWEEP_EXECUTION=0 leaves them
 * alone).  vkmm cannot return an error from inside running work: a
 * dispatch whose strict-mode set-up or access recording cannot allocate,
 * and any strict-mode engine call that could not keep the machine's state
 * (a write path, a shadow block, a version), end in device loss with a
 * message (exec/dispatch.c, strict/dispatch_access.c); failures vkmm absorbs (the command
 * graph falls back to submission order with a warning) must give the right
 * results. */
static bool sweep_execution;
static pthread_t test_thread;
static bool in_wait; /* test thread only */

static bool injectable(void)
{
    if (sweep_execution)
        return true;
    return pthread_equal(pthread_self(), test_thread) && !in_wait;
}

/* Lock held. */
static void *allocate_locked(size_t size, size_t alignment, bool vkmm)
{
    if (vkmm && injectable() && tracker.vkmm_calls++ == (uint64_t)tracker.fail_at) {
        tracker.injected++;
        if (verbose) {
            void *frames[12];
            int depth = backtrace(frames, 12);
            backtrace_symbols_fd(frames, depth, 2);
        }
        return NULL;
    }
    void *pointer = NULL;
    if (posix_memalign(&pointer, alignment < sizeof(void *) ? sizeof(void *) : alignment, size ? size : 1))
        return NULL;
    if (tracker.count == tracker.capacity) {
        tracker.capacity = tracker.capacity ? tracker.capacity * 2 : 256;
        tracker.items = realloc(tracker.items, tracker.capacity * sizeof(*tracker.items));
        if (!tracker.items)
            abort();
    }
    tracker.items[tracker.count++] = (struct allocation){ pointer, size, vkmm };
    return pointer;
}

/* Lock held. */
static bool forget_locked(void *pointer, struct allocation *out)
{
    for (size_t i = tracker.count; i-- > 0;) {
        if (tracker.items[i].pointer == pointer) {
            *out = tracker.items[i];
            tracker.items[i] = tracker.items[--tracker.count];
            return true;
        }
    }
    tracker.bad_frees++;
    return false;
}

static void *VKAPI_PTR on_allocation(void *user, size_t size, size_t alignment, VkSystemAllocationScope scope)
{
    (void)user, (void)scope;
    bool vkmm = called_from_vkmm(__builtin_return_address(0));
    pthread_mutex_lock(&tracker.lock);
    void *pointer = allocate_locked(size, alignment, vkmm);
    pthread_mutex_unlock(&tracker.lock);
    return pointer;
}

static void VKAPI_PTR on_free(void *user, void *pointer)
{
    (void)user;
    if (!pointer)
        return;
    pthread_mutex_lock(&tracker.lock);
    struct allocation a;
    bool known = forget_locked(pointer, &a);
    pthread_mutex_unlock(&tracker.lock);
    if (known)
        free(pointer);
}

static void *VKAPI_PTR on_reallocation(void *user, void *original, size_t size, size_t alignment,
                                       VkSystemAllocationScope scope)
{
    (void)scope;
    bool vkmm = called_from_vkmm(__builtin_return_address(0));
    if (!original) {
        pthread_mutex_lock(&tracker.lock);
        void *pointer = allocate_locked(size, alignment, vkmm);
        pthread_mutex_unlock(&tracker.lock);
        return pointer;
    }
    if (size == 0) {
        on_free(user, original);
        return NULL;
    }
    pthread_mutex_lock(&tracker.lock);
    void *pointer = allocate_locked(size, alignment, vkmm);
    struct allocation old = { 0 };
    if (pointer && forget_locked(original, &old))
        memcpy(pointer, original, old.size < size ? old.size : size);
    pthread_mutex_unlock(&tracker.lock);
    if (pointer && old.pointer)
        free(original);
    return pointer;
}

static const VkAllocationCallbacks callbacks = {
    .pfnAllocation = on_allocation,
    .pfnReallocation = on_reallocation,
    .pfnFree = on_free,
};

static void arm(int64_t fail_at)
{
    pthread_mutex_lock(&tracker.lock);
    tracker.fail_at = fail_at;
    tracker.vkmm_calls = 0;
    tracker.injected = 0;
    pthread_mutex_unlock(&tracker.lock);
}

static uint32_t injected(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = tracker.injected;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static uint32_t vkmm_calls(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = tracker.vkmm_calls;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

static void print_live(void)
{
    pthread_mutex_lock(&tracker.lock);
    for (size_t i = 0; i < tracker.count && i < 20; i++)
        fprintf(stderr, "  live: %zu bytes%s\n", tracker.items[i].size, tracker.items[i].vkmm ? " (vkmm)" : "");
    pthread_mutex_unlock(&tracker.lock);
}

static uint32_t live(void)
{
    pthread_mutex_lock(&tracker.lock);
    uint32_t n = (uint32_t)tracker.count;
    pthread_mutex_unlock(&tracker.lock);
    return n;
}

/* --- Messages ------------------------------------------------------------ */

/* vkmm's error messages (VK_ERROR_* and VKMM-* IDs) seen so far. */
static struct {
    pthread_mutex_t lock;
    uint32_t errors;
    uint32_t other_errors; /* of which not about running out of host memory */
    char last_id[128];
    char last[512];
} messages = { .lock = PTHREAD_MUTEX_INITIALIZER };

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types, (void)user;
    if (!(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT))
        return VK_FALSE;
    const char *id = data->pMessageIdName ? data->pMessageIdName : "";
    pthread_mutex_lock(&messages.lock);
    messages.errors++;
    if (strcmp(id, "VK_ERROR_OUT_OF_HOST_MEMORY") != 0)
        messages.other_errors++;
    snprintf(messages.last_id, sizeof(messages.last_id), "%s", id);
    snprintf(messages.last, sizeof(messages.last), "%s", data->pMessage ? data->pMessage : "");
    pthread_mutex_unlock(&messages.lock);
    return VK_FALSE;
}

static uint32_t error_messages(void)
{
    pthread_mutex_lock(&messages.lock);
    uint32_t n = messages.errors;
    pthread_mutex_unlock(&messages.lock);
    return n;
}

/* --- The scenario ----------------------------------------------------------- */

#define ELEMENTS 256u
#define REGION (ELEMENTS * sizeof(float)) /* a, b, c (dispatch output), d (copy of c) */

struct session {
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkBuffer buffer;
    VkDeviceMemory memory;
    float *mapped;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkShaderModule module;
    VkPipelineLayout pipeline_layout;
    VkPipelineCache cache;
    VkPipeline pipeline;
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    bool submitted;
};

/* What one run ended with. */
struct outcome {
    const char *failed_call; /* NULL: the scenario completed */
    VkResult result;
    bool result_documented; /* the code is one the spec lists for that call */
    bool message;           /* vkmm logged an error message for it */
    bool handles_null;      /* the failing call left its output handles VK_NULL_HANDLE */
    bool correct;           /* completed runs: the right numbers */
    size_t cache_data_size;
};

static uint32_t *spirv;
static size_t spirv_size;

static bool documented(VkResult result, VkResult other)
{
    return result == VK_ERROR_OUT_OF_HOST_MEMORY || (other != VK_SUCCESS && result == other);
}

/* Records a failing call; returns true when `result` is a failure. */
static bool failed(struct outcome *o, const char *call, VkResult result, VkResult other, uint32_t errors_before)
{
    if (result == VK_SUCCESS)
        return false;
    o->failed_call = call;
    o->result = result;
    o->result_documented = documented(result, other);
    o->message = error_messages() > errors_before;
    return true;
}

#define STEP(call_text, expression, other)                                          \
    do {                                                                            \
        uint32_t errors_before_ = error_messages();                                 \
        VkResult step_result_ = (expression);                                       \
        if (failed(o, call_text, step_result_, other, errors_before_))              \
            return;                                                                 \
    } while (0)

static VkResult create_device(struct session *s)
{
    static const float priority = 1;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 0,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
    };
    return vkCreateDevice(s->physical_device, &info, &callbacks, &s->device);
}

static uint32_t coherent_memory_type(VkPhysicalDevice pd, uint32_t allowed)
{
    VkPhysicalDeviceMemoryProperties p;
    vkGetPhysicalDeviceMemoryProperties(pd, &p);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < p.memoryTypeCount; i++) {
        if ((allowed & (1u << i)) && (p.memoryTypes[i].propertyFlags & want) == want)
            return i;
    }
    fail_msg("no host-visible coherent memory type");
    return 0;
}

static void record(struct session *s)
{
    vkCmdBindPipeline(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline);
    vkCmdBindDescriptorSets(s->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline_layout, 0, 1, &s->set, 0, NULL);
    struct {
        uint32_t n;
        float scale;
    } push = { ELEMENTS, 3.0f };
    vkCmdPushConstants(s->cmd, s->pipeline_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(s->cmd, ELEMENTS / 64, 1, 1);
    VkMemoryBarrier to_copy = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
    };
    vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                         &to_copy, 0, NULL, 0, NULL);
    VkBufferCopy region = { .srcOffset = 2 * REGION, .dstOffset = 3 * REGION, .size = REGION };
    vkCmdCopyBuffer(s->cmd, s->buffer, s->buffer, 1, &region);
    VkMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(s->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
}

/* Runs the scenario until a call fails; `s` holds what exists. */
static void run_scenario(struct session *s, struct outcome *o)
{
    STEP("vkCreateDevice", create_device(s), VK_SUCCESS);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(s->device, 0, 0, &queue);
    assert_non_null(queue);

    VkBufferCreateInfo buffer_info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = 4 * REGION,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
    };
    STEP("vkCreateBuffer", vkCreateBuffer(s->device, &buffer_info, &callbacks, &s->buffer), VK_SUCCESS);
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(s->device, s->buffer, &requirements);
    VkMemoryAllocateInfo memory_info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = coherent_memory_type(s->physical_device, requirements.memoryTypeBits),
    };
    STEP("vkAllocateMemory", vkAllocateMemory(s->device, &memory_info, &callbacks, &s->memory),
         VK_ERROR_OUT_OF_DEVICE_MEMORY);
    STEP("vkBindBufferMemory", vkBindBufferMemory(s->device, s->buffer, s->memory, 0), VK_ERROR_OUT_OF_DEVICE_MEMORY);
    void *mapped = NULL;
    STEP("vkMapMemory", vkMapMemory(s->device, s->memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_ERROR_MEMORY_MAP_FAILED);
    s->mapped = mapped;
    for (uint32_t i = 0; i < ELEMENTS; i++) {
        s->mapped[i] = (float)i;                /* a */
        s->mapped[ELEMENTS + i] = (float)(2 * i); /* b */
    }

    VkDescriptorSetLayoutBinding bindings[3];
    for (uint32_t i = 0; i < 3; i++) {
        bindings[i] = (VkDescriptorSetLayoutBinding){
            .binding = i,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        };
    }
    VkDescriptorSetLayoutCreateInfo set_layout_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 3,
        .pBindings = bindings,
    };
    STEP("vkCreateDescriptorSetLayout",
         vkCreateDescriptorSetLayout(s->device, &set_layout_info, &callbacks, &s->set_layout), VK_SUCCESS);
    VkDescriptorPoolSize pool_size = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &pool_size,
    };
    STEP("vkCreateDescriptorPool", vkCreateDescriptorPool(s->device, &pool_info, &callbacks, &s->descriptor_pool),
         VK_SUCCESS);
    VkDescriptorSetAllocateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = s->descriptor_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &s->set_layout,
    };
    s->set = (VkDescriptorSet)(uintptr_t)0xdead;
    uint32_t errors_before = error_messages();
    VkResult result = vkAllocateDescriptorSets(s->device, &set_info, &s->set);
    if (failed(o, "vkAllocateDescriptorSets", result, VK_SUCCESS, errors_before)) {
        o->handles_null = s->set == VK_NULL_HANDLE;
        s->set = VK_NULL_HANDLE;
        return;
    }
    VkDescriptorBufferInfo descriptors[3];
    VkWriteDescriptorSet writes[3];
    for (uint32_t i = 0; i < 3; i++) {
        descriptors[i] = (VkDescriptorBufferInfo){ s->buffer, i * REGION, REGION };
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = s->set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &descriptors[i],
        };
    }
    vkUpdateDescriptorSets(s->device, 3, writes, 0, NULL);

    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = spirv_size,
        .pCode = spirv,
    };
    STEP("vkCreateShaderModule", vkCreateShaderModule(s->device, &module_info, &callbacks, &s->module),
         VK_SUCCESS);
    VkPushConstantRange push_range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 8 };
    VkPipelineLayoutCreateInfo pipeline_layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &s->set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push_range,
    };
    STEP("vkCreatePipelineLayout",
         vkCreatePipelineLayout(s->device, &pipeline_layout_info, &callbacks, &s->pipeline_layout), VK_SUCCESS);
    VkPipelineCacheCreateInfo cache_info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    STEP("vkCreatePipelineCache", vkCreatePipelineCache(s->device, &cache_info, &callbacks, &s->cache), VK_SUCCESS);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = s->module,
            .pName = "main",
        },
        .layout = s->pipeline_layout,
    };
    s->pipeline = (VkPipeline)(uintptr_t)0xdead;
    errors_before = error_messages();
    result = vkCreateComputePipelines(s->device, s->cache, 1, &pipeline_info, &callbacks, &s->pipeline);
    if (failed(o, "vkCreateComputePipelines", result, VK_SUCCESS, errors_before)) {
        o->handles_null = s->pipeline == VK_NULL_HANDLE;
        s->pipeline = VK_NULL_HANDLE;
        return;
    }
    size_t cache_size = 0;
    STEP("vkGetPipelineCacheData(size)", vkGetPipelineCacheData(s->device, s->cache, &cache_size, NULL), VK_SUCCESS);
    void *cache_data = malloc(cache_size ? cache_size : 1);
    assert_non_null(cache_data);
    errors_before = error_messages();
    result = vkGetPipelineCacheData(s->device, s->cache, &cache_size, cache_data);
    free(cache_data);
    if (failed(o, "vkGetPipelineCacheData", result, VK_SUCCESS, errors_before))
        return;
    o->cache_data_size = cache_size;

    VkCommandPoolCreateInfo command_pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = 0,
    };
    STEP("vkCreateCommandPool", vkCreateCommandPool(s->device, &command_pool_info, &callbacks, &s->command_pool),
         VK_SUCCESS);
    VkCommandBufferAllocateInfo cmd_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = s->command_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    s->cmd = (VkCommandBuffer)(uintptr_t)0xdead;
    errors_before = error_messages();
    result = vkAllocateCommandBuffers(s->device, &cmd_info, &s->cmd);
    if (failed(o, "vkAllocateCommandBuffers", result, VK_SUCCESS, errors_before)) {
        o->handles_null = s->cmd == VK_NULL_HANDLE;
        s->cmd = VK_NULL_HANDLE;
        return;
    }
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    STEP("vkBeginCommandBuffer", vkBeginCommandBuffer(s->cmd, &begin), VK_SUCCESS);
    /* vkCmd* failures are logged when they happen and kept for
     * vkEndCommandBuffer. */
    errors_before = error_messages();
    record(s);
    if (failed(o, "vkEndCommandBuffer", vkEndCommandBuffer(s->cmd), VK_SUCCESS, errors_before))
        return;
    VkFenceCreateInfo fence_info = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    STEP("vkCreateFence", vkCreateFence(s->device, &fence_info, &callbacks, &s->fence), VK_SUCCESS);
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &s->cmd,
    };
    STEP("vkQueueSubmit", vkQueueSubmit(queue, 1, &submit, s->fence), VK_ERROR_DEVICE_LOST);
    s->submitted = true;
    in_wait = true;
    errors_before = error_messages();
    result = vkWaitForFences(s->device, 1, &s->fence, VK_TRUE, UINT64_MAX);
    in_wait = false;
    if (failed(o, "vkWaitForFences", result, VK_ERROR_DEVICE_LOST, errors_before))
        return;

    o->correct = true;
    for (uint32_t i = 0; i < ELEMENTS && o->correct; i++) {
        float expected = (float)i * 3.0f + (float)(2 * i);
        o->correct = s->mapped[2 * ELEMENTS + i] == expected && s->mapped[3 * ELEMENTS + i] == expected;
    }
}

/* Destroys what exists, in reverse order. */
static void destroy_session(struct session *s)
{
    if (!s->device)
        return;
    if (s->submitted) {
        /* After a failed wait the submission may still be pending. */
        in_wait = true;
        VkResult idle = vkDeviceWaitIdle(s->device);
        in_wait = false;
        if (idle != VK_SUCCESS && idle != VK_ERROR_DEVICE_LOST)
            fail_msg("vkDeviceWaitIdle returned %d", idle);
    }
    vkDestroyFence(s->device, s->fence, &callbacks);
    if (s->cmd)
        vkFreeCommandBuffers(s->device, s->command_pool, 1, &s->cmd);
    vkDestroyCommandPool(s->device, s->command_pool, &callbacks);
    vkDestroyPipeline(s->device, s->pipeline, &callbacks);
    vkDestroyPipelineCache(s->device, s->cache, &callbacks);
    vkDestroyPipelineLayout(s->device, s->pipeline_layout, &callbacks);
    vkDestroyShaderModule(s->device, s->module, &callbacks);
    if (s->set)
        VK_CHECK(vkFreeDescriptorSets(s->device, s->descriptor_pool, 1, &s->set));
    vkDestroyDescriptorPool(s->device, s->descriptor_pool, &callbacks);
    vkDestroyDescriptorSetLayout(s->device, s->set_layout, &callbacks);
    if (s->mapped)
        vkUnmapMemory(s->device, s->memory);
    vkDestroyBuffer(s->device, s->buffer, &callbacks);
    vkFreeMemory(s->device, s->memory, &callbacks);
    vkDestroyDevice(s->device, &callbacks);
}

/* --- The sweep ------------------------------------------------------------- */

struct sweep {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDebugUtilsMessengerEXT messenger;
    uint32_t runs, failures_seen, absorbed;
    /* Calls that failed at least once, for the summary. */
    const char *calls[32];
    uint32_t call_failures[32];
    uint32_t call_count;
};

static void count_call(struct sweep *w, const char *call)
{
    for (uint32_t i = 0; i < w->call_count; i++) {
        if (strcmp(w->calls[i], call) == 0) {
            w->call_failures[i]++;
            return;
        }
    }
    if (w->call_count < 32) {
        w->calls[w->call_count] = call;
        w->call_failures[w->call_count++] = 1;
    }
}

/* One run with vkmm's allocation `n` failing (-1: none).  Returns true when
 * no failure was injected (the sweep is over). */
static bool run_once(struct sweep *w, int64_t n)
{
    struct session s = { .physical_device = w->physical_device };
    struct outcome o = { 0 };
    if (verbose)
        fprintf(stderr, "run %lld\n", (long long)n);
    arm(n);
    run_scenario(&s, &o);
    destroy_session(&s);
    const uint32_t failures = injected();
    arm(-1);
    w->runs++;

    if (o.failed_call) {
        w->failures_seen++;
        count_call(w, o.failed_call);
        if (failures == 0)
            fail_msg("run %lld: %s returned %d without an injected failure", (long long)n, o.failed_call, o.result);
        if (!o.result_documented)
            fail_msg("run %lld: %s returned %d after allocation %lld failed (not a code the spec gives it)",
                     (long long)n, o.failed_call, o.result, (long long)n);
        if (!o.message)
            fail_msg("run %lld: %s returned %d without an error message", (long long)n, o.failed_call, o.result);
        if ((strcmp(o.failed_call, "vkAllocateDescriptorSets") == 0 ||
             strcmp(o.failed_call, "vkCreateComputePipelines") == 0 ||
             strcmp(o.failed_call, "vkAllocateCommandBuffers") == 0) &&
            !o.handles_null)
            fail_msg("run %lld: %s failed but left its output handle set", (long long)n, o.failed_call);
    } else {
        if (!o.correct)
            fail_msg("run %lld: the scenario completed with wrong results (%u failures injected)", (long long)n,
                     failures);
        if (failures)
            w->absorbed++;
        if (failures && verbose)
            fprintf(stderr, "run %lld: absorbed\n", (long long)n);
    }
    if (live() != 0) {
        fprintf(stderr, "run %lld (failing call: %s): %u allocations live\n", (long long)n,
                o.failed_call ? o.failed_call : "none", live());
        print_live();
        fail_msg("run %lld: %u allocations through the callbacks were not freed", (long long)n, live());
    }
    assert_int_equal(tracker.bad_frees, 0);
    return failures == 0;
}

static void sweep_init(struct sweep *w)
{
    memset(w, 0, sizeof(*w));
    verbose = getenv("VKMM_SWEEP_VERBOSE") && getenv("VKMM_SWEEP_VERBOSE")[0] == '1';
    sweep_execution = !(getenv("VKMM_SWEEP_EXECUTION") && getenv("VKMM_SWEEP_EXECUTION")[0] == '0');
    test_thread = pthread_self();
    VkDebugUtilsMessengerCreateInfoEXT messenger = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_message,
    };
    const char *extensions[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkmm allocation-failure sweep",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = &messenger,
        .pApplicationInfo = &app,
        .enabledExtensionCount = 1,
        .ppEnabledExtensionNames = extensions,
    };
    VK_CHECK(vkCreateInstance(&info, NULL, &w->instance));
    PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(w->instance, "vkCreateDebugUtilsMessengerEXT");
    assert_non_null(create_messenger);
    VK_CHECK(create_messenger(w->instance, &messenger, NULL, &w->messenger));
    uint32_t count = 1;
    VkResult r = vkEnumeratePhysicalDevices(w->instance, &count, &w->physical_device);
    assert_true(r == VK_SUCCESS || r == VK_INCOMPLETE);
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(w->physical_device, &properties);
    assert_int_equal(REGION % properties.limits.minStorageBufferOffsetAlignment, 0);
    spirv = vkmm_test_load_spirv("add_arrays", &spirv_size);
}

static void sweep_finish(struct sweep *w)
{
    free(spirv);
    spirv = NULL;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(w->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy_messenger(w->instance, w->messenger, NULL);
    vkDestroyInstance(w->instance, NULL);
    free(tracker.items);
    tracker.items = NULL;
    tracker.count = tracker.capacity = 0;
}

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) / 1e9;
}

static void test_allocation_failure_sweep(void **state)
{
    (void)state;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    struct sweep w;
    sweep_init(&w);

    /* A run without failures: it works, and how many allocations it makes. */
    assert_true(run_once(&w, -1));
    arm(-1);
    struct session s = { .physical_device = w.physical_device };
    struct outcome o = { 0 };
    run_scenario(&s, &o);
    const uint32_t total = vkmm_calls();
    destroy_session(&s);
    assert_null(o.failed_call);
    assert_true(o.correct);
    assert_true(o.cache_data_size > 32); /* the pipeline's entry is in the data */
    assert_int_equal(live(), 0);

    /* VKMM_SWEEP_FIRST=N: start there (to look past a known failure). */
    int64_t n = getenv("VKMM_SWEEP_FIRST") ? atoll(getenv("VKMM_SWEEP_FIRST")) : 0;
    while (!run_once(&w, n)) {
        n += n < DENSE_LIMIT ? 1 : SPARSE_STEP;
        assert_true(w.runs < MAX_RUNS);
    }
    printf("allocation-failure sweep (VKMM_MODE=%s): %u vkmm allocations in a full run; %u runs "
           "(N = 0..%d, then every %d-th up to %lld); %u failed cleanly, %u absorbed the failure; %.1f s\n",
           getenv("VKMM_MODE") ? getenv("VKMM_MODE") : "strict", total, w.runs, DENSE_LIMIT, SPARSE_STEP,
           (long long)n, w.failures_seen, w.absorbed, seconds_since(&start));
    for (uint32_t i = 0; i < w.call_count; i++)
        printf("  %-32s failed %u times\n", w.calls[i], w.call_failures[i]);
    assert_true(w.failures_seen > 0);
    sweep_finish(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocation_failure_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
