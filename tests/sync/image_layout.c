/* An image's contents after a layout transition from UNDEFINED: the spec
 * says the transition discards them, and GPUs that compress or tile images
 * really lose them, while most desktop drivers happen to keep them.  The
 * program uploads 256 words into an image, transitions it for the readback
 * and copies it out.  The mistake names VK_IMAGE_LAYOUT_UNDEFINED as the old
 * layout: strict mode scrambles the contents at the transition (wrong on
 * every seed) and reports the read of discarded bytes
 * (VKMM-HAZARD-UNINITIALIZED-READ).  The correct variant names the image's
 * current layout (TRANSFER_DST_OPTIMAL) and gets the words back. */
#include "sync_harness.h"

enum { CORRECT, FROM_UNDEFINED, VARIANTS };

static const struct sync_variant variants[VARIANTS] = {
    [CORRECT] = { "correct_transition_from_current_layout", NULL },
    [FROM_UNDEFINED] = { "bug_transition_from_undefined_discards_contents", "VKMM-HAZARD-UNINITIALIZED-READ",
                         .mentions = "VK_IMAGE_LAYOUT_UNDEFINED" },
};

#define SIDE 16 /* 16 x 16 R32_UINT texels: SYNC_WORDS */

static void transition(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                       VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access)
{
    vkmm_test_image_barrier(cmd, &(struct vkmm_test_image_barrier){
                                     .image = image, .from = from, .to = to,
                                     .src_stage = src_stage, .src_access = src_access,
                                     .dst_stage = VK_PIPELINE_STAGE_2_COPY_BIT,
                                     .dst_access = to == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
                                                       ? VK_ACCESS_2_TRANSFER_READ_BIT
                                                       : VK_ACCESS_2_TRANSFER_WRITE_BIT });
}

static void program(struct vkmm_test *t, int variant, uint32_t result[SYNC_WORDS])
{
    struct vkmm_test_buffer upload = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    struct vkmm_test_buffer out = vkmm_test_buffer_create(t, SYNC_WORDS * 4, *sync_host_coherent());
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        ((uint32_t *)upload.mapped)[i] = 1000 + i;
    VkImageCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = VK_FORMAT_R32_UINT,
        .extent = { SIDE, SIDE, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
    VkImage image;
    VK_CHECK(vkCreateImage(t->device, &info, NULL, &image));
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(t->device, image, &requirements);
    VkMemoryAllocateInfo allocate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = requirements.size,
        .memoryTypeIndex = vkmm_test_find_memory_type(t, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0),
    };
    VkDeviceMemory memory;
    VK_CHECK(vkAllocateMemory(t->device, &allocate, NULL, &memory));
    VK_CHECK(vkBindImageMemory(t->device, image, memory, 0));

    VkCommandBuffer cmd = vkmm_test_begin(t);
    transition(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE);
    VkBufferImageCopy region = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                                 .imageExtent = { SIDE, SIDE, 1 } };
    vkCmdCopyBufferToImage(cmd, upload.buffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    transition(cmd, image,
               variant == FROM_UNDEFINED ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out.buffer, 1, &region);
    sync_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
    vkmm_test_submit_and_wait(t, t->compute_queues[0], cmd);
    memcpy(result, out.mapped, SYNC_WORDS * 4);
    vkDestroyImage(t->device, image, NULL);
    vkFreeMemory(t->device, memory, NULL);
    vkmm_test_buffer_destroy(t, &upload);
    vkmm_test_buffer_destroy(t, &out);
}

static void run(int variant)
{
    uint32_t expected[SYNC_WORDS];
    for (uint32_t i = 0; i < SYNC_WORDS; i++)
        expected[i] = 1000 + i;
    sync_check(program, variant, &variants[variant], expected);
}

static void correct_transition_from_current_layout(void **state) { (void)state; run(CORRECT); }
static void bug_transition_from_undefined_discards_contents(void **state) { (void)state; run(FROM_UNDEFINED); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_transition_from_current_layout),
        cmocka_unit_test(bug_transition_from_undefined_discards_contents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
