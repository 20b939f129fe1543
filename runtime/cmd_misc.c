/* Recording of secondary command buffer execution and debug labels. */
#include <string.h>

#include "command_buffer.h"

VKAPI_ATTR void VKAPI_CALL vkmm_CmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t commandBufferCount,
                                                   const VkCommandBuffer *pCommandBuffers)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    for (uint32_t i = 0; i < commandBufferCount; i++) {
        struct vkmm_command_buffer *secondary = vkmm_command_buffer_from_handle(pCommandBuffers[i]);
        if (secondary->level != VK_COMMAND_BUFFER_LEVEL_SECONDARY ||
            secondary->state != VKMM_COMMAND_BUFFER_EXECUTABLE) {
            vkmm_command_buffer_reject(cmd, "vkCmdExecuteCommands: element %u is not an executable secondary "
                                            "command buffer", i);
            return;
        }
    }
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_EXECUTE_COMMANDS);
    if (!command)
        return;
    command->u.execute_commands.count = commandBufferCount;
    command->u.execute_commands.command_buffers = vkmm_command_buffer_store(
        cmd, NULL, commandBufferCount * sizeof(struct vkmm_command_buffer *));
    for (uint32_t i = 0; i < commandBufferCount && command->u.execute_commands.command_buffers; i++)
        command->u.execute_commands.command_buffers[i] = vkmm_command_buffer_from_handle(pCommandBuffers[i]);
}

static void record_label(struct vkmm_command_buffer *cmd, enum vkmm_command_type type,
                         const VkDebugUtilsLabelEXT *label)
{
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, type);
    if (!command || !label)
        return;
    if (label->pLabelName)
        command->u.label.name = vkmm_command_buffer_store(cmd, label->pLabelName, strlen(label->pLabelName) + 1);
    memcpy(command->u.label.color, label->color, sizeof(command->u.label.color));
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                           const VkDebugUtilsLabelEXT *pLabelInfo)
{
    record_label(vkmm_command_buffer_from_handle(commandBuffer), VKMM_COMMAND_BEGIN_LABEL, pLabelInfo);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdEndDebugUtilsLabelEXT(VkCommandBuffer commandBuffer)
{
    record_label(vkmm_command_buffer_from_handle(commandBuffer), VKMM_COMMAND_END_LABEL, NULL);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdInsertDebugUtilsLabelEXT(VkCommandBuffer commandBuffer,
                                                            const VkDebugUtilsLabelEXT *pLabelInfo)
{
    record_label(vkmm_command_buffer_from_handle(commandBuffer), VKMM_COMMAND_INSERT_LABEL, pLabelInfo);
}
