/* The bridge's registry: the memories strict mode emulates, the buffers
 * bound over them, and the names the application gave both, so that a
 * report names the bytes as the application knows them.  Filled when
 * objects are created, bound and named (strict.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bridge.h"

/* --- Memories ----------------------------------------------------------------- */

/* VKMM_STRICT_MAX_BYTES: an opt-out for programs with allocations too
 * large to shadow on this machine: larger ones are not emulated and
 * behave as in fast mode, with a warning.  Unset: every allocation is
 * emulated. */
static uint64_t strict_limit(void)
{
    const char *text = getenv("VKMM_STRICT_MAX_BYTES");
    return text ? strtoull(text, NULL, 0) : UINT64_MAX;
}

/* What the engine commits when it creates a memory: the allocation
 * pattern in the value arrays of each level (device memory and the
 * coherent view; the view and its change-detection copy for host-visible
 * memory, whose host domain reads device memory until they part).  The
 * rest — metadata, write paths, history, the host domain's own pages — is
 * committed where commands write, within the heap's shadow factor
 * (physical_device.c). */
static uint64_t shadow_bytes(uint64_t size, bool host_visible)
{
    uint64_t per_byte = host_visible ? 4 : 2;
    return size > UINT64_MAX / per_byte ? UINT64_MAX : size * per_byte;
}

/* Host memory the system can still give (MemAvailable), or UINT64_MAX
 * when unknown. */
static uint64_t available_host_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return UINT64_MAX;
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && fgets(line, sizeof(line), f))
        found = sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    fclose(f);
    return found ? (uint64_t)kib * 1024 : UINT64_MAX;
}

static void note(struct vkmm_strict_note *out, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                 VkDebugUtilsMessageTypeFlagsEXT type, const char *id)
{
    out->severity = severity;
    out->type = type;
    out->id = id;
}

/* Lock held. */
static void link_memory(struct vkmm_strict *strict, struct vkmm_strict_memory *memory)
{
    memory->next = strict->memories;
    if (strict->memories)
        strict->memories->prev = memory;
    strict->memories = memory;
    if (!memory->device_addressable)
        return;
    memory->addressable_next = strict->addressable;
    if (strict->addressable)
        strict->addressable->addressable_prev = memory;
    strict->addressable = memory;
}

/* Lock held. */
static void unlink_memory(struct vkmm_strict *strict, struct vkmm_strict_memory *memory)
{
    if (memory->device_addressable) {
        if (memory->addressable_prev)
            memory->addressable_prev->addressable_next = memory->addressable_next;
        else
            strict->addressable = memory->addressable_next;
        if (memory->addressable_next)
            memory->addressable_next->addressable_prev = memory->addressable_prev;
    }
    if (memory->prev)
        memory->prev->next = memory->next;
    else
        strict->memories = memory->next;
    if (memory->next)
        memory->next->prev = memory->prev;
}

VkResult vkmm_strict_memory_create(struct vkmm_strict *strict, const struct vkmm_strict_memory_info *info,
                                   struct vkmm_strict_memory **out, struct vkmm_strict_note *out_note)
{
    *out = NULL;
    memset(out_note, 0, sizeof(*out_note));
    if (info->size > strict_limit()) {
        note(out_note, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
             "VKMM-WARNING-STRICT-SIZE");
        snprintf(out_note->text, sizeof(out_note->text),
                 "%llu bytes exceed VKMM_STRICT_MAX_BYTES (%llu): this memory is not emulated by strict mode",
                 (unsigned long long)info->size, (unsigned long long)strict_limit());
        return VK_SUCCESS;
    }
    /* Refused up front rather than met by the kernel's OOM killer halfway
     * through a dispatch: the shadow pages are committed as they are used. */
    uint64_t need = shadow_bytes(info->size, info->host_visible), available = available_host_bytes();
    if (need > available) {
        note(out_note, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
             "VK_ERROR_OUT_OF_HOST_MEMORY");
        snprintf(out_note->text, sizeof(out_note->text),
                 "strict mode needs %llu bytes of host memory to shadow these %llu bytes, and %llu are available "
                 "(VKMM_STRICT_MAX_BYTES leaves larger allocations unemulated)",
                 (unsigned long long)need, (unsigned long long)info->size, (unsigned long long)available);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    struct vkmm_strict_memory *memory = vkmm_zalloc(strict->allocator, NULL, sizeof(*memory),
                                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!memory)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    memory->bytes = info->bytes;
    memory->size = info->size;
    memory->device_addressable = info->device_addressable;
    vkmm_strict_lock(strict);
    memory->id = ++strict->memory_serial;
    memory->mm = vkmm_mm_memory_create(strict->engine, memory->id, info->size, info->host_visible, info->host_coherent);
    /* A failed creation is vkAllocateMemory's VK_ERROR_OUT_OF_HOST_MEMORY,
     * not a loss of the device. */
    vkmm_mm_engine_take_status(strict->engine);
    if (memory->mm)
        link_memory(strict, memory);
    vkmm_strict_unlock(strict);
    if (!memory->mm) {
        vkmm_free(strict->allocator, NULL, memory);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
    *out = memory;
    return VK_SUCCESS;
}

void vkmm_strict_memory_destroy(struct vkmm_strict *strict, struct vkmm_strict_memory *memory)
{
    if (!memory)
        return;
    /* "If a memory object is mapped at the time it is freed, it is
     * implicitly unmapped." */
    vkmm_strict_unmap(strict, memory);
    vkmm_strict_lock(strict);
    unlink_memory(strict, memory);
    /* Buffers may outlive their memory (they are then unusable). */
    for (struct vkmm_strict_buffer *b = memory->buffers, *next; b; b = next) {
        next = b->next;
        b->prev = b->next = NULL;
        b->memory = NULL;
    }
    vkmm_mm_memory_destroy(memory->mm);
    vkmm_strict_unlock(strict);
    vkmm_free(strict->allocator, NULL, memory);
}

void vkmm_strict_memory_name(struct vkmm_strict *strict, struct vkmm_strict_memory *memory, const char *name)
{
    const char *kept = vkmm_strict_intern(strict, name);
    vkmm_strict_lock(strict);
    memory->name = kept;
    vkmm_strict_unlock(strict);
}

const struct vkmm_strict_memory *vkmm_strict_memory_with_id(const struct vkmm_strict *strict, uint64_t id)
{
    const struct vkmm_strict_memory *memory = strict->memories;
    while (memory && memory->id != id)
        memory = memory->next;
    return memory;
}

/* --- Buffers ------------------------------------------------------------------ */

struct vkmm_strict_buffer *vkmm_strict_buffer_bind(struct vkmm_strict *strict, struct vkmm_strict_memory *memory,
                                                   uint64_t offset, uint64_t size, const char *name)
{
    struct vkmm_strict_buffer *buffer = vkmm_zalloc(strict->allocator, NULL, sizeof(*buffer),
                                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    if (!buffer)
        return NULL;
    const char *kept = vkmm_strict_intern(strict, name);
    vkmm_strict_lock(strict);
    *buffer = (struct vkmm_strict_buffer){ ++strict->buffer_serial, memory, offset, size, kept, NULL, memory->buffers };
    if (memory->buffers)
        memory->buffers->prev = buffer;
    memory->buffers = buffer;
    vkmm_strict_unlock(strict);
    return buffer;
}

void vkmm_strict_buffer_name(struct vkmm_strict *strict, struct vkmm_strict_buffer *buffer, const char *name)
{
    const char *kept = vkmm_strict_intern(strict, name);
    vkmm_strict_lock(strict);
    buffer->name = kept;
    vkmm_strict_unlock(strict);
}

void vkmm_strict_buffer_unbind(struct vkmm_strict *strict, struct vkmm_strict_buffer *buffer)
{
    if (!buffer)
        return;
    vkmm_strict_lock(strict);
    if (buffer->memory) { /* not unlinked by its memory's free meanwhile */
        if (buffer->prev)
            buffer->prev->next = buffer->next;
        else
            buffer->memory->buffers = buffer->next;
        if (buffer->next)
            buffer->next->prev = buffer->prev;
    }
    vkmm_strict_unlock(strict);
    vkmm_free(strict->allocator, NULL, buffer);
}

/* --- Names -------------------------------------------------------------------- */

const char *vkmm_strict_intern(struct vkmm_strict *strict, const char *text)
{
    if (!text)
        return NULL;
    vkmm_strict_lock(strict);
    const char *kept = vkmm_mm_intern(strict->engine, text);
    vkmm_strict_unlock(strict);
    return kept;
}

const char *vkmm_strict_place(struct vkmm_strict *strict, const char *command_buffer, const char *label,
                              const char *queue_label)
{
    if (!command_buffer && !label && !queue_label)
        return NULL;
    char text[512];
    int at = 0;
    const char *what[3] = { "command buffer", "label", "queue label" };
    const char *names[3] = { command_buffer, label, queue_label };
    for (int i = 0; i < 3 && at < (int)sizeof(text); i++) {
        if (names[i])
            at += snprintf(text + at, sizeof(text) - (size_t)at, "%s%s '%s'", at ? ", " : "", what[i], names[i]);
    }
    return vkmm_strict_intern(strict, text);
}

void vkmm_strict_describe(const struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard,
                          struct vkmm_hazard_place *place)
{
    memset(place, 0, sizeof(*place));
    const struct vkmm_strict_memory *memory = vkmm_strict_memory_with_id(strict, hazard->memory_id);
    if (!memory)
        return;
    place->memory_name = memory->name;
    /* The list is newest first: walk it to its end so buffers come in
     * bind order. */
    const struct vkmm_strict_buffer *b = memory->buffers;
    while (b && b->next)
        b = b->next;
    for (; b && place->buffer_count < VKMM_HAZARD_MAX_BUFFERS; b = b->prev) {
        if (b->offset >= hazard->offset + hazard->size || hazard->offset >= b->offset + b->size)
            continue;
        uint64_t offset = hazard->offset > b->offset ? hazard->offset - b->offset : 0;
        place->buffers[place->buffer_count++] = (struct vkmm_hazard_buffer){ b->id, b->name, offset };
    }
}
