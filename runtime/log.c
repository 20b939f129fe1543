#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_utils_messenger.h"
#include "instance.h"
#include "object.h"
#include "vkmm_enum_strings.h"

int vkmm_log_to_stderr(void)
{
    const char *log = getenv("VKMM_LOG");
    return log && strstr(log, "stderr") != NULL;
}

static void log_vformat(const struct vkmm_object *object,
                        VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                        VkDebugUtilsMessageTypeFlagsEXT types, const char *message_id,
                        const char *format, va_list args)
{
    char message[1024];
    vsnprintf(message, sizeof(message), format, args);
    /* Verbose messages (how strict mode ran a dispatch) only when asked:
     * VKMM_LOG=stderr,verbose. */
    const char *log = getenv("VKMM_LOG");
    if (vkmm_log_to_stderr() &&
        (severity != VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT || strstr(log, "verbose")))
        fprintf(stderr, "vkmm: %s: %s\n", message_id, message);
    if (!object || !object->instance)
        return;
    VkDebugUtilsObjectNameInfoEXT named = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = object->type,
        .objectHandle = (uint64_t)(uintptr_t)object,
        .pObjectName = object->debug_name,
    };
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = message_id,
        .pMessage = message,
        .objectCount = 1,
        .pObjects = &named,
    };
    vkmm_debug_messengers_emit(object->instance, severity, types, &data);
}

void vkmm_log(const struct vkmm_object *object, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
              VkDebugUtilsMessageTypeFlagsEXT types, const char *message_id, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    log_vformat(object, severity, types, message_id, format, args);
    va_end(args);
}

VkResult vkmm_errorf_at(const struct vkmm_object *object, VkResult result, const char *file, int line,
                        const char *format, ...)
{
    char message[900];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    vkmm_log(object, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, vkmm_VkResult_to_str(result), "%s (%s:%d)",
             message, file, line);
    return result;
}

void vkmm_print_cut(char *out, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(out, size, format, args);
    va_end(args);
}
