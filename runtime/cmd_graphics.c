/* The core commands that need a queue with VK_QUEUE_GRAPHICS_BIT (draws,
 * render passes and dynamic rendering, graphics state, vertex and index
 * buffers, resolves and depth/stencil clears: each one's
 * VUID-...-commandBuffer-cmdpool says so).  vkmm has no such queue, so no
 * valid program records them; a 1.3 driver must still give every core
 * entry point, and a program that calls one must neither crash nor corrupt
 * memory: the command says why and is dropped.  (Blits need such a queue
 * too, but the spec's required format features include BLIT_SRC and
 * BLIT_DST: cmd_image.c runs them, with a message.) */
#include "command_buffer.h"

static void graphics_only(VkCommandBuffer commandBuffer, const char *name)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    vkmm_command_buffer_reject(cmd,
                               "%s needs a command pool of a queue family with VK_QUEUE_GRAPHICS_BIT "
                               "(VUID-%s-commandBuffer-cmdpool); vkmm's queue families are compute and transfer",
                               name, name);
}

/* The arguments are the prototype's, unused: the command is dropped before
 * any is read. */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define GRAPHICS_ONLY(name, ...)                                                                   \
    VKAPI_ATTR void VKAPI_CALL vkmm_##name(VkCommandBuffer commandBuffer, __VA_ARGS__)             \
    {                                                                                              \
        graphics_only(commandBuffer, "vk" #name);                                                  \
    }
#define GRAPHICS_ONLY_NOARGS(name)                                                                 \
    VKAPI_ATTR void VKAPI_CALL vkmm_##name(VkCommandBuffer commandBuffer)                          \
    {                                                                                              \
        graphics_only(commandBuffer, "vk" #name);                                                  \
    }

GRAPHICS_ONLY(CmdBeginRenderPass, const VkRenderPassBeginInfo *pRenderPassBegin, VkSubpassContents contents)
GRAPHICS_ONLY(CmdBeginRenderPass2, const VkRenderPassBeginInfo *pRenderPassBegin,
              const VkSubpassBeginInfo *pSubpassBeginInfo)
GRAPHICS_ONLY(CmdBeginRendering, const VkRenderingInfo *pRenderingInfo)
GRAPHICS_ONLY(CmdBindIndexBuffer, VkBuffer buffer, VkDeviceSize offset, VkIndexType indexType)
GRAPHICS_ONLY(CmdBindVertexBuffers, uint32_t firstBinding, uint32_t bindingCount, const VkBuffer *pBuffers,
              const VkDeviceSize *pOffsets)
GRAPHICS_ONLY(CmdBindVertexBuffers2, uint32_t firstBinding, uint32_t bindingCount, const VkBuffer *pBuffers,
              const VkDeviceSize *pOffsets, const VkDeviceSize *pSizes, const VkDeviceSize *pStrides)
GRAPHICS_ONLY(CmdClearAttachments, uint32_t attachmentCount, const VkClearAttachment *pAttachments, uint32_t rectCount,
              const VkClearRect *pRects)
GRAPHICS_ONLY(CmdClearDepthStencilImage, VkImage image, VkImageLayout imageLayout,
              const VkClearDepthStencilValue *pDepthStencil, uint32_t rangeCount,
              const VkImageSubresourceRange *pRanges)
GRAPHICS_ONLY(CmdDraw, uint32_t vertexCount, uint32_t instanceCount, uint32_t firstVertex, uint32_t firstInstance)
GRAPHICS_ONLY(CmdDrawIndexed, uint32_t indexCount, uint32_t instanceCount, uint32_t firstIndex, int32_t vertexOffset,
              uint32_t firstInstance)
GRAPHICS_ONLY(CmdDrawIndexedIndirect, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount, uint32_t stride)
GRAPHICS_ONLY(CmdDrawIndexedIndirectCount, VkBuffer buffer, VkDeviceSize offset, VkBuffer countBuffer,
              VkDeviceSize countBufferOffset, uint32_t maxDrawCount, uint32_t stride)
GRAPHICS_ONLY(CmdDrawIndirect, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount, uint32_t stride)
GRAPHICS_ONLY(CmdDrawIndirectCount, VkBuffer buffer, VkDeviceSize offset, VkBuffer countBuffer,
              VkDeviceSize countBufferOffset, uint32_t maxDrawCount, uint32_t stride)
GRAPHICS_ONLY_NOARGS(CmdEndRenderPass)
GRAPHICS_ONLY(CmdEndRenderPass2, const VkSubpassEndInfo *pSubpassEndInfo)
GRAPHICS_ONLY_NOARGS(CmdEndRendering)
GRAPHICS_ONLY(CmdNextSubpass, VkSubpassContents contents)
GRAPHICS_ONLY(CmdNextSubpass2, const VkSubpassBeginInfo *pSubpassBeginInfo, const VkSubpassEndInfo *pSubpassEndInfo)
GRAPHICS_ONLY(CmdResolveImage, VkImage srcImage, VkImageLayout srcImageLayout, VkImage dstImage,
              VkImageLayout dstImageLayout, uint32_t regionCount, const VkImageResolve *pRegions)
GRAPHICS_ONLY(CmdResolveImage2, const VkResolveImageInfo2 *pResolveImageInfo)
GRAPHICS_ONLY(CmdSetBlendConstants, const float blendConstants[4])
GRAPHICS_ONLY(CmdSetCullMode, VkCullModeFlags cullMode)
GRAPHICS_ONLY(CmdSetDepthBias, float depthBiasConstantFactor, float depthBiasClamp, float depthBiasSlopeFactor)
GRAPHICS_ONLY(CmdSetDepthBiasEnable, VkBool32 depthBiasEnable)
GRAPHICS_ONLY(CmdSetDepthBounds, float minDepthBounds, float maxDepthBounds)
GRAPHICS_ONLY(CmdSetDepthBoundsTestEnable, VkBool32 depthBoundsTestEnable)
GRAPHICS_ONLY(CmdSetDepthCompareOp, VkCompareOp depthCompareOp)
GRAPHICS_ONLY(CmdSetDepthTestEnable, VkBool32 depthTestEnable)
GRAPHICS_ONLY(CmdSetDepthWriteEnable, VkBool32 depthWriteEnable)
GRAPHICS_ONLY(CmdSetFrontFace, VkFrontFace frontFace)
GRAPHICS_ONLY(CmdSetLineWidth, float lineWidth)
GRAPHICS_ONLY(CmdSetPrimitiveRestartEnable, VkBool32 primitiveRestartEnable)
GRAPHICS_ONLY(CmdSetPrimitiveTopology, VkPrimitiveTopology primitiveTopology)
GRAPHICS_ONLY(CmdSetRasterizerDiscardEnable, VkBool32 rasterizerDiscardEnable)
GRAPHICS_ONLY(CmdSetScissor, uint32_t firstScissor, uint32_t scissorCount, const VkRect2D *pScissors)
GRAPHICS_ONLY(CmdSetScissorWithCount, uint32_t scissorCount, const VkRect2D *pScissors)
GRAPHICS_ONLY(CmdSetStencilCompareMask, VkStencilFaceFlags faceMask, uint32_t compareMask)
GRAPHICS_ONLY(CmdSetStencilOp, VkStencilFaceFlags faceMask, VkStencilOp failOp, VkStencilOp passOp,
              VkStencilOp depthFailOp, VkCompareOp compareOp)
GRAPHICS_ONLY(CmdSetStencilReference, VkStencilFaceFlags faceMask, uint32_t reference)
GRAPHICS_ONLY(CmdSetStencilTestEnable, VkBool32 stencilTestEnable)
GRAPHICS_ONLY(CmdSetStencilWriteMask, VkStencilFaceFlags faceMask, uint32_t writeMask)
GRAPHICS_ONLY(CmdSetViewport, uint32_t firstViewport, uint32_t viewportCount, const VkViewport *pViewports)
GRAPHICS_ONLY(CmdSetViewportWithCount, uint32_t viewportCount, const VkViewport *pViewports)
