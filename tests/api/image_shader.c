/* Shaders reach images through the loader: storage images (imageLoad,
 * imageStore, imageSize, imageAtomicAdd), storage and uniform texel
 * buffers, texelFetch and textureLod with a linear sampler on a combined
 * image sampler; out-of-range coordinates read 0 and drop writes, in both
 * modes (tests/api/shaders/image_access.comp).  The transfers before the
 * dispatch are made visible to SHADER_READ | SHADER_WRITE only, as the
 * spec allows for these reads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vkmm_test.h"

#define HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

struct image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

static struct image make_image(struct vkmm_test *t, VkFormat format, VkImageUsageFlags usage)
{
    struct image out;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { 4, 4, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .usage = usage | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
    };
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &out.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(t->device, out.image, &req);
    VkMemoryAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                   .allocationSize = req.size,
                                   .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
    VK_CHECK(vkAllocateMemory(t->device, &alloc, NULL, &out.memory));
    VK_CHECK(vkBindImageMemory(t->device, out.image, out.memory, 0));
    VkImageViewCreateInfo view = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    VK_CHECK(vkCreateImageView(t->device, &view, NULL, &out.view));
    return out;
}

static void free_image(struct vkmm_test *t, struct image *i)
{
    vkDestroyImageView(t->device, i->view, NULL);
    vkDestroyImage(t->device, i->image, NULL);
    vkFreeMemory(t->device, i->memory, NULL);
}

static VkBufferView make_view(struct vkmm_test *t, VkBuffer buffer, VkFormat format, VkDeviceSize range)
{
    VkBufferViewCreateInfo info = { .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                    .buffer = buffer,
                                    .format = format,
                                    .range = range };
    VkBufferView view;
    VK_CHECK(vkCreateBufferView(t->device, &info, NULL, &view));
    return view;
}

static void to_general(VkCommandBuffer cmd, VkImage image)
{
    VkImageMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_GENERAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &barrier);
}

static void near(float actual, float expected)
{
    if (fabsf(actual - expected) > 1e-3f)
        fail_msg("%f, expected %f", actual, expected);
}

static uint8_t red(uint32_t x, uint32_t y) { return (uint8_t)(10 * (x + 4 * y)); }

static void test_image_shader_paths(void **state)
{
    struct vkmm_test *t = *state;
    struct image colors = make_image(t, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    struct image counters = make_image(t, VK_FORMAT_R32_UINT, VK_IMAGE_USAGE_STORAGE_BIT);
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, 64, HOST);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, 64, HOST);
    struct vkmm_test_buffer lut = vkmm_test_buffer_create(t, 64, HOST);
    struct vkmm_test_buffer scratch = vkmm_test_buffer_create(t, 128, HOST);
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, 16 * 4 * 16, HOST);
    uint8_t *texels = upload.mapped;
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint8_t rgba[4] = { red(x, y), (uint8_t)(x * 64), (uint8_t)(y * 64), 255 };
            memcpy(texels + 4 * (y * 4 + x), rgba, 4);
        }
    for (uint32_t i = 0; i < 16; i++)
        ((uint32_t *)lut.mapped)[i] = 500 + i;
    memset(scratch.mapped, 0x5A, 128);
    VkBufferView lut_view = make_view(t, lut.buffer, VK_FORMAT_R32_UINT, 64);
    VkBufferView scratch_view = make_view(t, scratch.buffer, VK_FORMAT_R32_SFLOAT, 64);
    VkSamplerCreateInfo sampler_info = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = 0.0f,
    };
    VkSampler sampler;
    VK_CHECK(vkCreateSampler(t->device, &sampler_info, NULL, &sampler));

    const VkDescriptorType types[6] = { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                        VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                        VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER };
    VkDescriptorSetLayoutBinding bindings[6];
    VkDescriptorPoolSize sizes[6];
    for (uint32_t b = 0; b < 6; b++) {
        bindings[b] = (VkDescriptorSetLayoutBinding){ b, types[b], 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
        sizes[b] = (VkDescriptorPoolSize){ types[b], 1 };
    }
    VkDescriptorSetLayoutCreateInfo set_info = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                 .bindingCount = 6, .pBindings = bindings };
    VkDescriptorSetLayout set_layout;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &set_info, NULL, &set_layout));
    VkPipelineLayoutCreateInfo layout_info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                               .setLayoutCount = 1, .pSetLayouts = &set_layout };
    VkPipelineLayout layout;
    VK_CHECK(vkCreatePipelineLayout(t->device, &layout_info, NULL, &layout));
    size_t size;
    uint32_t *code = vkmm_test_load_spirv("image_access", &size);
    VkShaderModuleCreateInfo module_info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                             .codeSize = size, .pCode = code };
    VkShaderModule module;
    VK_CHECK(vkCreateShaderModule(t->device, &module_info, NULL, &module));
    free(code);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = layout,
    };
    VkPipeline pipeline;
    VK_CHECK(vkCreateComputePipelines(t->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));
    VkDescriptorPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                             .maxSets = 1, .poolSizeCount = 6, .pPoolSizes = sizes };
    VkDescriptorPool pool;
    VK_CHECK(vkCreateDescriptorPool(t->device, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &set_layout };
    VkDescriptorSet set;
    VK_CHECK(vkAllocateDescriptorSets(t->device, &alloc, &set));
    VkDescriptorImageInfo images[3] = { { VK_NULL_HANDLE, colors.view, VK_IMAGE_LAYOUT_GENERAL },
                                        { VK_NULL_HANDLE, counters.view, VK_IMAGE_LAYOUT_GENERAL },
                                        { sampler, colors.view, VK_IMAGE_LAYOUT_GENERAL } };
    VkDescriptorBufferInfo out_info = { out.buffer, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet writes[6];
    for (uint32_t b = 0; b < 6; b++)
        writes[b] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                            .dstBinding = b, .descriptorCount = 1, .descriptorType = types[b] };
    writes[0].pImageInfo = &images[0];
    writes[1].pImageInfo = &images[1];
    writes[2].pImageInfo = &images[2];
    writes[3].pTexelBufferView = &lut_view;
    writes[4].pTexelBufferView = &scratch_view;
    writes[5].pBufferInfo = &out_info;
    vkUpdateDescriptorSets(t->device, 6, writes, 0, NULL);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, colors.image);
    to_general(cmd, counters.image);
    VkBufferImageCopy region = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .imageExtent = { 4, 4, 1 } };
    vkCmdCopyBufferToImage(cmd, upload.buffer, colors.image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    VkClearColorValue zero = { .uint32 = { 0 } };
    VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
    /* Exactly what the spec asks: sampled-image and texel reads are
     * SHADER_READ accesses, not UNIFORM_READ (strict mode once asked for
     * UNIFORM_READ and read stale bytes: CTS synchronization
     * write_*_read_ubo_texel_compute). */
    VkMemoryBarrier to_shader = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &to_shader,
                         0, NULL, 0, NULL);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cmd, 1, 1, 1);
    vkmm_test_full_barrier(cmd);
    vkCmdCopyImageToBuffer(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &region);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    const float *o = out.mapped;
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t x = i % 4, y = i / 4;
        const float *v = o + 16 * i;
        near(v[0], red(x, y) / 255.0f), near(v[1], x * 64 / 255.0f), near(v[2], y * 64 / 255.0f), near(v[3], 1.0f);
        near(v[4], 4), near(v[5], 4), near(v[6], 16);
        near(v[8], x * 64 / 255.0f), near(v[9], 500.0f + i), near(v[10], 0), near(v[11], 0);
        near(v[12], 5 / 255.0f), near(v[13], 32 / 255.0f), near(v[14], 0), near(v[15], 1.0f);
    }
    const uint32_t *c = readback.mapped;
    assert_int_equal(c[0], 16);
    for (uint32_t y = 1; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++)
            assert_int_equal(c[y * 4 + x], 1000u + red(x, y - 1));
    for (uint32_t x = 1; x < 4; x++)
        assert_int_equal(c[x], 0);
    const float *s = scratch.mapped;
    for (uint32_t i = 0; i < 16; i++)
        near(s[i], i * 0.5f);
    for (uint32_t b = 64; b < 128; b++)
        assert_int_equal(((uint8_t *)scratch.mapped)[b], 0x5A);

    vkDestroyPipeline(t->device, pipeline, NULL);
    vkDestroyShaderModule(t->device, module, NULL);
    vkDestroyPipelineLayout(t->device, layout, NULL);
    vkDestroyDescriptorPool(t->device, pool, NULL);
    vkDestroyDescriptorSetLayout(t->device, set_layout, NULL);
    vkDestroySampler(t->device, sampler, NULL);
    vkDestroyBufferView(t->device, lut_view, NULL);
    vkDestroyBufferView(t->device, scratch_view, NULL);
    free_image(t, &colors);
    free_image(t, &counters);
    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &readback);
    vkmm_test_buffer_destroy(t, &lut);
    vkmm_test_buffer_destroy(t, &scratch);
    vkmm_test_buffer_destroy(t, &out);
}

/* A workgroup of one invocation: an image atomic, then an image store
 * (tests/api/shaders/image_atomic_lone_invocation.comp). */
static void test_image_atomic_in_a_lone_invocation(void **state)
{
    struct vkmm_test *t = *state;
    struct image counters = make_image(t, VK_FORMAT_R32_UINT, VK_IMAGE_USAGE_STORAGE_BIT);
    struct vkmm_test_buffer readback = vkmm_test_buffer_create(t, 64, HOST);
    VkDescriptorSetLayoutBinding binding = { 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo set_info = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                 .bindingCount = 1, .pBindings = &binding };
    VkDescriptorSetLayout set_layout;
    VK_CHECK(vkCreateDescriptorSetLayout(t->device, &set_info, NULL, &set_layout));
    VkPipelineLayoutCreateInfo layout_info = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                               .setLayoutCount = 1, .pSetLayouts = &set_layout };
    VkPipelineLayout layout;
    VK_CHECK(vkCreatePipelineLayout(t->device, &layout_info, NULL, &layout));
    size_t size;
    uint32_t *code = vkmm_test_load_spirv("image_atomic_lone_invocation", &size);
    VkShaderModuleCreateInfo module_info = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                             .codeSize = size, .pCode = code };
    VkShaderModule module;
    VK_CHECK(vkCreateShaderModule(t->device, &module_info, NULL, &module));
    free(code);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module, .pName = "main" },
        .layout = layout,
    };
    VkPipeline pipeline;
    VK_CHECK(vkCreateComputePipelines(t->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));
    VkDescriptorPoolSize pool_size = { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1 };
    VkDescriptorPoolCreateInfo pool_info = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                             .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &pool_size };
    VkDescriptorPool pool;
    VK_CHECK(vkCreateDescriptorPool(t->device, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo alloc = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                          .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &set_layout };
    VkDescriptorSet set;
    VK_CHECK(vkAllocateDescriptorSets(t->device, &alloc, &set));
    VkDescriptorImageInfo image_info = { VK_NULL_HANDLE, counters.view, VK_IMAGE_LAYOUT_GENERAL };
    VkWriteDescriptorSet write = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
                                   .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                   .pImageInfo = &image_info };
    vkUpdateDescriptorSets(t->device, 1, &write, 0, NULL);

    VkCommandBuffer cmd = vkmm_test_begin(t);
    to_general(cmd, counters.image);
    VkClearColorValue zero = { .uint32 = { 0 } };
    VkImageSubresourceRange all = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
    vkmm_test_full_barrier(cmd);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cmd, 3, 1, 1);
    vkmm_test_full_barrier(cmd);
    VkBufferImageCopy region = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .imageExtent = { 4, 4, 1 } };
    vkCmdCopyImageToBuffer(cmd, counters.image, VK_IMAGE_LAYOUT_GENERAL, readback.buffer, 1, &region);
    vkmm_test_full_barrier(cmd);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);

    /* Three workgroups added 1 each; each stored what it saw (0, 1 or 2,
     * in some order) plus 100 in row 1. */
    const uint32_t *c = readback.mapped;
    assert_int_equal(c[0], 3);
    uint32_t seen = 0;
    for (uint32_t x = 1; x < 4; x++) {
        assert_in_range(c[4 + x], 100, 102);
        seen |= 1u << (c[4 + x] - 100);
    }
    assert_int_equal(seen, 7);

    vkDestroyPipeline(t->device, pipeline, NULL);
    vkDestroyShaderModule(t->device, module, NULL);
    vkDestroyPipelineLayout(t->device, layout, NULL);
    vkDestroyDescriptorPool(t->device, pool, NULL);
    vkDestroyDescriptorSetLayout(t->device, set_layout, NULL);
    free_image(t, &counters);
    vkmm_test_buffer_destroy(t, &readback);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_image_shader_paths, vkmm_test_setup, vkmm_test_teardown),
        cmocka_unit_test_setup_teardown(test_image_atomic_in_a_lone_invocation, vkmm_test_setup,
                                        vkmm_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
