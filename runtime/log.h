/* Driver messages: to VK_EXT_debug_utils messengers, and to stderr when
 * VKMM_LOG=stderr. */
#pragma once

#include <stddef.h>
#include <vulkan/vulkan.h>

struct vkmm_object;

/* Sends one message about `object` (may be NULL when no instance is known:
 * then only stderr gets it). */
void vkmm_log(const struct vkmm_object *object, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
              VkDebugUtilsMessageTypeFlagsEXT types, const char *message_id, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

/* Logs an error about `object` and returns `result`, so that error paths read
 * `return vkmm_errorf(obj, VK_ERROR_..., "...")`. */
VkResult vkmm_errorf_at(const struct vkmm_object *object, VkResult result, const char *file, int line,
                        const char *format, ...) __attribute__((format(printf, 5, 6)));

#define vkmm_errorf(object, result, ...) \
    vkmm_errorf_at((const struct vkmm_object *)(object), (result), __FILE__, __LINE__, __VA_ARGS__)

/* snprintf into a fixed message buffer where a longer text is cut on
 * purpose (the message stays readable); keeps -Wformat-truncation quiet. */
void vkmm_print_cut(char *out, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

/* True when VKMM_LOG asks for messages on stderr. */
int vkmm_log_to_stderr(void);
