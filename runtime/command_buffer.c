#include "command_buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "command_pool.h"
#include "device.h"
#include "log.h"
#include "scheduler.h"

const char *vkmm_command_type_name(enum vkmm_command_type type)
{
    switch (type) {
    case VKMM_COMMAND_COPY_BUFFER: return "vkCmdCopyBuffer";
    case VKMM_COMMAND_FILL_BUFFER: return "vkCmdFillBuffer";
    case VKMM_COMMAND_UPDATE_BUFFER: return "vkCmdUpdateBuffer";
    case VKMM_COMMAND_PIPELINE_BARRIER: return "vkCmdPipelineBarrier";
    case VKMM_COMMAND_SET_EVENT: return "vkCmdSetEvent";
    case VKMM_COMMAND_RESET_EVENT: return "vkCmdResetEvent";
    case VKMM_COMMAND_WAIT_EVENTS: return "vkCmdWaitEvents";
    case VKMM_COMMAND_WRITE_TIMESTAMP: return "vkCmdWriteTimestamp";
    case VKMM_COMMAND_RESET_QUERY_POOL: return "vkCmdResetQueryPool";
    case VKMM_COMMAND_COPY_QUERY_POOL_RESULTS: return "vkCmdCopyQueryPoolResults";
    case VKMM_COMMAND_EXECUTE_COMMANDS: return "vkCmdExecuteCommands";
    case VKMM_COMMAND_BEGIN_LABEL: return "vkCmdBeginDebugUtilsLabelEXT";
    case VKMM_COMMAND_END_LABEL: return "vkCmdEndDebugUtilsLabelEXT";
    case VKMM_COMMAND_INSERT_LABEL: return "vkCmdInsertDebugUtilsLabelEXT";
    case VKMM_COMMAND_DISPATCH: return "vkCmdDispatch";
    case VKMM_COMMAND_BLIT_IMAGE: return "vkCmdBlitImage";
    }
    return "(unknown command)";
}

const char *vkmm_command_name(const struct vkmm_command *command)
{
    if (command->type == VKMM_COMMAND_DISPATCH && command->u.dispatch && command->u.dispatch->indirect)
        return "vkCmdDispatchIndirect";
    return vkmm_command_type_name(command->type);
}

static void log_invalid(struct vkmm_command_buffer *cmd, const char *id, const char *suffix, const char *format,
                        va_list args)
{
    char message[512];
    vsnprintf(message, sizeof(message), format, args);
    vkmm_log(&cmd->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
             id, "%s%s", message, suffix);
}

void vkmm_command_buffer_reject(struct vkmm_command_buffer *cmd, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_invalid(cmd, "VKMM-INVALID-COMMAND", "; the command is dropped", format, args);
    va_end(args);
}

void vkmm_command_buffer_invalid(struct vkmm_command_buffer *cmd, const char *vuid, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_invalid(cmd, vuid, "", format, args);
    va_end(args);
}

static void record_error(struct vkmm_command_buffer *cmd, VkResult result, const char *what)
{
    if (cmd->record_result == VK_SUCCESS)
        cmd->record_result = vkmm_errorf(cmd, result, "%s failed while recording", what);
}

void *vkmm_command_buffer_store(struct vkmm_command_buffer *cmd, const void *source, size_t size)
{
    if (size == 0)
        return NULL;
    void *memory = vkmm_arena_alloc(&cmd->arena, size);
    if (!memory) {
        record_error(cmd, VK_ERROR_OUT_OF_HOST_MEMORY, "storing command data");
        return NULL;
    }
    if (source)
        memcpy(memory, source, size);
    return memory;
}

struct vkmm_command *vkmm_command_buffer_append(struct vkmm_command_buffer *cmd, enum vkmm_command_type type)
{
    if (cmd->record_result != VK_SUCCESS)
        return NULL; /* the buffer is already doomed; skip further work */
    struct vkmm_command *command = vkmm_arena_alloc(&cmd->arena, sizeof(*command));
    if (!command) {
        record_error(cmd, VK_ERROR_OUT_OF_HOST_MEMORY, vkmm_command_type_name(type));
        return NULL;
    }
    command->type = type;
    command->index = cmd->command_count++;
    if (cmd->last)
        cmd->last->next = command;
    else
        cmd->first = command;
    cmd->last = command;
    return command;
}

void vkmm_command_buffer_reset(struct vkmm_command_buffer *cmd)
{
    vkmm_arena_reset(&cmd->arena);
    cmd->first = cmd->last = NULL;
    cmd->command_count = 0;
    cmd->record_result = VK_SUCCESS;
    cmd->usage = 0;
    memset(&cmd->compute, 0, sizeof(cmd->compute));
    cmd->state = VKMM_COMMAND_BUFFER_INITIAL;
}

void vkmm_command_buffer_destroy(struct vkmm_command_buffer *cmd)
{
    struct vkmm_command_pool *pool = cmd->pool;
    vkmm_command_buffer_reset(cmd);
    if (cmd->pool_prev)
        cmd->pool_prev->pool_next = cmd->pool_next;
    else
        pool->buffers = cmd->pool_next;
    if (cmd->pool_next)
        cmd->pool_next->pool_prev = cmd->pool_prev;
    vkmm_object_finish(&cmd->base);
    vkmm_free(&pool->allocator, NULL, cmd);
}

bool vkmm_command_buffer_is_pending(struct vkmm_command_buffer *cmd)
{
    struct vkmm_scheduler *scheduler = cmd->base.device->scheduler;
    vkmm_scheduler_lock(scheduler);
    bool pending = cmd->pending > 0;
    vkmm_scheduler_unlock(scheduler);
    return pending;
}

static bool not_pending(void *arg)
{
    const struct vkmm_command_buffer *cmd = arg;
    return cmd->pending == 0;
}

/* How long freeing a pending command buffer waits for it. */
#define SETTLE_TIMEOUT_NS 5000000000ull

bool vkmm_command_buffer_settle_before_free(struct vkmm_command_buffer *cmd, const char *vuid)
{
    if (!vkmm_command_buffer_is_pending(cmd))
        return true;
    vkmm_log(&cmd->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
             "VKMM-ERROR-PENDING-FREED",
             "a pending command buffer is freed (%s): vkmm waits for its submissions to complete first", vuid);
    struct vkmm_scheduler *scheduler = cmd->base.device->scheduler;
    vkmm_scheduler_lock(scheduler);
    VkResult result = vkmm_scheduler_wait_locked(scheduler, not_pending, cmd, SETTLE_TIMEOUT_NS);
    vkmm_scheduler_unlock(scheduler);
    if (result == VK_SUCCESS)
        return true;
    vkmm_log(&cmd->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
             "VKMM-ERROR-PENDING-FREED",
             "a freed command buffer is still pending after 5 s (%s): it is not freed (its memory is leaked)", vuid);
    return false;
}

void vkmm_command_buffer_complete_locked(struct vkmm_command_buffer *cmd)
{
    assert(cmd->pending > 0);
    cmd->pending--;
    /* The spec: a ONE_TIME_SUBMIT command buffer "moves to the invalid
     * state" once its execution completes. */
    if (cmd->usage & VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT)
        cmd->state = VKMM_COMMAND_BUFFER_INVALID;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_AllocateCommandBuffers(VkDevice _device,
                                                            const VkCommandBufferAllocateInfo *pAllocateInfo,
                                                            VkCommandBuffer *pCommandBuffers)
{
    VKMM_FROM_HANDLE(vkmm_device, device, _device);
    VKMM_FROM_HANDLE(vkmm_command_pool, pool, pAllocateInfo->commandPool);
    uint32_t i;
    for (i = 0; i < pAllocateInfo->commandBufferCount; i++) {
        struct vkmm_command_buffer *cmd =
            vkmm_zalloc(&pool->allocator, NULL, sizeof(*cmd), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
        if (!cmd)
            break;
        vkmm_object_init(&cmd->base, VK_OBJECT_TYPE_COMMAND_BUFFER, device->base.instance, device);
        cmd->pool = pool;
        cmd->level = pAllocateInfo->level;
        cmd->state = VKMM_COMMAND_BUFFER_INITIAL;
        vkmm_arena_init(&cmd->arena, &pool->free_blocks);
        cmd->pool_next = pool->buffers;
        if (pool->buffers)
            pool->buffers->pool_prev = cmd;
        pool->buffers = cmd;
        pCommandBuffers[i] = vkmm_command_buffer_to_handle(cmd);
    }
    if (i == pAllocateInfo->commandBufferCount)
        return VK_SUCCESS;
    /* The spec: on failure "any objects that were created are destroyed" and
     * every element of pCommandBuffers is set to NULL. */
    for (uint32_t k = 0; k < i; k++)
        vkmm_command_buffer_destroy(vkmm_command_buffer_from_handle(pCommandBuffers[k]));
    for (uint32_t k = 0; k < pAllocateInfo->commandBufferCount; k++)
        pCommandBuffers[k] = VK_NULL_HANDLE;
    return vkmm_errorf(pool, VK_ERROR_OUT_OF_HOST_MEMORY, "no memory for command buffer %u of %u", i,
                       pAllocateInfo->commandBufferCount);
}

VKAPI_ATTR void VKAPI_CALL vkmm_FreeCommandBuffers(VkDevice _device, VkCommandPool commandPool,
                                                   uint32_t commandBufferCount, const VkCommandBuffer *pCommandBuffers)
{
    (void)_device, (void)commandPool;
    for (uint32_t i = 0; i < commandBufferCount; i++) {
        VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, pCommandBuffers[i]);
        if (cmd && vkmm_command_buffer_settle_before_free(cmd, "VUID-vkFreeCommandBuffers-pCommandBuffers-00047"))
            vkmm_command_buffer_destroy(cmd);
    }
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_BeginCommandBuffer(VkCommandBuffer commandBuffer,
                                                        const VkCommandBufferBeginInfo *pBeginInfo)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    /* Resetting would free commands a queue still runs. */
    if (vkmm_command_buffer_is_pending(cmd))
        return vkmm_errorf(cmd, VK_ERROR_UNKNOWN,
                           "vkBeginCommandBuffer on a pending command buffer (VUID-vkBeginCommandBuffer-commandBuffer-"
                           "00049): it is left as it is");
    /* A command buffer whose recorded commands use a resource that was
     * destroyed is invalid, even while recording, and beginning it is
     * valid (fuzz_api found vkmm refusing it): vkmm does not track that, so
     * a begin while recording resets it, as a begin from the invalid state
     * does. */
    if (cmd->state == VKMM_COMMAND_BUFFER_RECORDING)
        vkmm_log(&cmd->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-WARNING-BEGIN-WHILE-RECORDING",
                 "vkBeginCommandBuffer while recording: valid only if a resource its commands use was destroyed "
                 "(the command buffer is then invalid), VUID-vkBeginCommandBuffer-commandBuffer-00049 otherwise; "
                 "it is reset and begun");
    /* The spec: beginning a buffer that is not in the initial state resets
     * it implicitly (requires RESET_COMMAND_BUFFER_BIT on the pool). */
    if (cmd->state != VKMM_COMMAND_BUFFER_INITIAL)
        vkmm_command_buffer_reset(cmd);
    cmd->usage = pBeginInfo->flags;
    cmd->state = VKMM_COMMAND_BUFFER_RECORDING;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    if (cmd->state != VKMM_COMMAND_BUFFER_RECORDING)
        return vkmm_errorf(cmd, VK_ERROR_UNKNOWN, "vkEndCommandBuffer while not recording");
    if (cmd->record_result != VK_SUCCESS) {
        cmd->state = VKMM_COMMAND_BUFFER_INVALID;
        return cmd->record_result;
    }
    cmd->state = VKMM_COMMAND_BUFFER_EXECUTABLE;
    return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL vkmm_ResetCommandBuffer(VkCommandBuffer commandBuffer,
                                                        VkCommandBufferResetFlags flags)
{
    (void)flags; /* blocks go back to the pool either way; trimming frees them */
    VKMM_FROM_HANDLE(vkmm_command_buffer, cmd, commandBuffer);
    if (vkmm_command_buffer_is_pending(cmd))
        return vkmm_errorf(cmd, VK_ERROR_UNKNOWN,
                           "vkResetCommandBuffer on a pending command buffer (VUID-vkResetCommandBuffer-commandBuffer-"
                           "00045): it is left as it is");
    vkmm_command_buffer_reset(cmd);
    return VK_SUCCESS;
}
