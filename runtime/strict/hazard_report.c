#include "hazard_report.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "alloc.h"
#include "bridge.h"
#include "log.h"
#include "memmodel/memmodel.h"

static const char *const kinds[VKMM_HAZARD_KINDS] = {
    "VKMM-HAZARD-STALE-READ",       "VKMM-HAZARD-LOST-WRITE",      "VKMM-HAZARD-WRITE-AFTER-READ",
    "VKMM-HAZARD-WRITE-AFTER-WRITE", "VKMM-HAZARD-UNFLUSHED-HOST-WRITE", "VKMM-HAZARD-HOST-STALE-READ",
    "VKMM-HAZARD-SCOPE-MISMATCH",   "VKMM-HAZARD-UNINITIALIZED-READ", "VKMM-HAZARD-HOST-READ-NO-DEPENDENCY",
    "VKMM-HAZARD-WORKGROUP-RACE",   "VKMM-HAZARD-DISPATCH-RACE",
    "VKMM-HAZARD-DISPATCH-TIMEOUT", "VKMM-HAZARD-OTHER",
};

/* One report: the first hazard as found (its range and names) and the
 * totals of every hazard aggregated into it. */
struct report_entry {
    struct report_entry *bucket_next, *next;
    uint64_t key_hash;
    char *key;
    uint64_t number; /* 1, 2, ... in the order found */
    uint64_t bytes, ranges;
    struct vkmm_mm_hazard first;
    cJSON *line;           /* the JSON line, until written */
    char message[2048];    /* the debug-utils message, until written */
};

/* A VKMM_SUPPRESS line: every field given must match (fnmatch patterns). */
struct report_suppression {
    struct report_suppression *next;
    char *id, *command, *name;
};

static unsigned kind_index(const char *id)
{
    for (unsigned i = 0; i + 1 < VKMM_HAZARD_KINDS; i++) {
        if (strcmp(kinds[i], id) == 0)
            return i;
    }
    return VKMM_HAZARD_KINDS - 1;
}

static uint64_t hash_text(const char *text)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *text; text++)
        h = (h ^ (uint8_t)*text) * 0x100000001b3ull;
    return h;
}

/* --- Suppressions ------------------------------------------------------------ */

static char *copy_text(struct vkmm_strict *strict, const char *text, size_t length)
{
    char *copy = vkmm_zalloc(strict->allocator, NULL, length + 1, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (copy)
        memcpy(copy, text, length);
    return copy;
}

/* "id:VKMM-HAZARD-STALE-READ command:vkCmdDispatch name:particles*"; '#'
 * starts a comment.  Returns false for a line it cannot read. */
static bool parse_suppression(struct vkmm_strict *strict, char *line, struct report_suppression *s)
{
    bool any = false;
    for (char *save = NULL, *field = strtok_r(line, " \t\r\n", &save); field && *field != '#';
         field = strtok_r(NULL, " \t\r\n", &save)) {
        char *colon = strchr(field, ':');
        if (!colon)
            return false;
        char **slot = !strncmp(field, "id:", 3)        ? &s->id
                      : !strncmp(field, "command:", 8) ? &s->command
                      : !strncmp(field, "name:", 5)    ? &s->name
                                                       : NULL;
        if (!slot || *slot)
            return false;
        *slot = copy_text(strict, colon + 1, strlen(colon + 1));
        any = *slot != NULL;
    }
    return any;
}

static void free_suppression(struct vkmm_strict *strict, struct report_suppression *s)
{
    vkmm_free(strict->allocator, NULL, s->id);
    vkmm_free(strict->allocator, NULL, s->command);
    vkmm_free(strict->allocator, NULL, s->name);
    vkmm_free(strict->allocator, NULL, s);
}

static void load_suppressions(struct vkmm_strict *strict, const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) {
        vkmm_strict_log(strict, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-SUPPRESS", "VKMM_SUPPRESS: cannot open '%s'",
                 path);
        return;
    }
    char line[512];
    for (unsigned number = 1; fgets(line, sizeof(line), file); number++) {
        struct report_suppression *s = vkmm_zalloc(strict->allocator, NULL, sizeof(*s),
                                                   VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
        if (!s)
            break;
        char *start = line + strspn(line, " \t");
        if (*start == '#' || *start == '\n' || *start == '\0' || !parse_suppression(strict, start, s)) {
            if (*start != '#' && *start != '\n' && *start != '\0')
                vkmm_strict_log(strict, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                         VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-SUPPRESS",
                         "VKMM_SUPPRESS %s:%u: not 'id:… command:… name:…'; line ignored", path, number);
            free_suppression(strict, s);
            continue;
        }
        s->next = strict->report.suppressions;
        strict->report.suppressions = s;
    }
    fclose(file);
}

static bool matches(const char *pattern, const char *text)
{
    return text && fnmatch(pattern, text, 0) == 0;
}

static bool name_matches(const char *pattern, const struct vkmm_mm_hazard *h, const struct vkmm_hazard_place *place)
{
    if (matches(pattern, h->writer_or_first.where) || matches(pattern, h->reader_or_second.where))
        return true;
    if (!place)
        return false;
    if (matches(pattern, place->memory_name))
        return true;
    for (uint32_t i = 0; i < place->buffer_count; i++)
        if (matches(pattern, place->buffers[i].name))
            return true;
    return false;
}

static bool suppressed(const struct vkmm_hazard_report *report, const struct vkmm_mm_hazard *h,
                       const struct vkmm_hazard_place *place)
{
    for (const struct report_suppression *s = report->suppressions; s; s = s->next) {
        if (s->id && !matches(s->id, h->id))
            continue;
        if (s->command && !matches(s->command, h->writer_or_first.kind) &&
            !matches(s->command, h->reader_or_second.kind))
            continue;
        if (s->name && !name_matches(s->name, h, place))
            continue;
        return true;
    }
    return false;
}

/* --- Rendering ---------------------------------------------------------------- */

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

/* The JSON line of a report as found; totals are added when written. */
static cJSON *report_json(const struct report_entry *e, const struct vkmm_hazard_place *place)
{
    const struct vkmm_mm_hazard *h = &e->first;
    cJSON *line = cJSON_CreateObject();
    if (!line)
        return NULL;
    cJSON_AddStringToObject(line, "id", h->id);
    cJSON_AddNumberToObject(line, "report", (double)e->number);
    if (h->memory_id == VKMM_MM_WORKGROUP_MEMORY)
        cJSON_AddStringToObject(line, "memory", "Workgroup");
    else if (h->memory_id == VKMM_MM_NO_MEMORY)
        cJSON_AddStringToObject(line, "memory", "none");
    else
        cJSON_AddNumberToObject(line, "memory", (double)h->memory_id);
    cJSON_AddNumberToObject(line, "offset", (double)h->offset);
    cJSON_AddNumberToObject(line, "size", (double)h->size);
    if (place)
        place_json(line, place);
    cJSON_AddItemToObject(line, "first", agent_json(&h->writer_or_first));
    cJSON_AddItemToObject(line, "second", agent_json(&h->reader_or_second));
    cJSON_AddStringToObject(line, "missing", h->missing);
    if (h->example[0])
        cJSON_AddStringToObject(line, "example", h->example);
    return line;
}

/* "buffer #2 'positions' bytes [16, +64) in memory #1 'heap'", or the
 * memory alone when no buffer is bound there. */
static void place_text(char *out, size_t size, const struct vkmm_mm_hazard *hazard,
                       const struct vkmm_hazard_place *place)
{
    if (hazard->memory_id == VKMM_MM_NO_MEMORY) {
        snprintf(out, size, "the dispatch");
        return;
    }
    if (hazard->memory_id == VKMM_MM_WORKGROUP_MEMORY) {
        snprintf(out, size, "Workgroup memory bytes [%llu, +%llu)", (unsigned long long)hazard->offset,
                 (unsigned long long)hazard->size);
        return;
    }
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

/* The bug's identity: the kind, both program points (not the submission:
 * a command buffer submitted again has the same bug) and the fix. */
static void key_of(const struct vkmm_mm_hazard *h, char *key, size_t size)
{
    const struct vkmm_mm_agent *a = &h->writer_or_first, *b = &h->reader_or_second;
    /* Inside a dispatch the program points are shader instructions, named
     * in the missing text: the same pipeline dispatched by many commands
     * has one bug. */
    if (h->example[0]) {
        snprintf(key, size, "%s|%s|%s", h->id, a->kind ? a->kind : "", h->missing);
        return;
    }
    snprintf(key, size, "%s|%s|%u|%u|%s|%s|%u|%u|%s|%s", h->id, a->kind ? a->kind : "", a->command,
             a->queue == VKMM_MM_HOST_QUEUE, a->where ? a->where : "", b->kind ? b->kind : "", b->command,
             b->queue == VKMM_MM_HOST_QUEUE, b->where ? b->where : "", h->missing);
}

/* --- Aggregation --------------------------------------------------------------- */

static struct report_entry *find(struct vkmm_hazard_report *report, uint64_t hash, const char *key)
{
    for (struct report_entry *e = report->buckets[hash % VKMM_REPORT_BUCKETS]; e; e = e->bucket_next)
        if (e->key_hash == hash && strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

static struct report_entry *create_entry(struct vkmm_strict *strict, uint64_t hash, const char *key,
                                         const struct vkmm_mm_hazard *hazard, const struct vkmm_hazard_place *place)
{
    struct vkmm_hazard_report *report = &strict->report;
    struct report_entry *e = vkmm_zalloc(strict->allocator, NULL, sizeof(*e), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
    if (!e)
        return NULL;
    e->key = copy_text(strict, key, strlen(key));
    if (!e->key) {
        vkmm_free(strict->allocator, NULL, e);
        return NULL;
    }
    e->key_hash = hash;
    e->number = report->reports + 1;
    e->first = *hazard;
    /* Names can go with their objects before the line is written: the
     * JSON line and the message are rendered now. */
    e->line = report->file ? report_json(e, place) : NULL;
    char where[512], second[512], first[512];
    place_text(where, sizeof(where), hazard, place);
    agent_text(second, sizeof(second), &hazard->reader_or_second);
    agent_text(first, sizeof(first), &hazard->writer_or_first);
    if (hazard->example[0])
        vkmm_print_cut(e->message, sizeof(e->message), "%s, in %s: %s; missing: %s", where, second, hazard->example,
                       hazard->missing);
    else
        vkmm_print_cut(e->message, sizeof(e->message), "%s: %s after %s; missing: %s", where, second, first,
                       hazard->missing);
    e->bucket_next = report->buckets[hash % VKMM_REPORT_BUCKETS];
    report->buckets[hash % VKMM_REPORT_BUCKETS] = e;
    if (report->last)
        report->last->next = e;
    else
        report->first = e;
    report->last = e;
    if (!report->pending)
        report->pending = e;
    report->reports++;
    report->per_kind[kind_index(hazard->id)]++;
    return e;
}

void vkmm_hazard_report_add(struct vkmm_strict *strict, const struct vkmm_mm_hazard *hazard,
                            const struct vkmm_hazard_place *place)
{
    struct vkmm_hazard_report *report = &strict->report;
    report->hazards++;
    if (suppressed(report, hazard, place)) {
        report->suppressed++;
        return;
    }
    char key[1024];
    key_of(hazard, key, sizeof(key));
    uint64_t hash = hash_text(key);
    struct report_entry *e = find(report, hash, key);
    if (!e && report->reports >= report->limit) {
        report->left_out++;
        return;
    }
    if (!e)
        e = create_entry(strict, hash, key, hazard, place);
    if (!e) {
        report->left_out++; /* out of host memory: the summary says how many */
        return;
    }
    e->bytes += hazard->size;
    e->ranges++;
}

static void write_entry(struct vkmm_strict *strict, struct report_entry *e)
{
    struct vkmm_hazard_report *report = &strict->report;
    if (report->file && e->line) {
        cJSON_AddNumberToObject(e->line, "bytes", (double)e->bytes);
        cJSON_AddNumberToObject(e->line, "ranges", (double)e->ranges);
        char *text = cJSON_PrintUnformatted(e->line);
        if (text) {
            fprintf(report->file, "%s\n", text);
            fflush(report->file);
            cJSON_free(text);
        }
    }
    cJSON_Delete(e->line);
    e->line = NULL;
    const char *more = e->ranges > 1 ? "s" : "";
    /* The host read that relies on the wait alone is what most frameworks
     * do: reported, a step below the other hazards. */
    bool common = strcmp(e->first.id, VKMM_MM_HAZARD_HOST_READ_NO_DEPENDENCY) == 0;
    vkmm_strict_log(strict,
             common ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT : VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, e->first.id, "%s (report %llu: %llu bytes in %llu range%s)",
             e->message, (unsigned long long)e->number, (unsigned long long)e->bytes,
             (unsigned long long)e->ranges, more);
}

void vkmm_hazard_report_flush(struct vkmm_strict *strict)
{
    struct vkmm_hazard_report *report = &strict->report;
    for (; report->pending; report->pending = report->pending->next)
        write_entry(strict, report->pending);
}

/* --- Open and close ------------------------------------------------------------- */

void vkmm_hazard_report_open(struct vkmm_strict *strict)
{
    struct vkmm_hazard_report *report = &strict->report;
    memset(report, 0, sizeof(*report));
    const char *limit = getenv("VKMM_REPORT_LIMIT");
    report->limit = limit && *limit ? strtoull(limit, NULL, 10) : 1000;
    const char *suppress = getenv("VKMM_SUPPRESS");
    if (suppress && *suppress)
        load_suppressions(strict, suppress);
    const char *target = getenv("VKMM_REPORT");
    if (!target || !*target)
        return;
    if (strcmp(target, "stderr") == 0) {
        report->file = stderr;
        return;
    }
    /* Appended: every device of a process (and every process of a test run
     * pointing at one file) adds its reports. */
    report->file = fopen(target, "a");
    report->owns_file = report->file != NULL;
    if (!report->file)
        vkmm_strict_log(strict, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
                 VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, "VKMM-REPORT",
                 "VKMM_REPORT: cannot open '%s'; reports reach debug-utils messengers only", target);
}

static void summarize(struct vkmm_strict *strict)
{
    struct vkmm_hazard_report *report = &strict->report;
    char summary[2048];
    int at = snprintf(summary, sizeof(summary), "%llu report%s of %llu hazards:", (unsigned long long)report->reports,
                      report->reports == 1 ? "" : "s", (unsigned long long)report->hazards);
    for (unsigned i = 0; i < VKMM_HAZARD_KINDS && at < (int)sizeof(summary); i++) {
        if (report->per_kind[i])
            at += snprintf(summary + at, sizeof(summary) - (size_t)at, " %s x%llu", kinds[i],
                           (unsigned long long)report->per_kind[i]);
    }
    for (const struct report_entry *e = report->first; e && at < (int)sizeof(summary); e = e->next)
        at += snprintf(summary + at, sizeof(summary) - (size_t)at, "; report %llu: %llu bytes in %llu ranges",
                       (unsigned long long)e->number, (unsigned long long)e->bytes, (unsigned long long)e->ranges);
    if (at < (int)sizeof(summary) && (report->left_out || report->suppressed))
        snprintf(summary + at, sizeof(summary) - (size_t)at,
                 "; %llu hazards left out (VKMM_REPORT_LIMIT %llu), %llu suppressed (VKMM_SUPPRESS)",
                 (unsigned long long)report->left_out, (unsigned long long)report->limit,
                 (unsigned long long)report->suppressed);
    if (report->file)
        fprintf(report->file, "# vkmm summary: %s\n", summary);
    vkmm_strict_log(strict, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
             VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, "VKMM-HAZARD-SUMMARY", "%s", summary);
}

void vkmm_hazard_report_close(struct vkmm_strict *strict)
{
    struct vkmm_hazard_report *report = &strict->report;
    vkmm_hazard_report_flush(strict);
    if (report->hazards)
        summarize(strict);
    while (report->first) {
        struct report_entry *e = report->first;
        report->first = e->next;
        cJSON_Delete(e->line);
        vkmm_free(strict->allocator, NULL, e->key);
        vkmm_free(strict->allocator, NULL, e);
    }
    while (report->suppressions) {
        struct report_suppression *s = report->suppressions;
        report->suppressions = s->next;
        free_suppression(strict, s);
    }
    if (report->owns_file)
        fclose(report->file);
    memset(report, 0, sizeof(*report));
}
