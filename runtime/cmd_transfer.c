/* Recording of the buffer transfer commands. */
#include <string.h>

#include "buffer.h"
#include "command_buffer.h"

static bool range_ok(struct vkmm_command_buffer *cmd, const char *what, struct vkmm_buffer *buffer,
                     VkDeviceSize offset, VkDeviceSize size)
{
    if (!buffer->memory) {
        vkmm_command_buffer_reject(cmd, "%s: buffer is not bound to memory", what);
        return false;
    }
    if (offset > buffer->size || size > buffer->size - offset) {
        vkmm_command_buffer_reject(cmd, "%s: range offset %llu size %llu exceeds the buffer size %llu", what,
                                   (unsigned long long)offset, (unsigned long long)size,
                                   (unsigned long long)buffer->size);
        return false;
    }
    return true;
}

static void record_copy(struct vkmm_command_buffer *cmd, struct vkmm_buffer *src, struct vkmm_buffer *dst,
                        uint32_t region_count, const VkBufferCopy2 *regions)
{
    for (uint32_t i = 0; i < region_count; i++) {
        if (!range_ok(cmd, "vkCmdCopyBuffer source", src, regions[i].srcOffset, regions[i].size) ||
            !range_ok(cmd, "vkCmdCopyBuffer destination", dst, regions[i].dstOffset, regions[i].size))
            return;
    }
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_COPY_BUFFER);
    if (!command)
        return;
    command->u.copy_buffer.src = src;
    command->u.copy_buffer.dst = dst;
    command->u.copy_buffer.region_count = region_count;
    command->u.copy_buffer.regions = vkmm_command_buffer_store(cmd, regions, region_count * sizeof(*regions));
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2 *pCopyBufferInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    record_copy(cmd, vkmm_buffer_from_handle(pCopyBufferInfo->srcBuffer),
                vkmm_buffer_from_handle(pCopyBufferInfo->dstBuffer), pCopyBufferInfo->regionCount,
                pCopyBufferInfo->pRegions);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkBuffer dstBuffer,
                                              uint32_t regionCount, const VkBufferCopy *pRegions)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VkBufferCopy2 *regions = vkmm_command_buffer_store(cmd, NULL, regionCount * sizeof(*regions));
    if (!regions)
        return;
    for (uint32_t i = 0; i < regionCount; i++) {
        regions[i] = (VkBufferCopy2){
            .sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2,
            .srcOffset = pRegions[i].srcOffset,
            .dstOffset = pRegions[i].dstOffset,
            .size = pRegions[i].size,
        };
    }
    record_copy(cmd, vkmm_buffer_from_handle(srcBuffer), vkmm_buffer_from_handle(dstBuffer), regionCount, regions);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                              VkDeviceSize dstOffset, VkDeviceSize size, uint32_t data)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_buffer, dst, dstBuffer);
    /* The spec: with VK_WHOLE_SIZE, "if the length of the buffer is not a
     * multiple of 4, then the nearest smaller multiple is used". */
    if (size == VK_WHOLE_SIZE && dstOffset <= dst->size)
        size = (dst->size - dstOffset) & ~(VkDeviceSize)3;
    if (dstOffset % 4 || size % 4) {
        vkmm_command_buffer_reject(cmd, "vkCmdFillBuffer: dstOffset %llu and size %llu must be multiples of 4",
                                   (unsigned long long)dstOffset, (unsigned long long)size);
        return;
    }
    if (!range_ok(cmd, "vkCmdFillBuffer", dst, dstOffset, size))
        return;
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_FILL_BUFFER);
    if (!command)
        return;
    command->u.fill_buffer.dst = dst;
    command->u.fill_buffer.offset = dstOffset;
    command->u.fill_buffer.size = size;
    command->u.fill_buffer.data = data;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer,
                                                VkDeviceSize dstOffset, VkDeviceSize dataSize, const void *pData)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_buffer, dst, dstBuffer);
    /* VUID-vkCmdUpdateBuffer-dataSize-00037/00038: at most 65536 bytes, a
     * multiple of 4. */
    if (dstOffset % 4 || dataSize % 4 || dataSize == 0 || dataSize > 65536) {
        vkmm_command_buffer_reject(cmd,
                                   "vkCmdUpdateBuffer: dstOffset %llu and dataSize %llu must be multiples of 4, "
                                   "with 0 < dataSize <= 65536",
                                   (unsigned long long)dstOffset, (unsigned long long)dataSize);
        return;
    }
    if (!range_ok(cmd, "vkCmdUpdateBuffer", dst, dstOffset, dataSize))
        return;
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_UPDATE_BUFFER);
    if (!command)
        return;
    command->u.update_buffer.dst = dst;
    command->u.update_buffer.offset = dstOffset;
    command->u.update_buffer.size = dataSize;
    /* The spec: the data "is copied ... when the command is recorded". */
    command->u.update_buffer.data = vkmm_command_buffer_store(cmd, pData, dataSize);
}
