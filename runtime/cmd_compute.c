/* Recording of compute state and dispatches.  Each dispatch keeps a
 * snapshot of the bindings it uses, so later binds do not affect it. */
#include <string.h>

#include "buffer.h"
#include "command_buffer.h"
#include "descriptor_set.h"
#include "descriptor_set_layout.h"
#include "device.h"
#include "physical_device.h"
#include "pipeline.h"
#include "pipeline_layout.h"

VKAPI_ATTR void VKAPI_CALL vkmm_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                VkPipeline pipeline)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    if (pipelineBindPoint != VK_PIPELINE_BIND_POINT_COMPUTE) {
        vkmm_command_buffer_reject(cmd, "vkCmdBindPipeline: bind point %d is not COMPUTE", pipelineBindPoint);
        return;
    }
    cmd->compute.pipeline = vkmm_pipeline_from_handle(pipeline);
}

/* VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01971, -01972 (alignment)
 * and -01979 (the moved range stays inside the buffer).  Reported here, once
 * per recording; the dispatch makes an out-of-range one a null descriptor. */
static void check_dynamic_offsets(struct vkmm_command_buffer *cmd, const struct vkmm_descriptor_set *set,
                                  uint32_t set_index, const uint32_t *offsets)
{
    if (!set)
        return;
    const VkPhysicalDeviceLimits *limits = &cmd->base.device->physical_device->properties.v10.limits;
    for (uint32_t b = 0; b < set->layout->binding_count; b++) {
        const struct vkmm_set_layout_binding *binding = &set->layout->bindings[b];
        bool uniform = binding->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
        if (!uniform && binding->type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
            continue;
        VkDeviceSize alignment =
            uniform ? limits->minUniformBufferOffsetAlignment : limits->minStorageBufferOffsetAlignment;
        for (uint32_t e = 0; e < binding->count && binding->first + e < set->descriptor_count; e++) {
            uint32_t dynamic = binding->dynamic_first + e;
            if (dynamic >= VKMM_MAX_DYNAMIC_PER_SET)
                break;
            uint32_t offset = offsets[dynamic];
            struct vkmm_descriptor moved = set->descriptors[binding->first + e];
            if (offset % alignment)
                vkmm_command_buffer_invalid(cmd, uniform ? "VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01971"
                                                         : "VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01972",
                                            "vkCmdBindDescriptorSets: set %u binding %u element %u: dynamic offset "
                                            "%u is not a multiple of %llu",
                                            set_index, binding->binding, e, offset, (unsigned long long)alignment);
            if (!vkmm_descriptor_apply_dynamic_offset(&moved, offset))
                vkmm_command_buffer_invalid(cmd, "VUID-vkCmdBindDescriptorSets-pDynamicOffsets-01979",
                                            "vkCmdBindDescriptorSets: set %u binding %u element %u: dynamic offset "
                                            "%u moves the %llu-byte range past the end of its buffer (%llu bytes "
                                            "from the descriptor's offset); dispatches see a null descriptor "
                                            "there (reads give 0, writes are dropped)",
                                            set_index, binding->binding, e, offset,
                                            (unsigned long long)moved.range, (unsigned long long)moved.reach);
        }
    }
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdBindDescriptorSets(VkCommandBuffer commandBuffer,
                                                      VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
                                                      uint32_t firstSet, uint32_t descriptorSetCount,
                                                      const VkDescriptorSet *pDescriptorSets,
                                                      uint32_t dynamicOffsetCount, const uint32_t *pDynamicOffsets)
{
    (void)layout;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    if (pipelineBindPoint != VK_PIPELINE_BIND_POINT_COMPUTE || firstSet > VKMM_MAX_BOUND_SETS ||
        descriptorSetCount > VKMM_MAX_BOUND_SETS - firstSet) {
        vkmm_command_buffer_reject(cmd, "vkCmdBindDescriptorSets: sets [%u, +%u) at bind point %d", firstSet,
                                   descriptorSetCount, pipelineBindPoint);
        return;
    }
    uint32_t next_offset = 0;
    for (uint32_t i = 0; i < descriptorSetCount; i++) {
        struct vkmm_descriptor_set *set = vkmm_descriptor_set_from_handle(pDescriptorSets[i]);
        uint32_t index = firstSet + i;
        cmd->compute.sets[index] = set;
        memset(cmd->compute.dynamic_offsets[index], 0, sizeof(cmd->compute.dynamic_offsets[index]));
        uint32_t dynamic = set ? set->layout->dynamic_count : 0;
        /* The spec: dynamic offsets are consumed in set order, then binding
         * order within each set. */
        for (uint32_t d = 0; d < dynamic && d < VKMM_MAX_DYNAMIC_PER_SET; d++) {
            if (next_offset < dynamicOffsetCount)
                cmd->compute.dynamic_offsets[index][d] = pDynamicOffsets[next_offset];
            next_offset++;
        }
        check_dynamic_offsets(cmd, set, index, cmd->compute.dynamic_offsets[index]);
    }
    if (next_offset != dynamicOffsetCount)
        vkmm_command_buffer_reject(cmd, "vkCmdBindDescriptorSets: %u dynamic offsets given, the sets have %u "
                                        "(binding kept, offsets past the given ones are 0)",
                                   dynamicOffsetCount, next_offset);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                                                 VkShaderStageFlags stageFlags, uint32_t offset, uint32_t size,
                                                 const void *pValues)
{
    (void)layout, (void)stageFlags;
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    if (offset > VKMM_PUSH_CONSTANT_BYTES || size > VKMM_PUSH_CONSTANT_BYTES - offset) {
        vkmm_command_buffer_reject(cmd, "vkCmdPushConstants: [%u, +%u) exceeds %d bytes", offset, size,
                                   VKMM_PUSH_CONSTANT_BYTES);
        return;
    }
    memcpy(cmd->compute.push_constants + offset, pValues, size);
}

static struct vkmm_dispatch *record_dispatch(struct vkmm_command_buffer *cmd, const char *what)
{
    if (!cmd->compute.pipeline) {
        vkmm_command_buffer_reject(cmd, "%s: no compute pipeline is bound", what);
        return NULL;
    }
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_DISPATCH);
    if (!command)
        return NULL;
    struct vkmm_dispatch *dispatch = vkmm_command_buffer_store(cmd, NULL, sizeof(*dispatch));
    if (!dispatch)
        return NULL;
    dispatch->bindings = cmd->compute;
    command->u.dispatch = dispatch;
    return dispatch;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
                                                uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
                                                uint32_t groupCountZ)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    const uint32_t base[3] = { baseGroupX, baseGroupY, baseGroupZ };
    const uint32_t count[3] = { groupCountX, groupCountY, groupCountZ };
    /* VUID-vkCmdDispatchBase-baseGroupX-00421 and -groupCountX-00424 (and
     * Y, Z): base + count within maxComputeWorkGroupCount. */
    for (int i = 0; i < 3; i++) {
        if ((uint64_t)base[i] + count[i] > VKMM_MAX_WORKGROUP_COUNT) {
            vkmm_command_buffer_reject(cmd, "vkCmdDispatch: base %u + count %u in dimension %d exceeds "
                                       "maxComputeWorkGroupCount (%u)", base[i], count[i], i,
                                       VKMM_MAX_WORKGROUP_COUNT);
            return;
        }
    }
    struct vkmm_dispatch *dispatch = record_dispatch(cmd, "vkCmdDispatch");
    if (!dispatch)
        return;
    memcpy(dispatch->base, base, sizeof(base));
    memcpy(dispatch->count, count, sizeof(count));
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdDispatch(VkCommandBuffer commandBuffer, uint32_t groupCountX, uint32_t groupCountY,
                                            uint32_t groupCountZ)
{
    vkmm_CmdDispatchBase(commandBuffer, 0, 0, 0, groupCountX, groupCountY, groupCountZ);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                    VkDeviceSize offset)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_buffer, indirect, buffer);
    if (!indirect->memory || offset % 4 || offset > indirect->size || indirect->size - offset < 12) {
        vkmm_command_buffer_reject(cmd, "vkCmdDispatchIndirect: offset %llu does not leave 12 aligned bytes in a "
                                        "bound buffer of %llu bytes",
                                   (unsigned long long)offset, (unsigned long long)indirect->size);
        return;
    }
    struct vkmm_dispatch *dispatch = record_dispatch(cmd, "vkCmdDispatchIndirect");
    if (!dispatch)
        return;
    dispatch->indirect = indirect;
    dispatch->indirect_offset = offset;
}

/* One physical device per group: the only valid mask is 1 (its dispatches
 * run there), anything else names devices that do not exist. */
VKAPI_ATTR void VKAPI_CALL vkmm_CmdSetDeviceMask(VkCommandBuffer commandBuffer, uint32_t deviceMask)
{
    if (deviceMask != 1)
        vkmm_command_buffer_invalid(vkmm_command_buffer_from_handle(commandBuffer),
                                    "VUID-vkCmdSetDeviceMask-deviceMask-00108",
                                    "vkCmdSetDeviceMask(0x%x): the device group has one device (mask 1)", deviceMask);
}
