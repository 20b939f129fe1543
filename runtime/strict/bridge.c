/* The bridge's life and its lock (strict.h). */
#include "bridge.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "address_space.h"
#include "alloc.h"
#include "device_monitor.h"
#include "dispatch_levels.h"
#include "vkmm/vkmm.h"

static void sink(void *user, const struct vkmm_mm_hazard *hazard)
{
    vkmm_strict_report(user, hazard);
}

/* The knobs that pick the common reading of a rule over the model's
 * (README): VKMM_HOST_READ=after-wait, VKMM_HOST_WRITE=before-signal,
 * VKMM_SHADER_FENCES=common. */
static bool setting_is(const char *name, const char *value)
{
    const char *text = getenv(name);
    return text && strcmp(text, value) == 0;
}

VkResult vkmm_strict_create(const VkAllocationCallbacks *allocator, bool own_callbacks,
                            struct vkmm_address_space *space, const struct vkmm_strict_hooks *hooks,
                            struct vkmm_strict **out)
{
    *out = NULL;
    struct vkmm_strict *strict = vkmm_zalloc(allocator, NULL, sizeof(*strict), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!strict)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    strict->allocator = allocator;
    strict->hooks = *hooks;
    strict->space = space;
    pthread_mutex_init(&strict->lock, NULL);
    vkmm_hazard_report_open(strict);
    /* The application's callbacks, if it gave any; without, the engine
     * takes large zeroed blocks from calloc (untouched pages) and host views
     * from pages of their own (host_trap.h). */
    strict->engine = vkmm_mm_engine_create2(sink, strict, vkmm_seed(), own_callbacks ? allocator : NULL);
    strict->device_monitor = strict->engine ? vkmm_device_monitor_create(space->base, space->size) : NULL;
    if (!strict->device_monitor) {
        vkmm_strict_destroy(strict);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    vkmm_mm_set_parallel(strict->engine, hooks->parallel, hooks->user);
    vkmm_mm_set_host_wait_reads(strict->engine, setting_is("VKMM_HOST_READ", "after-wait"));
    strict->host_signal_writes = setting_is("VKMM_HOST_WRITE", "before-signal");
    /* Release/acquire imply availability and visibility in Vulkan-memory-
     * model modules too (dispatch_levels.h). */
    vkmm_dispatch_levels_set_common_fences(vkmm_device_monitor_levels(strict->device_monitor),
                                           setting_is("VKMM_SHADER_FENCES", "common"));
    *out = strict;
    return VK_SUCCESS;
}

void vkmm_strict_destroy(struct vkmm_strict *strict)
{
    if (!strict)
        return;
    if (strict->engine)
        vkmm_strict_report_uninitialized(strict);
    vkmm_hazard_report_close(strict);
    vkmm_free(strict->allocator, NULL, strict->uninitialized);
    vkmm_device_monitor_destroy(strict->device_monitor);
    for (uint32_t i = 0; i < VKMM_STRICT_MAX_HELPERS; i++)
        vkmm_device_monitor_destroy(strict->helpers[i]);
    vkmm_mm_engine_destroy(strict->engine);
    vkmm_free(strict->allocator, NULL, strict->accesses);
    pthread_mutex_destroy(&strict->lock);
    vkmm_free(strict->allocator, NULL, strict);
}

struct vkmm_device_monitor *vkmm_strict_device_monitor(struct vkmm_strict *strict)
{
    return strict->device_monitor;
}

void vkmm_strict_open_views(struct vkmm_strict *strict)
{
    if (!strict->views_quiet)
        return;
    for (struct vkmm_strict_memory *m = strict->memories; m; m = m->next)
        vkmm_mm_host_view_open(m->mm);
    strict->views_quiet = false;
}

void vkmm_strict_lock(struct vkmm_strict *strict)
{
    pthread_mutex_lock(&strict->lock);
    if (strict->host_trap_armed)
        vkmm_strict_disarm_host_trap(strict);
    vkmm_strict_open_views(strict);
}

void vkmm_strict_lock_device(struct vkmm_strict *strict)
{
    pthread_mutex_lock(&strict->lock);
    if (strict->host_trap_armed)
        vkmm_strict_disarm_host_trap(strict);
}

/* The engine ran out of host memory inside a call that returns nothing:
 * its state may no longer be the strict machine's, so results could be
 * wrong without a report.  A GPU driver that cannot go on loses the device;
 * so does vkmm (waits and submits return VK_ERROR_DEVICE_LOST). */
static void lose_device_if_engine_failed(struct vkmm_strict *strict)
{
    if (vkmm_mm_engine_take_status(strict->engine) == VK_SUCCESS || strict->lost)
        return;
    vkmm_strict_lose(strict, "strict mode ran out of host memory for its shadow state: the device is lost");
}

void vkmm_strict_unlock(struct vkmm_strict *strict)
{
    lose_device_if_engine_failed(strict);
    vkmm_hazard_report_flush(strict);
    pthread_mutex_unlock(&strict->lock);
}

void vkmm_strict_log(struct vkmm_strict *strict, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                     VkDebugUtilsMessageTypeFlagsEXT type, const char *id, const char *format, ...)
{
    char text[4096];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    strict->hooks.log(strict->hooks.user, severity, type, id, text);
}

void vkmm_strict_lose(struct vkmm_strict *strict, const char *text)
{
    strict->lost = true;
    strict->hooks.lose(strict->hooks.user, text);
}
