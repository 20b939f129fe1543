/* Recording of query commands. */
#include "buffer.h"
#include "command_buffer.h"
#include "query_pool.h"

static bool queries_ok(struct vkmm_command_buffer *cmd, const char *what, struct vkmm_query_pool *pool,
                       uint32_t first, uint32_t count)
{
    if (first < pool->count && count <= pool->count - first)
        return true;
    vkmm_command_buffer_reject(cmd, "%s: queries [%u, +%u) exceed the pool's %u", what, first, count, pool->count);
    return false;
}

static void record_timestamp(struct vkmm_command_buffer *cmd, VkPipelineStageFlags2 stage, VkQueryPool queryPool,
                             uint32_t query)
{
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    if (!queries_ok(cmd, "vkCmdWriteTimestamp", pool, query, 1))
        return;
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_WRITE_TIMESTAMP);
    if (!command)
        return;
    command->u.write_timestamp.pool = pool;
    command->u.write_timestamp.query = query;
    command->u.write_timestamp.stage = stage;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2 stage,
                                                   VkQueryPool queryPool, uint32_t query)
{
    record_timestamp(vkmm_command_buffer_from_handle(commandBuffer), stage, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdWriteTimestamp(VkCommandBuffer commandBuffer,
                                                  VkPipelineStageFlagBits pipelineStage, VkQueryPool queryPool,
                                                  uint32_t query)
{
    record_timestamp(vkmm_command_buffer_from_handle(commandBuffer), pipelineStage, queryPool, query);
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                  uint32_t firstQuery, uint32_t queryCount)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    if (!queries_ok(cmd, "vkCmdResetQueryPool", pool, firstQuery, queryCount))
        return;
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_RESET_QUERY_POOL);
    if (!command)
        return;
    command->u.reset_query_pool.pool = pool;
    command->u.reset_query_pool.first = firstQuery;
    command->u.reset_query_pool.count = queryCount;
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                        uint32_t firstQuery, uint32_t queryCount, VkBuffer dstBuffer,
                                                        VkDeviceSize dstOffset, VkDeviceSize stride,
                                                        VkQueryResultFlags flags)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    VKMM_FROM_HANDLE(vkmm_buffer, dst, dstBuffer);
    if (!queries_ok(cmd, "vkCmdCopyQueryPoolResults", pool, firstQuery, queryCount))
        return;
    VkDeviceSize value_size;
    VkDeviceSize span = vkmm_query_result_span(queryCount, stride, flags, &value_size);
    if (!dst->memory || dstOffset % value_size || stride % value_size || dstOffset > dst->size ||
        span > dst->size - dstOffset) {
        vkmm_command_buffer_reject(cmd,
                                   "vkCmdCopyQueryPoolResults: %u results at offset %llu stride %llu do not fit "
                                   "the bound buffer of %llu bytes, or are misaligned",
                                   queryCount, (unsigned long long)dstOffset, (unsigned long long)stride,
                                   (unsigned long long)dst->size);
        return;
    }
    struct vkmm_command *command = vkmm_command_buffer_append(cmd, VKMM_COMMAND_COPY_QUERY_POOL_RESULTS);
    if (!command)
        return;
    command->u.copy_query_pool_results.pool = pool;
    command->u.copy_query_pool_results.first = firstQuery;
    command->u.copy_query_pool_results.count = queryCount;
    command->u.copy_query_pool_results.dst = dst;
    command->u.copy_query_pool_results.offset = dstOffset;
    command->u.copy_query_pool_results.stride = stride;
    command->u.copy_query_pool_results.flags = flags;
}

/* vkmm's query pools are timestamp pools, which vkCmdBeginQuery takes
 * none of (VUID-vkCmdBeginQuery-queryType-02804), and occlusion pools,
 * which only a graphics queue may begin (VUID-vkCmdBeginQuery-queryType-00803):
 * the commands are dropped. */
VKAPI_ATTR void VKAPI_CALL vkmm_CmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                              VkQueryControlFlags flags)
{
    (void)query, (void)flags;
    VKMM_FROM_HANDLE(vkmm_query_pool, pool, queryPool);
    vkmm_command_buffer_reject(vkmm_command_buffer_from_handle(commandBuffer),
                               pool && pool->type == VK_QUERY_TYPE_OCCLUSION
                                   ? "vkCmdBeginQuery of an occlusion query needs a graphics queue, which vkmm has "
                                     "none of (VUID-vkCmdBeginQuery-queryType-00803)"
                                   : "vkCmdBeginQuery on a timestamp query pool (VUID-vkCmdBeginQuery-queryType-02804)");
}

VKAPI_ATTR void VKAPI_CALL vkmm_CmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query)
{
    (void)queryPool, (void)query;
    vkmm_command_buffer_reject(vkmm_command_buffer_from_handle(commandBuffer),
                               "vkCmdEndQuery without an active query (VUID-vkCmdEndQuery-None-01923)");
}
