#include "cf.h"

#include <time.h>

struct cf_state cf;

/* --- Resources destroyed after each case ----------------------------------------- */

enum cf_kind { CF_MEMORY, CF_BUFFER, CF_PIPELINE, CF_SPEC };

struct cf_resource {
    enum cf_kind kind;
    void *object;
};

static struct cf_resource *resources;
static size_t resource_count, resource_capacity;

static void track(enum cf_kind kind, void *object)
{
    if (resource_count == resource_capacity) {
        resource_capacity = resource_capacity ? resource_capacity * 2 : 64;
        resources = realloc(resources, resource_capacity * sizeof(*resources));
        assert_non_null(resources);
    }
    resources[resource_count++] = (struct cf_resource){ kind, object };
}

static void destroy_buffer(struct cf_buffer *b)
{
    VkDevice device = cf.t->device;
    if (b->map)
        vkUnmapMemory(device, b->memory);
    vkDestroyBuffer(device, b->buffer, NULL);
    vkFreeMemory(device, b->memory, NULL);
    free(b);
}

static void destroy_pipeline(struct cf_pipeline *p)
{
    VkDevice device = cf.t->device;
    vkDestroyPipeline(device, p->pipeline, NULL);
    vkDestroyPipelineLayout(device, p->layout, NULL);
    vkDestroyDescriptorPool(device, p->pool, NULL);
    for (uint32_t s = 0; s < p->set_count; s++)
        vkDestroyDescriptorSetLayout(device, p->set_layouts[s], NULL);
    vkDestroyShaderModule(device, p->module, NULL);
    free(p);
}

static void release_all(void)
{
    if (cf.t)
        vkDeviceWaitIdle(cf.t->device);
    while (resource_count) {
        struct cf_resource r = resources[--resource_count];
        switch (r.kind) {
        case CF_MEMORY:
            free(r.object);
            break;
        case CF_BUFFER:
            destroy_buffer(r.object);
            break;
        case CF_PIPELINE:
            destroy_pipeline(r.object);
            break;
        case CF_SPEC: {
            VkSpecializationInfo *s = r.object;
            free((void *)s->pMapEntries);
            free((void *)s->pData);
            free(s);
            break;
        }
        }
    }
}

void *cf_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    assert_non_null(p);
    track(CF_MEMORY, p);
    return p;
}

/* --- Cases ------------------------------------------------------------------------------- */

static uint32_t error_count(void)
{
    return cf.t->validation_errors + cf.t->driver_errors;
}

void cf_test_begin(const char *name)
{
    cf.opt = false;
    cf.errors_before = error_count();
    cf.hazards_before = cf.t->hazard_count;
    /* Every case has its own data, the same on every run. */
    uint32_t h = 2166136261u;
    for (const char *c = name; *c; c++)
        h = (h ^ (uint8_t)*c) * 16777619u;
    cf.seed = h | 1u;
}

void cf_test_end(void)
{
    uint32_t errors = error_count();
    if (errors != cf.errors_before)
        fail_msg("%u validation/driver error message(s); last: [%s] %s", errors - cf.errors_before,
                 cf.t->last_message_id, cf.t->last_message);
    /* Every case is a correctly synchronised program: a strict-mode hazard
     * report would be a false one. */
    if (cf.t->hazard_count != cf.hazards_before)
        fail_msg("%u strict-mode hazard report(s) for a correct program; first of the run: [%s] %s",
                 cf.t->hazard_count - cf.hazards_before, cf.t->hazards[0], cf.t->first_hazard_message);
}

/* One device for the whole run: creating an instance with the validation
 * layer costs about a second under the sanitizers. */
int cf_group_setup(void **state)
{
    if (!cf.t)
        cf.t = vkmm_test_create(NULL);
    *state = cf.t;
    return 0;
}

int cf_group_teardown(void **state)
{
    (void)state;
    release_all();
    return 0;
}

void cf_shutdown(void)
{
    if (!cf.t)
        return;
    release_all();
    free(resources);
    resources = NULL;
    resource_capacity = 0;
    /* Errors seen during the cases were reported by the cases; new ones
     * (objects left alive...) make vkmm_test_destroy fail the run. */
    cf.t->expected_errors = error_count();
    struct vkmm_test *t = cf.t;
    cf.t = NULL;
    vkmm_test_destroy(t);
}

static struct timespec case_start;

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) * 1e-9;
}

int cf_case_setup(void **state)
{
    (void)state;
    clock_gettime(CLOCK_MONOTONIC, &case_start);
    return 0;
}

int cf_case_teardown(void **state)
{
    (void)state;
    /* CF_TIMING=1 prints each case's time. */
    const char *timing = getenv("CF_TIMING");
    if (timing && *timing == '1')
        print_message("  %.3f s\n", seconds_since(&case_start));
    release_all();
    cf.opt = false;
    return 0;
}

uint32_t cf_width(void)
{
    const char *text = getenv("VKMM_SUBGROUP_SIZE");
    unsigned width = text ? (unsigned)strtoul(text, NULL, 10) : 0;
    if (width == 1 || width == 4 || width == 8 || width == 16)
        return width;
    return 8;
}

uint32_t cf_rand(void)
{
    /* xorshift32 */
    uint32_t x = cf.seed;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    cf.seed = x;
    return x;
}

int32_t cf_rand_range(int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    return (int32_t)((int64_t)lo + (int64_t)(cf_rand() % span));
}

float cf_rand_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(cf_rand() >> 8) / 16777216.0f;
}

/* --- Buffers ------------------------------------------------------------------------- */

static struct cf_buffer *make_buffer(VkDeviceSize size, VkMemoryPropertyFlags properties)
{
    struct vkmm_test *t = cf.t;
    struct cf_buffer *b = calloc(1, sizeof(*b));
    assert_non_null(b);
    b->size = size;
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                 VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VK_CHECK(vkCreateBuffer(t->device, &info, NULL, &b->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(t->device, b->buffer, &req);
    VkMemoryPropertyFlags forbidden = (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ? 0
                                                                                       : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
    uint32_t type = vkmm_test_find_memory_type(t, properties, forbidden);
    assert_true(req.memoryTypeBits & (1u << type));
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &flags,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    VkResult r = vkAllocateMemory(t->device, &alloc, NULL, &b->memory);
    if (r != VK_SUCCESS) {
        vkDestroyBuffer(t->device, b->buffer, NULL);
        free(b);
        fail_msg("vkAllocateMemory(%llu) returned %d", (unsigned long long)req.size, r);
    }
    VK_CHECK(vkBindBufferMemory(t->device, b->buffer, b->memory, 0));
    track(CF_BUFFER, b);
    if (properties & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        VK_CHECK(vkMapMemory(t->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
        memset(b->map, 0, size);
    }
    VkBufferDeviceAddressInfo address = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buffer };
    b->address = vkGetBufferDeviceAddress(t->device, &address);
    return b;
}

struct cf_buffer *cf_buffer(VkDeviceSize size)
{
    return make_buffer(size, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

struct cf_buffer *cf_buffer_from(const void *data, VkDeviceSize size)
{
    struct cf_buffer *b = cf_buffer(size);
    memcpy(b->map, data, size);
    return b;
}

struct cf_buffer *cf_buffer_device_local(VkDeviceSize size)
{
    return make_buffer(size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
}

/* --- Pipelines ---------------------------------------------------------------------- */

static uint32_t *load_spirv(const char *name, size_t *size_bytes)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s%s.spv", CF_SHADER_DIR, name, cf.opt ? ".opt" : "");
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *words = cf_calloc(1, (size_t)size);
    assert_int_equal(fread(words, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *size_bytes = (size_t)size;
    return words;
}

struct cf_pipeline *cf_pipeline_create(const struct cf_pipeline_info *info)
{
    VkDevice device = cf.t->device;
    struct cf_pipeline *p = calloc(1, sizeof(*p));
    assert_non_null(p);
    track(CF_PIPELINE, p);
    p->set_count = info->set_count ? info->set_count : 1;
    p->push_size = info->push_size;
    assert_true(p->set_count <= CF_MAX_SETS);

    size_t size = 0;
    uint32_t *words = load_spirv(info->shader, &size);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = words,
    };
    VK_CHECK(vkCreateShaderModule(device, &module_info, NULL, &p->module));

    VkDescriptorPoolSize pool_sizes[4] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0 },
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 0 },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 0 },
    };
    for (uint32_t s = 0; s < p->set_count; s++) {
        const struct cf_set_info *set = &info->sets[s];
        assert_true(set->binding_count <= CF_MAX_BINDINGS);
        VkDescriptorSetLayoutBinding bindings[CF_MAX_BINDINGS];
        p->binding_count[s] = set->binding_count;
        for (uint32_t i = 0; i < set->binding_count; i++) {
            struct cf_binding b = set->bindings ? set->bindings[i]
                                                : (struct cf_binding){ i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
            if (!b.count)
                b.count = 1;
            p->bindings[s][i] = b;
            bindings[i] = (VkDescriptorSetLayoutBinding){
                .binding = b.binding,
                .descriptorType = b.type,
                .descriptorCount = b.count,
                .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
            };
            for (int k = 0; k < 4; k++)
                if (pool_sizes[k].type == b.type)
                    pool_sizes[k].descriptorCount += b.count;
        }
        VkDescriptorSetLayoutCreateInfo set_info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = set->binding_count,
            .pBindings = bindings,
        };
        VK_CHECK(vkCreateDescriptorSetLayout(device, &set_info, NULL, &p->set_layouts[s]));
    }
    VkDescriptorPoolSize used[4];
    uint32_t used_count = 0;
    for (int k = 0; k < 4; k++)
        if (pool_sizes[k].descriptorCount)
            used[used_count++] = pool_sizes[k];
    if (!used_count)
        used[used_count++] = (VkDescriptorPoolSize){ VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = p->set_count,
        .poolSizeCount = used_count,
        .pPoolSizes = used,
    };
    VK_CHECK(vkCreateDescriptorPool(device, &pool_info, NULL, &p->pool));
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = p->pool,
        .descriptorSetCount = p->set_count,
        .pSetLayouts = p->set_layouts,
    };
    VK_CHECK(vkAllocateDescriptorSets(device, &alloc, p->sets));

    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, info->push_size };
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = p->set_count,
        .pSetLayouts = p->set_layouts,
        .pushConstantRangeCount = info->push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    VK_CHECK(vkCreatePipelineLayout(device, &layout_info, NULL, &p->layout));
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = p->module,
            .pName = "main",
            .pSpecializationInfo = info->spec,
        },
        .layout = p->layout,
        .flags = info->flags,
    };
    VK_CHECK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &p->pipeline));
    return p;
}

struct cf_pipeline *cf_pipeline(const char *shader, uint32_t storage_count, uint32_t push_size,
                                const VkSpecializationInfo *spec)
{
    struct cf_pipeline_info info = {
        .shader = shader,
        .sets = { { storage_count, NULL } },
        .push_size = push_size,
        .spec = spec,
    };
    return cf_pipeline_create(&info);
}

void cf_bind(struct cf_pipeline *p, uint32_t set, uint32_t binding, uint32_t element, const struct cf_buffer *b,
             VkDeviceSize offset, VkDeviceSize range)
{
    assert_true(set < p->set_count);
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    for (uint32_t i = 0; i < p->binding_count[set]; i++)
        if (p->bindings[set][i].binding == binding)
            type = p->bindings[set][i].type;
    assert_true(type != VK_DESCRIPTOR_TYPE_MAX_ENUM);
    VkDescriptorBufferInfo buffer_info = { b->buffer, offset, range ? range : VK_WHOLE_SIZE };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = p->sets[set],
        .dstBinding = binding,
        .dstArrayElement = element,
        .descriptorCount = 1,
        .descriptorType = type,
        .pBufferInfo = &buffer_info,
    };
    vkUpdateDescriptorSets(cf.t->device, 1, &write, 0, NULL);
}

void cf_bind_all(struct cf_pipeline *p, uint32_t count, struct cf_buffer *const *buffers)
{
    for (uint32_t i = 0; i < count; i++)
        cf_bind(p, 0, i, 0, buffers[i], 0, 0);
}

const VkSpecializationInfo *cf_spec(uint32_t count, const uint32_t *ids, const void *data)
{
    VkSpecializationInfo *s = calloc(1, sizeof(*s));
    VkSpecializationMapEntry *entries = calloc(count ? count : 1, sizeof(*entries));
    void *copy = malloc(count ? count * 4 : 4);
    assert_true(s && entries && copy);
    memcpy(copy, data, count * 4);
    for (uint32_t i = 0; i < count; i++)
        entries[i] = (VkSpecializationMapEntry){ ids ? ids[i] : i, i * 4, 4 };
    *s = (VkSpecializationInfo){ count, entries, count * 4, copy };
    track(CF_SPEC, s);
    return s;
}

/* --- Commands ------------------------------------------------------------------------ */

VkCommandBuffer cf_begin(void)
{
    return vkmm_test_begin(cf.t);
}

void cf_cmd_bind(VkCommandBuffer cmd, struct cf_pipeline *p, const void *push, uint32_t dynamic_count,
                 const uint32_t *dynamic_offsets)
{
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, p->set_count, p->sets,
                            dynamic_count, dynamic_offsets);
    if (push && p->push_size)
        vkCmdPushConstants(cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, p->push_size, push);
}

void cf_cmd_dispatch(VkCommandBuffer cmd, struct cf_pipeline *p, const void *push, uint32_t x, uint32_t y,
                     uint32_t z)
{
    cf_cmd_bind(cmd, p, push, 0, NULL);
    vkCmdDispatch(cmd, x, y, z);
}

void cf_cmd_compute_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT |
                         VK_ACCESS_UNIFORM_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &barrier,
                         0, NULL, 0, NULL);
}

void cf_submit(VkCommandBuffer cmd)
{
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(cf.t, cf.t->compute_queues[0], cmd);
}

void cf_dispatch(struct cf_pipeline *p, const void *push, uint32_t x, uint32_t y, uint32_t z)
{
    VkCommandBuffer cmd = cf_begin();
    cf_cmd_dispatch(cmd, p, push, x, y, z);
    cf_submit(cmd);
}

void cf_run(const char *shader, const void *push, uint32_t push_size, uint32_t x, uint32_t y, uint32_t z,
            uint32_t count, struct cf_buffer *const *buffers)
{
    struct cf_pipeline *p = cf_pipeline(shader, count, push_size, NULL);
    cf_bind_all(p, count, buffers);
    cf_dispatch(p, push, x, y, z);
}

/* --- Checks --------------------------------------------------------------------------- */

#define CF_MAX_SHOWN 8

#define DEFINE_EXPECT_INT(suffix, type, fmt, cast)                                                     \
    void cf_expect_##suffix(const type *got, const type *want, size_t n, const char *what)           \
    {                                                                                                \
        size_t bad = 0, first = 0;                                                                   \
        for (size_t i = 0; i < n; i++) {                                                             \
            if (got[i] == want[i])                                                                   \
                continue;                                                                            \
            if (bad < CF_MAX_SHOWN)                                                                  \
                print_message("  %s[%zu]: got " fmt ", want " fmt "\n", what, i, (cast)got[i], (cast)want[i]); \
            if (!bad)                                                                                \
                first = i;                                                                           \
            bad++;                                                                                   \
        }                                                                                            \
        if (bad)                                                                                     \
            fail_msg("%s: %zu of %zu values wrong (first at %zu: got " fmt ", want " fmt ")", what, bad, n, \
                     first, (cast)got[first], (cast)want[first]);                                    \
    }

DEFINE_EXPECT_INT(u32, uint32_t, "0x%08x", unsigned)
DEFINE_EXPECT_INT(u16, uint16_t, "0x%04x", unsigned)
DEFINE_EXPECT_INT(u8, uint8_t, "0x%02x", unsigned)
DEFINE_EXPECT_INT(u64, uint64_t, "0x%016llx", unsigned long long)

void cf_expect_i32(const int32_t *got, const int32_t *want, size_t n, const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (got[i] == want[i])
            continue;
        if (bad < CF_MAX_SHOWN)
            print_message("  %s[%zu]: got %d, want %d\n", what, i, got[i], want[i]);
        if (!bad)
            first = i;
        bad++;
    }
    if (bad)
        fail_msg("%s: %zu of %zu values wrong (first at %zu: got %d, want %d)", what, bad, n, first, got[first],
                 want[first]);
}

static bool close_enough(double got, double want, double abs_tol, double rel_tol)
{
    if (got == want)
        return true;
    if (isnan(want))
        return isnan(got);
    if (isnan(got) || isinf(want) || isinf(got))
        return false;
    return fabs(got - want) <= abs_tol + rel_tol * fabs(want);
}

void cf_expect_f32(const float *got, const float *want, size_t n, double abs_tol, double rel_tol,
                   const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (close_enough(got[i], want[i], abs_tol, rel_tol))
            continue;
        if (bad < CF_MAX_SHOWN)
            print_message("  %s[%zu]: got %.9g, want %.9g\n", what, i, got[i], want[i]);
        if (!bad)
            first = i;
        bad++;
    }
    if (bad)
        fail_msg("%s: %zu of %zu values wrong (first at %zu: got %.9g, want %.9g)", what, bad, n, first,
                 got[first], want[first]);
}

void cf_expect_f64(const double *got, const double *want, size_t n, double abs_tol, double rel_tol,
                   const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        if (close_enough(got[i], want[i], abs_tol, rel_tol))
            continue;
        if (bad < CF_MAX_SHOWN)
            print_message("  %s[%zu]: got %.17g, want %.17g\n", what, i, got[i], want[i]);
        if (!bad)
            first = i;
        bad++;
    }
    if (bad)
        fail_msg("%s: %zu of %zu values wrong (first at %zu: got %.17g, want %.17g)", what, bad, n, first,
                 got[first], want[first]);
}

static int64_t ordered_bits(float f)
{
    int32_t i;
    memcpy(&i, &f, 4);
    return i < 0 ? (int64_t)INT32_MIN - i : i;
}

void cf_expect_f32_ulp(const float *got, const float *want, size_t n, uint32_t ulps, const char *what)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++) {
        bool ok = got[i] == want[i] || (isnan(got[i]) && isnan(want[i]));
        if (!ok && !isnan(got[i]) && !isnan(want[i])) {
            int64_t d = ordered_bits(got[i]) - ordered_bits(want[i]);
            ok = (d < 0 ? -d : d) <= (int64_t)ulps;
        }
        if (ok)
            continue;
        if (bad < CF_MAX_SHOWN)
            print_message("  %s[%zu]: got %.9g, want %.9g (%u ulp allowed)\n", what, i, got[i], want[i], ulps);
        if (!bad)
            first = i;
        bad++;
    }
    if (bad)
        fail_msg("%s: %zu of %zu values wrong (first at %zu: got %.9g, want %.9g)", what, bad, n, first,
                 got[first], want[first]);
}

void cf_expect_guard(const struct cf_buffer *b, VkDeviceSize begin, VkDeviceSize end, uint8_t fill,
                     const char *what)
{
    const uint8_t *bytes = b->map;
    for (VkDeviceSize i = 0; i < b->size; i++) {
        if (i >= begin && i < end)
            continue;
        if (bytes[i] != fill)
            fail_msg("%s: byte %llu outside [%llu, %llu) changed to 0x%02x (was 0x%02x)", what,
                     (unsigned long long)i, (unsigned long long)begin, (unsigned long long)end, bytes[i], fill);
    }
}

/* --- Float helpers -------------------------------------------------------------------- */

float cf_u32_as_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint32_t cf_f32_as_u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

uint16_t cf_f32_to_f16(float f)
{
    /* Round to nearest even. */
    uint32_t x = cf_f32_as_u32(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 0xff)
        return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = mant >> shift;
        uint32_t rest = mant & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (mant >> 13);
    uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
        half++;
    return (uint16_t)(sign | half);
}

float cf_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f)
        return cf_u32_as_f32(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        float v = (float)mant / 16777216.0f; /* mant * 2^-24 */
        return sign ? -v : v;
    }
    return cf_u32_as_f32(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}
