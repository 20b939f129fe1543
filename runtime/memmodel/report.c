/* Hazard reports (DESIGN §3.4): consecutive bytes with the same parties and
 * the same missing operation make one report, which names both accesses and
 * the missing operation in the user's terms.  Reports carry no pointer,
 * address or time: the same calls give the same reports, byte for byte. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "memmodel_internal.h"
#include "vkmm_enum_strings.h"

/* "VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT" -> "COMPUTE_SHADER",
 * "VK_ACCESS_2_SHADER_BINDING_TABLE_READ_BIT_KHR" -> "SHADER_BINDING_TABLE_READ_KHR". */
static void append_bit_name(char *buf, size_t n, const char *name, const char *prefix, uint64_t bit)
{
    size_t len = strlen(buf);
    if (len + 1 >= n)
        return;
    if (len)
        buf[len++] = '|';
    if (!name) {
        snprintf(buf + len, n - len, "0x%llx", (unsigned long long)bit);
        return;
    }
    if (!strncmp(name, prefix, strlen(prefix)))
        name += strlen(prefix);
    const char *tail = strstr(name, "_BIT");
    size_t head = tail ? (size_t)(tail - name) : strlen(name);
    snprintf(buf + len, n - len, "%.*s%s", (int)head, name, tail ? tail + 4 : "");
}

void vkmm_mm_stage_names(char *buf, size_t n, VkPipelineStageFlags2 mask)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 64; i++)
        if (mask & (1ull << i))
            append_bit_name(buf, n, vkmm_VkPipelineStageFlagBits2_bit_to_str(1ull << i), "VK_PIPELINE_STAGE_2_",
                            1ull << i);
    if (!mask)
        snprintf(buf, n, "NONE");
}

void vkmm_mm_access_names(char *buf, size_t n, VkAccessFlags2 mask)
{
    buf[0] = '\0';
    for (unsigned i = 0; i < 64; i++)
        if (mask & (1ull << i))
            append_bit_name(buf, n, vkmm_VkAccessFlagBits2_bit_to_str(1ull << i), "VK_ACCESS_2_", 1ull << i);
    if (!mask)
        snprintf(buf, n, "NONE");
}

#define MM_BARRIER "a barrier with srcStageMask ⊇ %s, srcAccessMask ⊇ %s, dstStageMask ⊇ %s, dstAccessMask ⊇ %s%s%s"

struct names {
    char src_stage[96], src_access[96], dst_stage[96], dst_access[96];
};

static void run_names(const struct vkmm_mm_engine *e, const struct vkmm_mm_run *run, struct names *nm)
{
    const struct vkmm_mm_event *first = &e->events[run->first];
    const struct vkmm_mm_event *second = &e->events[run->second];
    vkmm_mm_stage_names(nm->src_stage, sizeof nm->src_stage, first->stage);
    vkmm_mm_access_names(nm->src_access, sizeof nm->src_access, first->access);
    vkmm_mm_stage_names(nm->dst_stage, sizeof nm->dst_stage, run->has_reader ? run->reader_stage : second->stage);
    vkmm_mm_access_names(nm->dst_access, sizeof nm->dst_access, run->has_reader ? run->reader_access : second->access);
}

/* Truncation at 255 bytes is intended: the missing operation stays readable. */
__attribute__((format(printf, 3, 4))) static void say(char *out, size_t n, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(out, n, format, args);
    va_end(args);
}

/* The missing operation, in Vulkan terms (DESIGN §3.4 "Messages say what
 * would fix the problem"). */
static void format_missing(const struct vkmm_mm_engine *e, const struct vkmm_mm_run *run, char *out, size_t n)
{
    struct names nm;
    run_names(e, run, &nm);
    bool host_reader = run->has_reader && run->reader_stage == VK_PIPELINE_STAGE_2_HOST_BIT;
    bool coherent = run->memory->host_coherent;
    const char *then = !host_reader ? ""
                       : coherent   ? ", then a fence or semaphore wait on the host"
                                    : ", then a fence wait and vkInvalidateMappedMemoryRanges";
    switch (run->missing) {
    case VKMM_MM_MISSING_BARRIER:
        say(out, n, MM_BARRIER, nm.src_stage, nm.src_access, nm.dst_stage, nm.dst_access, then, "");
        break;
    case VKMM_MM_MISSING_VISIBILITY:
        say(out, n, MM_BARRIER, nm.src_stage, nm.src_access, nm.dst_stage, nm.dst_access, then,
                 " (the write was made available; its visibility to the reader is missing)");
        break;
    case VKMM_MM_MISSING_OVERWRITTEN:
        say(out, n, MM_BARRIER, nm.src_stage, nm.src_access, nm.dst_stage, nm.dst_access, then,
                 " (an older write became available over it: see " VKMM_MM_HAZARD_WRITE_AFTER_WRITE ")");
        break;
    case VKMM_MM_MISSING_HOST_FLUSH:
        say(out, n,
                 "vkFlushMappedMemoryRanges over the written range, then vkQueueSubmit or a dependency with "
                 "srcStageMask ⊇ HOST, srcAccessMask ⊇ HOST_WRITE, dstStageMask ⊇ %s, dstAccessMask ⊇ %s",
                 nm.dst_stage, nm.dst_access);
        break;
    case VKMM_MM_MISSING_HOST_TO_DEVICE:
        say(out, n,
                 "vkQueueSubmit after the host write, or a dependency with srcStageMask ⊇ HOST, "
                 "srcAccessMask ⊇ HOST_WRITE, dstStageMask ⊇ %s, dstAccessMask ⊇ %s",
                 nm.dst_stage, nm.dst_access);
        break;
    case VKMM_MM_MISSING_DEVICE_TO_HOST:
        say(out, n,
                 "a dependency with dstStageMask ⊇ HOST, dstAccessMask ⊇ HOST_READ after the write was made "
                 "available (srcStageMask ⊇ %s, srcAccessMask ⊇ %s)%s",
                 nm.src_stage, nm.src_access, then);
        break;
    case VKMM_MM_MISSING_HOST_VISIBILITY:
        say(out, n, "%s",
                 coherent ? "a fence or semaphore wait on the host before reading the mapped memory"
                          : "vkInvalidateMappedMemoryRanges over the range after the fence wait");
        break;
    case VKMM_MM_MISSING_FLUSH_BEFORE_INVALIDATE:
        say(out, n, "vkFlushMappedMemoryRanges over the range before vkInvalidateMappedMemoryRanges");
        break;
    case VKMM_MM_MISSING_INITIALIZATION:
        say(out, n,
            "a write of these bytes before the read (a fill, copy, update, dispatch or host write): nothing wrote "
            "them since vkAllocateMemory, so the %s read vkmm's allocation pattern",
            nm.dst_stage);
        break;
    case VKMM_MM_MISSING_WRITE_AFTER_DISCARD:
        say(out, n,
            "a write of these bytes between the image layout transition from VK_IMAGE_LAYOUT_UNDEFINED and the "
            "read: the transition discards the contents (vkmm scrambles them), so the %s read garbage; transition "
            "from the image's current layout to keep them",
            nm.dst_stage);
        break;
    case VKMM_MM_MISSING_WAW_BARRIER:
        say(out, n, MM_BARRIER, nm.src_stage, nm.src_access, nm.dst_stage, nm.dst_access, "",
                 " between the two writes");
        break;
    }
}

void vkmm_mm_run_init(struct vkmm_mm_engine *e, struct vkmm_mm_run *run, const char *id, struct vkmm_mm_memory *m,
                      const struct vkmm_mm_agent *reader, VkPipelineStageFlags2 reader_stage,
                      VkAccessFlags2 reader_access)
{
    *run = (struct vkmm_mm_run){
        .id = id,
        .memory = m,
        .has_reader = reader != NULL,
        .reader_stage = reader_stage,
        .reader_access = reader_access,
    };
    if (reader) {
        run->reader = *reader;
        run->reader.kind = vkmm_mm_intern(e, reader->kind ? reader->kind : "unknown");
    }
}

void vkmm_mm_run_add(struct vkmm_mm_engine *e, struct vkmm_mm_run *run, uint64_t b, uint32_t first, uint32_t second,
                     enum vkmm_mm_missing missing)
{
    if (run->open && run->end == b && run->first == first && run->second == second && run->missing == missing) {
        run->end++;
        return;
    }
    vkmm_mm_run_end(e, run);
    run->open = true;
    run->begin = b;
    run->end = b + 1;
    run->first = first;
    run->second = second;
    run->missing = missing;
}

/* The cold path: one report to the sink. */
void vkmm_mm_run_end(struct vkmm_mm_engine *e, struct vkmm_mm_run *run)
{
    if (!run->open)
        return;
    run->open = false;
    struct vkmm_mm_hazard h = {
        .id = run->id,
        .memory_id = run->memory->id,
        .offset = run->begin,
        .size = run->end - run->begin,
        .reader_or_second = run->has_reader ? run->reader : e->events[run->second].agent,
        .writer_or_first = e->events[run->first].agent,
        .discarded = run->missing == VKMM_MM_MISSING_WRITE_AFTER_DISCARD,
    };
    format_missing(e, run, h.missing, sizeof h.missing);
    e->hazards++;
    if (e->sink)
        e->sink(e->user, &h);
}
