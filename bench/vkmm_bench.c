/* vkmm benchmarks: the same compute workloads on vkmm and on lavapipe, in
 * one process (both drivers loaded through the Vulkan loader), alternating
 * runs, printing each driver's time and the vkmm speed-up.  Timing never
 * fails anything: this is a measurement tool, not a test.
 *
 * Run through scripts/run-bench.sh, which points VK_ICD_FILENAMES at both
 * drivers and sets VKMM_MODE=fast.  For profiling: VKMM_BENCH_ONLY=<index>
 * runs one workload, VKMM_BENCH_VKMM_ONLY=1 skips lavapipe. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        VkResult check_ = (call);                                                    \
        if (check_ != VK_SUCCESS) {                                                  \
            fprintf(stderr, "%s failed: %d (line %d)\n", #call, check_, __LINE__);   \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* VKMM_BENCH_SCALE=k divides the data of each workload by 2^k (SGEMM's
 * side by 2^(k/2)): scripts/run-strict-bench.sh runs strict mode, whose
 * engine keeps tens of bytes of state per byte, on smaller data. */
static unsigned scale_shift(void)
{
    const char *text = getenv("VKMM_BENCH_SCALE");
    unsigned k = text ? (unsigned)atoi(text) : 0;
    return k > 8 ? 8 : k;
}

struct driver {
    const char *label;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    uint32_t host_type;
    VkFence fence;
};

struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
};

struct kernel {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
};

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* --- Set-up -------------------------------------------------------------------- */

static void open_driver(VkInstance instance, VkPhysicalDevice physical, struct driver *d)
{
    d->physical = physical;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0, .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
    };
    CHECK(vkCreateDevice(physical, &info, NULL, &d->device));
    vkGetDeviceQueue(d->device, 0, 0, &d->queue);
    VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
    };
    CHECK(vkCreateCommandPool(d->device, &pool, NULL, &d->pool));
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < memory.memoryTypeCount; i++) {
        if ((memory.memoryTypes[i].propertyFlags & want) == want) {
            d->host_type = i;
            break;
        }
    }
    VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    CHECK(vkCreateFence(d->device, &fence, NULL, &d->fence));
    (void)instance;
}

static void close_driver(struct driver *d)
{
    vkDestroyFence(d->device, d->fence, NULL);
    vkDestroyCommandPool(d->device, d->pool, NULL);
    vkDestroyDevice(d->device, NULL);
}

static struct buffer make_buffer(struct driver *d, VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct buffer b = { .size = size };
    VkBufferCreateInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage };
    CHECK(vkCreateBuffer(d->device, &info, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->device, b.buffer, &req);
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = d->host_type,
    };
    CHECK(vkAllocateMemory(d->device, &alloc, NULL, &b.memory));
    CHECK(vkBindBufferMemory(d->device, b.buffer, b.memory, 0));
    CHECK(vkMapMemory(d->device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
    return b;
}

static struct buffer storage(struct driver *d, VkDeviceSize size)
{
    return make_buffer(d, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
}

static void free_buffer(struct driver *d, struct buffer *b)
{
    vkDestroyBuffer(d->device, b->buffer, NULL);
    vkFreeMemory(d->device, b->memory, NULL);
}

static uint32_t *read_spirv(const char *name, size_t *size)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s.spv", VKMM_BENCH_SHADER_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = malloc(*size);
    if (!words || fread(words, 1, *size, f) != *size)
        exit(1);
    fclose(f);
    return words;
}

/* `types` lists the descriptor type of bindings 0..count-1. */
static struct kernel make_kernel_specialized(struct driver *d, const char *name, uint32_t count,
                                             const VkDescriptorType *types, const struct buffer *const *buffers,
                                             uint32_t push_size, const VkSpecializationInfo *specialization)
{
    struct kernel k = { 0 };
    size_t size;
    uint32_t *words = read_spirv(name, &size);
    VkShaderModuleCreateInfo module = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = words };
    CHECK(vkCreateShaderModule(d->device, &module, NULL, &k.module));
    free(words);
    VkDescriptorSetLayoutBinding bindings[8];
    VkDescriptorPoolSize sizes[8];
    for (uint32_t i = 0; i < count; i++) {
        bindings[i] = (VkDescriptorSetLayoutBinding){ i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
        sizes[i] = (VkDescriptorPoolSize){ types[i], 1 };
    }
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = count, .pBindings = bindings,
    };
    CHECK(vkCreateDescriptorSetLayout(d->device, &set_info, NULL, &k.set_layout));
    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size };
    VkPipelineLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &k.set_layout,
        .pushConstantRangeCount = push_size ? 1 : 0, .pPushConstantRanges = &range,
    };
    CHECK(vkCreatePipelineLayout(d->device, &layout, NULL, &k.layout));
    VkComputePipelineCreateInfo pipeline = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = k.module, .pName = "main", .pSpecializationInfo = specialization },
        .layout = k.layout,
    };
    CHECK(vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 1, &pipeline, NULL, &k.pipeline));
    VkDescriptorPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = count, .pPoolSizes = sizes,
    };
    CHECK(vkCreateDescriptorPool(d->device, &pool, NULL, &k.descriptor_pool));
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = k.descriptor_pool,
        .descriptorSetCount = 1, .pSetLayouts = &k.set_layout,
    };
    CHECK(vkAllocateDescriptorSets(d->device, &alloc, &k.set));
    for (uint32_t i = 0; i < count; i++) {
        VkDescriptorBufferInfo info = { buffers[i]->buffer, 0, VK_WHOLE_SIZE };
        VkWriteDescriptorSet write = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = k.set, .dstBinding = i,
            .descriptorCount = 1, .descriptorType = types[i], .pBufferInfo = &info,
        };
        vkUpdateDescriptorSets(d->device, 1, &write, 0, NULL);
    }
    return k;
}

static struct kernel make_kernel(struct driver *d, const char *name, uint32_t count, const VkDescriptorType *types,
                                 const struct buffer *const *buffers, uint32_t push_size)
{
    return make_kernel_specialized(d, name, count, types, buffers, push_size, NULL);
}

static void free_kernel(struct driver *d, struct kernel *k)
{
    vkDestroyDescriptorPool(d->device, k->descriptor_pool, NULL);
    vkDestroyPipeline(d->device, k->pipeline, NULL);
    vkDestroyPipelineLayout(d->device, k->layout, NULL);
    vkDestroyDescriptorSetLayout(d->device, k->set_layout, NULL);
    vkDestroyShaderModule(d->device, k->module, NULL);
}

static VkCommandBuffer begin(struct driver *d)
{
    VkCommandBufferAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = d->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(d->device, &info, &cmd));
    VkCommandBufferBeginInfo begin_info = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    CHECK(vkBeginCommandBuffer(cmd, &begin_info));
    return cmd;
}

static void record_dispatch(VkCommandBuffer cmd, const struct kernel *k, const void *push, uint32_t push_size,
                            uint32_t x, uint32_t y)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, 1, &k->set, 0, NULL);
    if (push_size)
        vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size, push);
    vkCmdDispatch(cmd, x, y, 1);
}

static void submit_wait(struct driver *d, VkCommandBuffer cmd)
{
    VkSubmitInfo submit = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    CHECK(vkQueueSubmit(d->queue, 1, &submit, d->fence));
    CHECK(vkWaitForFences(d->device, 1, &d->fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(d->device, 1, &d->fence));
}

/* Best time of `repeats` submissions of `cmd` (VKMM_BENCH_REPEATS=n: n
 * instead, so that a profile holds mostly the steady state). */
static double time_submissions(struct driver *d, VkCommandBuffer cmd, int repeats)
{
    const char *text = getenv("VKMM_BENCH_REPEATS");
    if (text && atoi(text) > 0)
        repeats = atoi(text);
    submit_wait(d, cmd); /* warm-up */
    double best = 1e30;
    for (int r = 0; r < repeats; r++) {
        double start = now();
        submit_wait(d, cmd);
        double elapsed = now() - start;
        if (elapsed < best)
            best = elapsed;
    }
    return best;
}

/* --- Workloads ------------------------------------------------------------------- */

struct result {
    double seconds;
    double rate; /* in the workload's unit */
    bool correct;
};

static struct result bench_triad(struct driver *d)
{
    const uint32_t n = (1u << 22) >> scale_shift(); /* vec4s: 64 MiB per array at scale 0 */
    struct buffer b = storage(d, n * 16ull), c = storage(d, n * 16ull), a = storage(d, n * 16ull);
    float *fb = b.mapped, *fc = c.mapped;
    for (uint32_t i = 0; i < n * 4; i++) {
        fb[i] = (float)(i % 1000);
        fc[i] = (float)(i % 7);
    }
    const VkDescriptorType types[3] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[3] = { &b, &c, &a };
    struct kernel k = make_kernel(d, "triad", 3, types, buffers, 8);
    struct { float s; uint32_t n; } push = { 3.0f, n };
    VkCommandBuffer cmd = begin(d);
    record_dispatch(cmd, &k, &push, sizeof(push), n / 256, 1);
    CHECK(vkEndCommandBuffer(cmd));
    struct result r = { .seconds = time_submissions(d, cmd, 5) };
    r.rate = 3.0 * n * 16 / r.seconds / 1e9;
    const float *fa = a.mapped;
    r.correct = fa[12345] == fb[12345] + 3.0f * fc[12345] && fa[n * 4 - 1] == fb[n * 4 - 1] + 3.0f * fc[n * 4 - 1];
    free_kernel(d, &k);
    free_buffer(d, &a), free_buffer(d, &b), free_buffer(d, &c);
    return r;
}

static struct result bench_reduce(struct driver *d)
{
    const uint32_t groups = (1u << 14) >> scale_shift(), n = groups * 256;
    struct buffer in = storage(d, n * 4ull), out = storage(d, groups * 4ull);
    float *data = in.mapped;
    for (uint32_t i = 0; i < n; i++)
        data[i] = (float)(i % 16);
    const VkDescriptorType types[2] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[2] = { &in, &out };
    struct kernel k = make_kernel(d, "reduce", 2, types, buffers, 0);
    VkCommandBuffer cmd = begin(d);
    record_dispatch(cmd, &k, NULL, 0, groups, 1);
    CHECK(vkEndCommandBuffer(cmd));
    struct result r = { .seconds = time_submissions(d, cmd, 5) };
    r.rate = n * 4.0 / r.seconds / 1e9;
    r.correct = ((float *)out.mapped)[groups - 1] == 16.0f * 7.5f * 16.0f;
    free_kernel(d, &k);
    free_buffer(d, &in), free_buffer(d, &out);
    return r;
}

static struct result bench_sgemm(struct driver *d)
{
    const uint32_t n = 512u >> (scale_shift() / 2);
    struct buffer a = storage(d, n * n * 4ull), b = storage(d, n * n * 4ull), c = storage(d, n * n * 4ull);
    float *fa = a.mapped, *fb = b.mapped;
    for (uint32_t i = 0; i < n * n; i++) {
        fa[i] = (float)(i % 13) * 0.5f;
        fb[i] = (float)(i % 7) - 3.0f;
    }
    const VkDescriptorType types[3] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[3] = { &a, &b, &c };
    struct kernel k = make_kernel(d, "sgemm", 3, types, buffers, 4);
    VkCommandBuffer cmd = begin(d);
    record_dispatch(cmd, &k, &n, 4, n / 16, n / 16);
    CHECK(vkEndCommandBuffer(cmd));
    struct result r = { .seconds = time_submissions(d, cmd, 3) };
    r.rate = 2.0 * n * n * n / r.seconds / 1e9;
    double expected = 0;
    for (uint32_t kk = 0; kk < n; kk++)
        expected += (double)fa[7 * n + kk] * fb[kk * n + 9];
    r.correct = fabs(((float *)c.mapped)[7 * n + 9] - expected) < 1e-3 * fabs(expected) + 1e-3;
    free_kernel(d, &k);
    free_buffer(d, &a), free_buffer(d, &b), free_buffer(d, &c);
    return r;
}

static struct result bench_atomics(struct driver *d)
{
    const uint32_t n = (1u << 22) >> scale_shift();
    struct buffer in = storage(d, n * 4ull), bins = storage(d, 256 * 4);
    uint32_t *data = in.mapped;
    for (uint32_t i = 0; i < n; i++)
        data[i] = i * 2654435761u >> 7;
    const VkDescriptorType types[2] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[2] = { &in, &bins };
    struct kernel k = make_kernel(d, "histogram", 2, types, buffers, 0);
    VkCommandBuffer cmd = begin(d);
    vkCmdFillBuffer(cmd, bins.buffer, 0, VK_WHOLE_SIZE, 0);
    VkMemoryBarrier barrier = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                         NULL, 0, NULL);
    record_dispatch(cmd, &k, NULL, 0, n / 256, 1);
    CHECK(vkEndCommandBuffer(cmd));
    struct result r = { .seconds = time_submissions(d, cmd, 3) };
    r.rate = n / r.seconds / 1e9;
    uint64_t total = 0;
    for (int i = 0; i < 256; i++)
        total += ((uint32_t *)bins.mapped)[i];
    r.correct = total == n;
    free_kernel(d, &k);
    free_buffer(d, &in), free_buffer(d, &bins);
    return r;
}

static struct result bench_prefix(struct driver *d)
{
    const uint32_t n = (1u << 22) >> scale_shift();
    struct buffer in = storage(d, n * 4ull), out = storage(d, n * 4ull);
    uint32_t *data = in.mapped;
    for (uint32_t i = 0; i < n; i++)
        data[i] = i % 3;
    const VkDescriptorType types[2] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[2] = { &in, &out };
    struct kernel k = make_kernel(d, "prefix", 2, types, buffers, 0);
    VkCommandBuffer cmd = begin(d);
    record_dispatch(cmd, &k, NULL, 0, n / 256, 1);
    CHECK(vkEndCommandBuffer(cmd));
    struct result r = { .seconds = time_submissions(d, cmd, 3) };
    r.rate = n * 8.0 / r.seconds / 1e9;
    r.correct = ((uint32_t *)out.mapped)[0] == data[0];
    free_kernel(d, &k);
    free_buffer(d, &in), free_buffer(d, &out);
    return r;
}

static struct result bench_tiny_dispatches(struct driver *d)
{
    const uint32_t count = 1000;
    struct buffer counter = storage(d, 16);
    const VkDescriptorType types[1] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    const struct buffer *buffers[1] = { &counter };
    struct kernel k = make_kernel(d, "tiny", 1, types, buffers, 0);
    VkCommandBuffer cmd = begin(d);
    VkMemoryBarrier barrier = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT };
    for (uint32_t i = 0; i < count; i++) {
        record_dispatch(cmd, &k, NULL, 0, 1, 1);
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                             &barrier, 0, NULL, 0, NULL);
    }
    CHECK(vkEndCommandBuffer(cmd));
    *(uint32_t *)counter.mapped = 0;
    struct result r = { .seconds = time_submissions(d, cmd, 3) / count };
    r.rate = r.seconds * 1e6;
    r.correct = *(uint32_t *)counter.mapped == count * 4; /* warm-up + 3 timed runs */
    free_kernel(d, &k);
    free_buffer(d, &counter);
    return r;
}

static struct result bench_round_trip(struct driver *d)
{
    VkCommandBuffer cmd = begin(d);
    CHECK(vkEndCommandBuffer(cmd));
    const int count = 2000;
    submit_wait(d, cmd);
    double start = now();
    for (int i = 0; i < count; i++)
        submit_wait(d, cmd);
    struct result r = { .seconds = (now() - start) / count, .correct = true };
    r.rate = r.seconds * 1e6;
    return r;
}

static struct result bench_compile(struct driver *d)
{
    struct buffer in = storage(d, 64 * 16), out = storage(d, 64 * 16);
    struct buffer params = make_buffer(d, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    const VkDescriptorType types[3] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER };
    const struct buffer *buffers[3] = { &in, &out, &params };
    double best = 1e30;
    static uint32_t variant = 0;
    for (int i = 0; i < 3; i++) {
        /* A new specialization each time: no driver may answer from a cache. */
        uint32_t scale = ++variant;
        VkSpecializationMapEntry entry = { 0, 0, sizeof(scale) };
        VkSpecializationInfo specialization = { 1, &entry, sizeof(scale), &scale };
        double start = now();
        struct kernel k = make_kernel_specialized(d, "medium", 3, types, buffers, 0, &specialization);
        double elapsed = now() - start;
        if (elapsed < best)
            best = elapsed;
        free_kernel(d, &k);
    }
    free_buffer(d, &in), free_buffer(d, &out), free_buffer(d, &params);
    struct result r = { .seconds = best, .rate = best * 1e3, .correct = true };
    return r;
}

struct workload {
    const char *name;
    const char *unit;
    bool higher_is_better;
    struct result (*run)(struct driver *d);
};

static const struct workload workloads[] = {
    { "stream triad (vec4, 3x64 MiB)", "GB/s", true, bench_triad },
    { "barrier-heavy reduction", "GB/s", true, bench_reduce },
    { "shared-memory tiled SGEMM 512", "GFLOP/s", true, bench_sgemm },
    { "atomic histogram", "G atomics/s", true, bench_atomics },
    { "subgroup inclusive add", "GB/s", true, bench_prefix },
    { "tiny dispatches (1000 in one CB)", "us each", false, bench_tiny_dispatches },
    { "submit + fence round trip", "us each", false, bench_round_trip },
    { "compile a medium shader", "ms", false, bench_compile },
};

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2;
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo info = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    VkInstance instance;
    CHECK(vkCreateInstance(&info, NULL, &instance));
    uint32_t count = 8;
    VkPhysicalDevice physical[8];
    vkEnumeratePhysicalDevices(instance, &count, physical);
    struct driver drivers[2] = { { .label = "vkmm" }, { .label = "lavapipe" } };
    bool found[2] = { false, false };
    for (uint32_t i = 0; i < count; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(physical[i], &p);
        int which = strncmp(p.deviceName, "vkmm", 4) == 0 ? 0 : strstr(p.deviceName, "llvmpipe") ? 1 : -1;
        if (which >= 0 && !found[which]) {
            open_driver(instance, physical[i], &drivers[which]);
            found[which] = true;
        }
    }
    if (!found[0] || !found[1]) {
        fprintf(stderr, "need both vkmm and lavapipe (VK_ICD_FILENAMES should list both manifests)\n");
        return 1;
    }
    printf("%-36s %14s %14s %10s  %s\n", "workload", "vkmm", "lavapipe", "speed-up", "unit");
    double log_sum = 0;
    int counted = 0;
    const char *only = getenv("VKMM_BENCH_ONLY");
    const char *vkmm_only = getenv("VKMM_BENCH_VKMM_ONLY");
    int driver_count = vkmm_only && *vkmm_only == '1' ? 1 : 2;
    for (size_t w = 0; w < sizeof(workloads) / sizeof(workloads[0]); w++) {
        if (only && (size_t)atoi(only) != w)
            continue;
        struct result best[2] = { { 1e30, 0, true }, { 1e30, 0, true } };
        for (int round = 0; round < rounds; round++) {
            for (int which = 0; which < driver_count; which++) { /* alternating */
                struct result r = workloads[w].run(&drivers[which]);
                if (r.seconds < best[which].seconds)
                    best[which] = r;
                best[which].correct &= r.correct;
            }
        }
        double speedup = best[1].seconds / best[0].seconds;
        log_sum += log(speedup);
        counted++;
        printf("%-36s %14.3f %14.3f %9.2fx  %s%s%s\n", workloads[w].name, best[0].rate, best[1].rate, speedup,
               workloads[w].unit, best[0].correct ? "" : "  [vkmm WRONG RESULT]",
               best[1].correct ? "" : "  [lavapipe WRONG RESULT]");
    }
    printf("%-36s %14s %14s %9.2fx\n", "geometric mean speed-up", "", "", exp(log_sum / counted));
    for (int i = 0; i < 2; i++)
        close_driver(&drivers[i]);
    vkDestroyInstance(instance, NULL);
    return 0;
}
