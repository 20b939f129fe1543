/* Recording of pipeline barriers and events.  Legacy (synchronization 1)
 * forms are converted to synchronization2 barriers here, and image
 * barriers to buffer barriers on the image's bytes, so the executor and the
 * memory engine see one shape. */
#include <string.h>

#include "command_buffer.h"
#include "event.h"
#include "image.h"

/* An image barrier is a buffer barrier on the image's bytes (image.h): a
 * layout transition changes no byte of linear memory, and the queue family
 * transfer and the access scopes are the same as a buffer's. */
static VkBufferMemoryBarrier2 image_barrier_as_buffer(const VkImageMemoryBarrier2 *in)
{
    struct vkmm_image *image = vkmm_image_from_handle(in->image);
    return (VkBufferMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
        .srcStageMask = in->srcStageMask,
        .srcAccessMask = in->srcAccessMask,
        .dstStageMask = in->dstStageMask,
        .dstAccessMask = in->dstAccessMask,
        .srcQueueFamilyIndex = in->srcQueueFamilyIndex,
        .dstQueueFamilyIndex = in->dstQueueFamilyIndex,
        .buffer = vkmm_buffer_to_handle(&image->bytes),
        .offset = 0,
        .size = VK_WHOLE_SIZE,
    };
}

/* The mip levels whose contents a transition discards: from UNDEFINED to
 * a defined layout (the spec: "the contents of the image are discarded"). */
static uint32_t discarded_levels(const VkImageMemoryBarrier2 *b)
{
    struct vkmm_image *image = vkmm_image_from_handle(b->image);
    if (!image || b->oldLayout != VK_IMAGE_LAYOUT_UNDEFINED || b->newLayout == VK_IMAGE_LAYOUT_UNDEFINED)
        return 0;
    uint32_t base = b->subresourceRange.baseMipLevel, count = b->subresourceRange.levelCount;
    if (base >= image->levels)
        return 0;
    return count == VK_REMAINING_MIP_LEVELS || count > image->levels - base ? image->levels - base : count;
}

/* One discard per level (its layers of the range are contiguous, image.h). */
static uint32_t add_discards(const VkImageMemoryBarrier2 *b, struct vkmm_discard *out)
{
    struct vkmm_image *image = vkmm_image_from_handle(b->image);
    uint32_t levels = discarded_levels(b), layer = b->subresourceRange.baseArrayLayer;
    uint32_t layers = b->subresourceRange.layerCount;
    if (!levels || layer >= image->layers)
        return 0;
    if (layers == VK_REMAINING_ARRAY_LAYERS || layers > image->layers - layer)
        layers = image->layers - layer;
    for (uint32_t i = 0; i < levels; i++) {
        uint32_t level = b->subresourceRange.baseMipLevel + i;
        out[i] = (struct vkmm_discard){
            .bytes = &image->bytes,
            .offset = vkmm_image_texel_offset(image, level, layer, 0, 0, 0),
            .size = vkmm_image_layer_pitch(image, level) * layers,
            .dst_stages = b->dstStageMask,
            .dst_access = b->dstAccessMask,
        };
    }
    return levels;
}

/* The discards of `count` image barriers into out->discards. */
static bool store_discards(struct vkmm_command_buffer *cmd, const VkImageMemoryBarrier2 *images, uint32_t count,
                           struct vkmm_dependency *out)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < count; i++)
        total += discarded_levels(&images[i]);
    out->discard_count = 0;
    out->discards = NULL;
    if (!total)
        return true;
    out->discards = vkmm_command_buffer_store(cmd, NULL, total * sizeof(*out->discards));
    if (!out->discards)
        return false;
    for (uint32_t i = 0; i < count; i++)
        out->discard_count += add_discards(&images[i], out->discards + out->discard_count);
    return true;
}

/* Deep copy of a VkDependencyInfo without pNext chains; image barriers
 * become buffer barriers after the buffer ones. */
static bool store_dependency(struct vkmm_command_buffer *cmd, const VkDependencyInfo *info,
                             struct vkmm_dependency *out)
{
    uint32_t buffers = info->bufferMemoryBarrierCount, images = info->imageMemoryBarrierCount;
    out->flags = info->dependencyFlags;
    out->memory_barrier_count = info->memoryBarrierCount;
    out->buffer_barrier_count = buffers + images;
    out->memory_barriers = vkmm_command_buffer_store(cmd, info->pMemoryBarriers,
                                                     info->memoryBarrierCount * sizeof(VkMemoryBarrier2));
    out->buffer_barriers = vkmm_command_buffer_store(cmd, NULL, (buffers + images) * sizeof(VkBufferMemoryBarrier2));
    if ((info->memoryBarrierCount && !out->memory_barriers) || (buffers + images && !out->buffer_barriers))
        return false;
    if (buffers)
        memcpy(out->buffer_barriers, info->pBufferMemoryBarriers, buffers * sizeof(VkBufferMemoryBarrier2));
    for (uint32_t i = 0; i < images; i++)
        out->buffer_barriers[buffers + i] = image_barrier_as_buffer(&info->pImageMemoryBarriers[i]);
    for (uint32_t i = 0; i < out->memory_barrier_count; i++)
        out->memory_barriers[i].pNext = NULL;
    for (uint32_t i = 0; i < out->buffer_barrier_count; i++)
        out->buffer_barriers[i].pNext = NULL;
    return store_discards(cmd, info->pImageMemoryBarriers, images, out);
}

/* Converts synchronization-1 arguments: every barrier takes the command's
 * stage masks, and one access-less global barrier carries the execution
 * dependency itself (which exists even with no barriers at all). */
static bool convert_legacy(struct vkmm_command_buffer *cmd, VkPipelineStageFlags src_stages,
                           VkPipelineStageFlags dst_stages, VkDependencyFlags flags, uint32_t memory_count,
                           const VkMemoryBarrier *memory, uint32_t buffer_count, const VkBufferMemoryBarrier *buffers,
                           uint32_t image_count, const VkImageMemoryBarrier *images, struct vkmm_dependency *out)
{
    out->flags = flags;
    out->memory_barrier_count = memory_count + 1;
    out->buffer_barrier_count = buffer_count + image_count;
    out->memory_barriers = vkmm_command_buffer_store(cmd, NULL, (memory_count + 1) * sizeof(VkMemoryBarrier2));
    out->buffer_barriers =
        vkmm_command_buffer_store(cmd, NULL, (buffer_count + image_count) * sizeof(VkBufferMemoryBarrier2));
    VkImageMemoryBarrier2 *converted =
        image_count ? vkmm_command_buffer_store(cmd, NULL, image_count * sizeof(*converted)) : NULL;
    if (!out->memory_barriers || (buffer_count + image_count && !out->buffer_barriers) || (image_count && !converted))
        return false;
    for (uint32_t i = 0; i < image_count; i++) {
        converted[i] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = src_stages,
            .srcAccessMask = images[i].srcAccessMask,
            .dstStageMask = dst_stages,
            .dstAccessMask = images[i].dstAccessMask,
            .oldLayout = images[i].oldLayout,
            .newLayout = images[i].newLayout,
            .srcQueueFamilyIndex = images[i].srcQueueFamilyIndex,
            .dstQueueFamilyIndex = images[i].dstQueueFamilyIndex,
            .image = images[i].image,
            .subresourceRange = images[i].subresourceRange,
        };
        out->buffer_barriers[buffer_count + i] = image_barrier_as_buffer(&converted[i]);
    }
    if (!store_discards(cmd, converted, image_count, out))
        return false;
    for (uint32_t i = 0; i <= memory_count; i++) {
        out->memory_barriers[i] = (VkMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
            .srcStageMask = src_stages,
            .dstStageMask = dst_stages,
            .srcAccessMask = i < memory_count ? memory[i].srcAccessMask : 0,
            .dstAccessMask = i < memory_count ? memory[i].dstAccessMask : 0,
        };
    }
    for (uint32_t i = 0; i < buffer_count; i++) {
        out->buffer_barriers[i] = (VkBufferMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
            .srcStageMask = src_stages,
            .srcAccessMask = buffers[i].srcAccessMask,
            .dstStageMask = dst_stages,
            .dstAccessMask = buffers[i].dstAccessMask,
            .srcQueueFamilyIndex = buffers[i].srcQueueFamilyIndex,
            .dstQueueFamilyIndex = buffers[i].dstQueueFamilyIndex,
            .buffer = buffers[i].buffer,
            .offset = buffers[i].offset,
            .size = buffers[i].size,
        };
    }
    return true;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdPipelineBarrier2(VkCommandBuffer commandBuffer,
                                                    const VkDependencyInfo *pDependencyInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_PIPELINE_BARRIER);
    if (command)
        store_dependency(cmd, pDependencyInfo, &command->u.pipeline_barrier.dependency);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                                                   VkPipelineStageFlags dstStageMask,
                                                   VkDependencyFlags dependencyFlags, uint32_t memoryBarrierCount,
                                                   const VkMemoryBarrier *pMemoryBarriers,
                                                   uint32_t bufferMemoryBarrierCount,
                                                   const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                                                   uint32_t imageMemoryBarrierCount,
                                                   const VkImageMemoryBarrier *pImageMemoryBarriers)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_PIPELINE_BARRIER);
    if (command)
        convert_legacy(cmd, srcStageMask, dstStageMask, dependencyFlags, memoryBarrierCount, pMemoryBarriers,
                       bufferMemoryBarrierCount, pBufferMemoryBarriers, imageMemoryBarrierCount, pImageMemoryBarriers,
                       &command->u.pipeline_barrier.dependency);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                             const VkDependencyInfo *pDependencyInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_SET_EVENT);
    if (!command)
        return;
    command->u.set_event.event = vkmm_event_from_handle(event);
    store_dependency(cmd, pDependencyInfo, &command->u.set_event.dependency);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                            VkPipelineStageFlags stageMask)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_SET_EVENT);
    if (!command)
        return;
    command->u.set_event.event = vkmm_event_from_handle(event);
    /* The legacy form has a first synchronization scope only; the memory
     * barriers come with vkCmdWaitEvents. */
    convert_legacy(cmd, stageMask, 0, 0, 0, NULL, 0, NULL, 0, NULL, &command->u.set_event.dependency);
}

static void record_reset_event(struct vkmm_command_buffer *cmd, VkEvent event, VkPipelineStageFlags2 stages)
{
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_RESET_EVENT);
    if (!command)
        return;
    command->u.reset_event.event = vkmm_event_from_handle(event);
    command->u.reset_event.stages = stages;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                                               VkPipelineStageFlags2 stageMask)
{
    record_reset_event(vkmm_command_buffer_from_handle(commandBuffer), event, stageMask);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event,
                                              VkPipelineStageFlags stageMask)
{
    record_reset_event(vkmm_command_buffer_from_handle(commandBuffer), event, stageMask);
}

static struct vkmm_command *append_wait(struct vkmm_command_buffer *cmd, uint32_t event_count, const VkEvent *events,
                                        uint32_t dependency_count)
{
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_WAIT_EVENTS);
    if (!command)
        return NULL;
    struct vkmm_event **stored = vkmm_command_buffer_store(cmd, NULL, event_count * sizeof(*stored));
    struct vkmm_dependency *deps = vkmm_command_buffer_store(cmd, NULL, dependency_count * sizeof(*deps));
    if (!stored || !deps)
        return NULL;
    for (uint32_t i = 0; i < event_count; i++)
        stored[i] = vkmm_event_from_handle(events[i]);
    command->u.wait_events.event_count = event_count;
    command->u.wait_events.events = stored;
    command->u.wait_events.dependency_count = dependency_count;
    command->u.wait_events.dependencies = deps;
    return command;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount,
                                               const VkEvent *pEvents, const VkDependencyInfo *pDependencyInfos)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = append_wait(cmd, eventCount, pEvents, eventCount);
    for (uint32_t i = 0; command && i < eventCount; i++)
        store_dependency(cmd, &pDependencyInfos[i], &command->u.wait_events.dependencies[i]);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount,
                                              const VkEvent *pEvents, VkPipelineStageFlags srcStageMask,
                                              VkPipelineStageFlags dstStageMask, uint32_t memoryBarrierCount,
                                              const VkMemoryBarrier *pMemoryBarriers,
                                              uint32_t bufferMemoryBarrierCount,
                                              const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                                              uint32_t imageMemoryBarrierCount,
                                              const VkImageMemoryBarrier *pImageMemoryBarriers)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    struct vkmm_command *command = append_wait(cmd, eventCount, pEvents, 1);
    if (command)
        command->u.wait_events.legacy = true;
    if (command)
        convert_legacy(cmd, srcStageMask, dstStageMask, 0, memoryBarrierCount, pMemoryBarriers,
                       bufferMemoryBarrierCount, pBufferMemoryBarriers, imageMemoryBarrierCount, pImageMemoryBarriers,
                       &command->u.wait_events.dependencies[0]);
}
