#include "hazard_report.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "device.h"
#include "log.h"
#include "memmodel/memmodel.h"

static const char *const kinds[VKMM_HAZARD_KINDS] = {
    "VKMM-HAZARD-STALE-READ",       "VKMM-HAZARD-LOST-WRITE",      "VKMM-HAZARD-WRITE-AFTER-READ",
    "VKMM-HAZARD-WRITE-AFTER-WRITE", "VKMM-HAZARD-UNFLUSHED-HOST-WRITE", "VKMM-HAZARD-HOST-STALE-READ",
    "VKMM-HAZARD-SCOPE-MISMATCH",   "VKMM-HAZARD-OTHER",
};

static unsigned kind_index(const char *id)
{
    for (unsigned i = 0; i + 1 < VKMM_HAZARD_KINDS; i++) {
        if (strcmp(kinds[i], id) == 0)
            return i;
    }
    return VKMM_HAZARD_KINDS - 1;
}

void vkmm_hazard_report_open(struct vkmm_hazard_report *report)
{
    memset(report, 0, sizeof(*report));
    const char *target = getenv("VKMM_REPORT");
    if (!target || !*target)
        return;
    if (strcmp(target, "stderr") == 0) {
        report->file = stderr;
        return;
    }
    report->file = fopen(target, "w");
    report->owns_file = report->file != NULL;
}

static cJSON *agent_json(const struct vkmm_mm_agent *agent)
{
    cJSON *object = cJSON_CreateObject();
    cJSON_AddStringToObject(object, "command", agent->kind ? agent->kind : "");
    cJSON_AddNumberToObject(object, "queue", agent->queue);
    cJSON_AddNumberToObject(object, "submission", (double)agent->submission);
    cJSON_AddNumberToObject(object, "command_index", agent->command);
    if (agent->where)
        cJSON_AddStringToObject(object, "where", agent->where);
    return object;
}

static void place_json(cJSON *line, const struct vkmm_hazard_place *place)
{
    if (place->memory_name)
        cJSON_AddStringToObject(line, "memory_name", place->memory_name);
    cJSON *buffers = cJSON_AddArrayToObject(line, "buffers");
    for (uint32_t i = 0; buffers && i < place->buffer_count; i++) {
        cJSON *buffer = cJSON_CreateObject();
        cJSON_AddNumberToObject(buffer, "buffer", (double)place->buffers[i].id);
        if (place->buffers[i].name)
            cJSON_AddStringToObject(buffer, "name", place->buffers[i].name);
        cJSON_AddNumberToObject(buffer, "offset", (double)place->buffers[i].offset);
        cJSON_AddItemToArray(buffers, buffer);
    }
}

/* "buffer #2 'positions' bytes [16, +64) in memory #1 'heap'", or the
 * memory alone when no buffer is bound there. */
static void place_text(char *out, size_t size, const struct vkmm_mm_hazard *hazard,
                       const struct vkmm_hazard_place *place)
{
    int at = 0;
    for (uint32_t i = 0; place && i < place->buffer_count && at < (int)size; i++) {
        const struct vkmm_hazard_buffer *b = &place->buffers[i];
        at += snprintf(out + at, size - (size_t)at, "%sbuffer #%llu%s%s%s bytes [%llu, +%llu)", i ? " and " : "",
                       (unsigned long long)b->id, b->name ? " '" : "", b->name ? b->name : "", b->name ? "'" : "",
                       (unsigned long long)b->offset, (unsigned long long)hazard->size);
    }
    if (at >= (int)size)
        return;
    const char *name = place ? place->memory_name : NULL;
    snprintf(out + at, size - (size_t)at, "%smemory #%llu%s%s%s bytes [%llu, +%llu)", at ? " in " : "",
             (unsigned long long)hazard->memory_id, name ? " '" : "", name ? name : "", name ? "'" : "",
             (unsigned long long)hazard->offset, (unsigned long long)hazard->size);
}

/* "vkCmdCopyBuffer (queue 0 submission 3 command 1, command buffer 'a')",
 * or "host read ... (host, after submission 3)". */
static void agent_text(char *out, size_t size, const struct vkmm_mm_agent *agent)
{
    const char *kind = agent->kind ? agent->kind : "?";
    const char *comma = agent->where ? ", " : "", *where = agent->where ? agent->where : "";
    if (agent->queue == VKMM_MM_HOST_QUEUE)
        snprintf(out, size, "%s (host, after submission %llu%s%s)", kind, (unsigned long long)agent->submission,
                 comma, where);
    else
        snprintf(out, size, "%s (queue %u submission %llu command %u%s%s)", kind, agent->queue,
                 (unsigned long long)agent->submission, agent->command, comma, where);
}

void vkmm_hazard_report_add(struct vkmm_device *device, const struct vkmm_mm_hazard *hazard,
                            const struct vkmm_hazard_place *place)
{
    struct vkmm_hazard_report *report = &device->report;
    report->count++;
    report->per_kind[kind_index(hazard->id)]++;
    if (report->file) {
        cJSON *line = cJSON_CreateObject();
        cJSON_AddStringToObject(line, "id", hazard->id);
        cJSON_AddNumberToObject(line, "memory", (double)hazard->memory_id);
        cJSON_AddNumberToObject(line, "offset", (double)hazard->offset);
        cJSON_AddNumberToObject(line, "size", (double)hazard->size);
        if (place)
            place_json(line, place);
        cJSON_AddItemToObject(line, "first", agent_json(&hazard->writer_or_first));
        cJSON_AddItemToObject(line, "second", agent_json(&hazard->reader_or_second));
        cJSON_AddStringToObject(line, "missing", hazard->missing);
        char *text = cJSON_PrintUnformatted(line);
        if (text) {
            fprintf(report->file, "%s\n", text);
            fflush(report->file);
            cJSON_free(text);
        }
        cJSON_Delete(line);
    }
    char where[512], second[512], first[512];
    place_text(where, sizeof(where), hazard, place);
    agent_text(second, sizeof(second), &hazard->reader_or_second);
    agent_text(first, sizeof(first), &hazard->writer_or_first);
    vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, hazard->id, "%s: %s after %s; missing: %s", where, second,
             first, hazard->missing);
}

void vkmm_hazard_report_close(struct vkmm_device *device)
{
    struct vkmm_hazard_report *report = &device->report;
    if (report->count) {
        char summary[512];
        int at = snprintf(summary, sizeof(summary), "%llu hazards:", (unsigned long long)report->count);
        for (unsigned i = 0; i < VKMM_HAZARD_KINDS && at < (int)sizeof(summary); i++) {
            if (report->per_kind[i])
                at += snprintf(summary + at, sizeof(summary) - (size_t)at, " %s x%llu", kinds[i],
                               (unsigned long long)report->per_kind[i]);
        }
        if (report->file)
            fprintf(report->file, "# vkmm summary: %s\n", summary);
        vkmm_log(&device->base, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-HAZARD-SUMMARY", "%s", summary);
    }
    if (report->owns_file)
        fclose(report->file);
    report->file = NULL;
    report->owns_file = 0;
}
