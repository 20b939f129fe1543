/* Shadow state that scales (DESIGN §3.1 "versioned store"; issue 9 "state
 * proportional to the bytes touched"): per-byte metadata of a level — the
 * seq of a version, the write event that made it — kept per 64-byte
 * granule.  Bytes of a granule written by one command and made available by
 * one operation share their metadata, so the common granule costs one cell
 * for 64 bytes: 8 bytes, or 4 for a narrow meta (write events).  A granule
 * of two values is a pair: a mask of the bytes holding the second value (24
 * bytes).  Host writes make many such granules: the engine finds them by
 * comparing bytes, and a byte the host rewrote with the value it had is no
 * write, so one granule in ten of a freshly filled buffer has a byte or two
 * left out.  Only a granule of three or more values gets a block of
 * per-byte values (512 bytes), until a write leaves it two values or one
 * again.  A granule's cell holds its value, or the index of its pair or
 * block under the DETAIL tag (memmodel_internal.h).
 *
 * The cells are calloc'd: for large memories they come as fresh pages,
 * committed only where a granule is touched. */
#include <string.h>

#include "memmodel_internal.h"

#define G VKMM_MM_GRANULE
#define DETAIL VKMM_MM_META_DETAIL
#define PAIR VKMM_MM_META_PAIR
#define INDEX VKMM_MM_META_INDEX

bool vkmm_mm_meta_init(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t size, bool narrow)
{
    *meta = (struct vkmm_mm_meta){ .granules = (size + G - 1) / G, .size = size, .narrow = narrow };
    meta->cells = vkmm_mm_calloc(e, meta->granules, narrow ? sizeof(uint32_t) : sizeof(uint64_t));
    return meta->cells != NULL;
}

void vkmm_mm_meta_finish(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta)
{
    vkmm_mm_free(e, meta->cells);
    vkmm_mm_free(e, meta->blocks);
    vkmm_mm_free(e, meta->pairs);
    *meta = (struct vkmm_mm_meta){ 0 };
}

/* Granule g's cell gets `cell` (a value, or DETAIL with an index). */
static void cell_set(struct vkmm_mm_meta *meta, uint64_t g, uint64_t cell)
{
    if (!meta->narrow) {
        ((uint64_t *)meta->cells)[g] = cell;
        return;
    }
    uint32_t narrow = (uint32_t)cell;
    if (cell & DETAIL)
        narrow = VKMM_MM_META_NARROW_DETAIL | (cell & PAIR ? VKMM_MM_META_NARROW_PAIR : 0) | (uint32_t)(cell & INDEX);
    ((uint32_t *)meta->cells)[g] = narrow;
}

/* A block of per-byte values: block 0 means "none", free blocks form a
 * list through their first value. */
static uint32_t block_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta)
{
    if (meta->block_free) {
        uint32_t i = meta->block_free;
        meta->block_free = (uint32_t)meta->blocks[(uint64_t)i * G];
        meta->block_live++;
        return i;
    }
    uint32_t first = meta->block_count ? meta->block_count : 1;
    if (first >= INDEX || !vkmm_mm_reserve(e, (void **)&meta->blocks, &meta->block_capacity, (uint64_t)first + 1,
                                           G * sizeof *meta->blocks))
        return 0;
    meta->block_count = first + 1;
    meta->block_live++;
    return first;
}

/* A pair, likewise: pair 0 means "none", free pairs form a list through
 * their masks. */
static uint32_t pair_alloc(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta)
{
    if (meta->pair_free) {
        uint32_t i = meta->pair_free;
        meta->pair_free = (uint32_t)meta->pairs[i].mask;
        meta->pair_live++;
        return i;
    }
    uint32_t first = meta->pair_count ? meta->pair_count : 1;
    if (first >= INDEX ||
        !vkmm_mm_reserve(e, (void **)&meta->pairs, &meta->pair_capacity, (uint64_t)first + 1, sizeof *meta->pairs))
        return 0;
    meta->pair_count = first + 1;
    meta->pair_live++;
    return first;
}

static struct vkmm_mm_meta_pair *pair_of(const struct vkmm_mm_meta *meta, uint64_t g)
{
    return &meta->pairs[vkmm_mm_meta_cell(meta, g) & INDEX];
}

static uint64_t *block_of(const struct vkmm_mm_meta *meta, uint64_t g)
{
    return &meta->blocks[(vkmm_mm_meta_cell(meta, g) & INDEX) * G];
}

/* Granule g's pair or block, if any, is freed (its cell is the caller's to
 * set). */
static void granule_release(struct vkmm_mm_meta *meta, uint64_t g)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    if (!(cell & DETAIL))
        return;
    uint32_t i = (uint32_t)(cell & INDEX);
    if (cell & PAIR) {
        meta->pairs[i].mask = meta->pair_free;
        meta->pair_free = i;
        meta->pair_live--;
    } else {
        meta->blocks[(uint64_t)i * G] = meta->block_free;
        meta->block_free = i;
        meta->block_live--;
    }
}

/* Granule g becomes uniform with `value`. */
static void granule_uniform(struct vkmm_mm_meta *meta, uint64_t g, uint64_t value)
{
    granule_release(meta, g);
    cell_set(meta, g, value);
}

/* Bytes of granule g inside the memory (the last granule may be short). */
static unsigned granule_bytes(const struct vkmm_mm_meta *meta, uint64_t g)
{
    uint64_t left = meta->size - g * G;
    return left < G ? (unsigned)left : G;
}

/* The mask of `bytes` bytes from byte `first` of a granule. */
static uint64_t bytes_mask(unsigned first, unsigned bytes)
{
    uint64_t ones = bytes >= 64 ? ~0ull : (1ull << bytes) - 1;
    return ones << first;
}

static uint64_t granule_mask(const struct vkmm_mm_meta *meta, uint64_t g)
{
    return bytes_mask(0, granule_bytes(meta, g));
}

/* Granule g (uniform with `first`) becomes the pair of `first` and `second`
 * at `mask`; left as it is when out of memory (e->status says so). */
static void granule_pair(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g, uint64_t first,
                         uint64_t mask, uint64_t second)
{
    uint32_t i = pair_alloc(e, meta);
    if (!i)
        return;
    meta->pairs[i] = (struct vkmm_mm_meta_pair){ .mask = mask, .first = first, .second = second };
    cell_set(meta, g, DETAIL | PAIR | i);
}

void vkmm_mm_meta_granule_values(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t values[G])
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    if (!(cell & DETAIL)) {
        for (unsigned k = 0; k < G; k++)
            values[k] = cell;
        return;
    }
    if (!(cell & PAIR)) {
        memcpy(values, block_of(meta, g), G * sizeof *values);
        return;
    }
    const struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
    for (unsigned k = 0; k < G; k++)
        values[k] = pair->mask >> k & 1 ? pair->second : pair->first;
}

/* Granule g (a pair) gets a block holding its values. */
static bool granule_block(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g)
{
    uint32_t i = block_alloc(e, meta);
    if (!i)
        return false;
    uint64_t values[G];
    vkmm_mm_meta_granule_values(meta, g, values);
    granule_release(meta, g);
    memcpy(&meta->blocks[(uint64_t)i * G], values, sizeof values);
    cell_set(meta, g, DETAIL | i);
    return true;
}

/* A block whose bytes hold one or two values again becomes a uniform
 * granule or a pair (kept as a block when no pair can be had). */
static void block_shrink(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g)
{
    const uint64_t *block = block_of(meta, g);
    unsigned n = granule_bytes(meta, g);
    uint64_t first = block[0], second = block[0], mask = 0;
    for (unsigned k = 1; k < n; k++) {
        if (block[k] == first)
            continue;
        if (mask && block[k] != second)
            return;
        second = block[k];
        mask |= 1ull << k;
    }
    if (!mask) {
        granule_uniform(meta, g, first);
        return;
    }
    VkResult status = e->status;
    uint32_t i = pair_alloc(e, meta);
    if (!i) {
        e->status = status; /* the block stands: nothing was lost */
        return;
    }
    granule_release(meta, g);
    meta->pairs[i] = (struct vkmm_mm_meta_pair){ .mask = mask, .first = first, .second = second };
    cell_set(meta, g, DETAIL | PAIR | i);
}

/* A pair whose mask emptied or filled is a uniform granule. */
static void pair_settle(struct vkmm_mm_meta *meta, uint64_t g)
{
    const struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
    if (!pair->mask)
        granule_uniform(meta, g, pair->first);
    else if (pair->mask == granule_mask(meta, g))
        granule_uniform(meta, g, pair->second);
}

/* The bytes of granule g (a pair) in `mask` get `value`: false when a block
 * is needed (three values). */
static bool pair_write(struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask, uint64_t value)
{
    struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
    uint64_t first_bytes = granule_mask(meta, g) & ~pair->mask;
    if (value == pair->first) {
        pair->mask &= ~mask;
    } else if (value == pair->second) {
        pair->mask |= mask;
    } else if (!(pair->mask & ~mask)) {
        /* Every byte of the second value is overwritten. */
        *pair = (struct vkmm_mm_meta_pair){ .mask = mask, .first = pair->first, .second = value };
    } else if (!(first_bytes & ~mask)) {
        /* Every byte of the first value is overwritten. */
        *pair = (struct vkmm_mm_meta_pair){ .mask = mask, .first = pair->second, .second = value };
    } else {
        return false;
    }
    pair_settle(meta, g);
    return true;
}

/* The bytes of granule g in `mask` (inside the granule, not empty) get
 * `value`. */
static void granule_write(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask,
                          uint64_t value)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    if (!(cell & DETAIL)) {
        if (cell == value)
            return;
        if (mask == granule_mask(meta, g))
            cell_set(meta, g, value);
        else
            granule_pair(e, meta, g, cell, mask, value);
        return;
    }
    if (cell & PAIR) {
        if (pair_write(meta, g, mask, value) || !granule_block(e, meta, g))
            return;
    }
    uint64_t *block = block_of(meta, g);
    for (unsigned k = 0; k < G; k++)
        if (mask >> k & 1)
            block[k] = value;
    block_shrink(e, meta, g);
}

/* The bytes of granule g in `mask` (bit k: its byte k) get `value`: the
 * bytes a host write changed here and there in a granule take one write,
 * not one per run of them. */
void vkmm_mm_meta_write_mask(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask,
                             uint64_t value)
{
    uint64_t whole = granule_mask(meta, g);
    mask &= whole;
    if (mask == whole)
        granule_uniform(meta, g, value);
    else if (mask)
        granule_write(e, meta, g, mask, value);
}

/* The bytes of granule g in `mask` whose value is `value`. */
uint64_t vkmm_mm_meta_mask_of(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t mask, uint64_t value)
{
    uint64_t cell = vkmm_mm_meta_cell(meta, g);
    mask &= granule_mask(meta, g);
    if (!(cell & DETAIL))
        return cell == value ? mask : 0;
    if (cell & PAIR) {
        const struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
        return mask & ((pair->first == value ? ~pair->mask : 0) | (pair->second == value ? pair->mask : 0));
    }
    const uint64_t *block = block_of(meta, g);
    uint64_t same = 0;
    for (unsigned k = 0; k < G; k++)
        same |= (uint64_t)(block[k] == value) << k;
    return mask & same;
}

void vkmm_mm_meta_set(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t b, uint64_t value)
{
    granule_write(e, meta, b / G, 1ull << (b % G), value);
}

/* Whole granules [first, last) get `value` up to the first that holds a
 * pair or a block (releasing it touches the shared free lists): its index,
 * or last.  One pass, eight cells at a time. */
static uint64_t fill_uniform_granules(struct vkmm_mm_meta *meta, uint64_t first, uint64_t last, uint64_t value)
{
    uint64_t g = first;
    if (meta->narrow) {
        uint32_t *cells = meta->cells;
        for (; g + 8 <= last; g += 8) {
            uint32_t details = 0;
            for (unsigned k = 0; k < 8; k++)
                details |= cells[g + k];
            if (details & VKMM_MM_META_NARROW_DETAIL)
                break;
            for (unsigned k = 0; k < 8; k++)
                cells[g + k] = (uint32_t)value;
        }
        for (; g < last && !(cells[g] & VKMM_MM_META_NARROW_DETAIL); g++)
            cells[g] = (uint32_t)value;
        return g;
    }
    uint64_t *cells = meta->cells;
    for (; g + 8 <= last; g += 8) {
        uint64_t details = 0;
        for (unsigned k = 0; k < 8; k++)
            details |= cells[g + k];
        if (details & DETAIL)
            break;
        for (unsigned k = 0; k < 8; k++)
            cells[g + k] = value;
    }
    for (; g < last && !(cells[g] & DETAIL); g++)
        cells[g] = value;
    return g;
}

/* Whole granules [first, last) all get `value`: runs of uniform cells in
 * one pass, each pair or block freed in order as it comes (a landing or a
 * write fills megabytes at once). */
static void fill_whole_granules(struct vkmm_mm_meta *meta, uint64_t first, uint64_t last, uint64_t value)
{
    for (uint64_t g = fill_uniform_granules(meta, first, last, value); g < last;
         g = fill_uniform_granules(meta, g + 1, last, value)) {
        granule_release(meta, g); /* a pair or a block: freed, then the value */
        cell_set(meta, g, value);
    }
}

/* The first granule in [g, last) whose cell is not the uniform `value`,
 * eight cells at a time (vector compares): the engine's walks over runs
 * that span megabytes of one value. */
uint64_t vkmm_mm_meta_uniform_end(const struct vkmm_mm_meta *meta, uint64_t g, uint64_t last, uint64_t value)
{
    if (meta->narrow) {
        if (value >= VKMM_MM_META_NARROW_DETAIL)
            return g; /* never a narrow uniform cell */
        const uint32_t *cells = meta->cells;
        uint32_t v = (uint32_t)value;
        for (; g + 8 <= last; g += 8) {
            uint32_t differ = 0;
            for (unsigned k = 0; k < 8; k++)
                differ |= cells[g + k] ^ v;
            if (differ)
                break;
        }
        while (g < last && cells[g] == v)
            g++;
        return g;
    }
    if (value & DETAIL)
        return g;
    const uint64_t *cells = meta->cells;
    for (; g + 8 <= last; g += 8) {
        uint64_t differ = 0;
        for (unsigned k = 0; k < 8; k++)
            differ |= cells[g + k] ^ value;
        if (differ)
            break;
    }
    while (g < last && cells[g] == value)
        g++;
    return g;
}

/* The first granule in [g, last) where some byte's value in `a` may exceed
 * its value in `b`: both cells uniform with a's no greater than b's is
 * skipped, eight at a time.  Metas of 64-bit cells only (else g). */
uint64_t vkmm_mm_meta_first_above(const struct vkmm_mm_meta *a, const struct vkmm_mm_meta *b, uint64_t g,
                                  uint64_t last)
{
    if (a->narrow || b->narrow)
        return g;
    const uint64_t *x = a->cells, *y = b->cells;
    for (; g + 8 <= last; g += 8) {
        uint64_t above = 0;
        for (unsigned k = 0; k < 8; k++)
            above |= ((x[g + k] | y[g + k]) & DETAIL) | (uint64_t)(x[g + k] > y[g + k]);
        if (above)
            break;
    }
    while (g < last && !((x[g] | y[g]) & DETAIL) && x[g] <= y[g])
        g++;
    return g;
}

/* A fill of this many whole granules or more (4 MiB of bytes) goes to the
 * engine's threads, in pieces of FILL_PIECE granules. */
#define FILL_PIECE 16384u
#define FILL_MIN (4u * FILL_PIECE)

struct parallel_fill {
    struct vkmm_mm_meta *meta;
    uint64_t first, last, value;
    uint64_t *rest; /* per piece: its first granule holding a pair or a block (the end: none) */
};

static void fill_piece(void *context, uint64_t index)
{
    struct parallel_fill *k = context;
    uint64_t from = k->first + index * FILL_PIECE, to = k->last - from < FILL_PIECE ? k->last : from + FILL_PIECE;
    k->rest[index] = fill_uniform_granules(k->meta, from, to, k->value);
}

/* fill_whole_granules on the engine's threads: the same cells and free
 * lists whatever the threads (each piece's rest from its first pair or
 * block goes after, in order, on this one); false when it cannot be had. */
static bool fill_whole_granules_parallel(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t first,
                                         uint64_t last, uint64_t value)
{
    uint64_t count = (last - first + FILL_PIECE - 1) / FILL_PIECE;
    VkResult status = e->status;
    struct parallel_fill k = { meta, first, last, value, vkmm_mm_calloc(e, count, sizeof(uint64_t)) };
    if (!k.rest) {
        e->status = status; /* the fill goes on, on this thread: nothing is lost */
        return false;
    }
    e->parallel(e->parallel_user, count, fill_piece, &k);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t from = first + i * FILL_PIECE, to = last - from < FILL_PIECE ? last : from + FILL_PIECE;
        if (k.rest[i] < to)
            fill_whole_granules(meta, k.rest[i], to, value);
    }
    vkmm_mm_free(e, k.rest);
    return true;
}

void vkmm_mm_meta_fill(struct vkmm_mm_engine *e, struct vkmm_mm_meta *meta, uint64_t begin, uint64_t end,
                       uint64_t value)
{
    while (begin < end) {
        if (begin % G == 0 && end - begin >= 2 * G) {
            /* Whole granules, but never the short last one (granule_bytes
             * knows it): that one goes below. */
            uint64_t last = end / G < meta->granules - 1 ? end / G : meta->granules - 1;
            if (last > begin / G) {
                if (!e->parallel || last - begin / G < FILL_MIN ||
                    !fill_whole_granules_parallel(e, meta, begin / G, last, value))
                    fill_whole_granules(meta, begin / G, last, value);
                begin = last * G;
                continue;
            }
        }
        uint64_t g = begin / G;
        uint64_t g_end = g * G + granule_bytes(meta, g);
        uint64_t stop = end < g_end ? end : g_end;
        if (begin == g * G && stop == g_end)
            granule_uniform(meta, g, value);
        else
            granule_write(e, meta, g, bytes_mask((unsigned)(begin % G), (unsigned)(stop - begin)), value);
        begin = stop;
    }
}

/* The end of the run of bytes from b (before `end`) that hold b's value. */
uint64_t vkmm_mm_meta_run_end(const struct vkmm_mm_meta *meta, uint64_t b, uint64_t end)
{
    uint64_t value = vkmm_mm_meta_get(meta, b);
    while (b < end) {
        uint64_t g = b / G;
        uint64_t cell = vkmm_mm_meta_cell(meta, g);
        if (!(cell & DETAIL)) {
            if (cell != value)
                return b;
            b = vkmm_mm_meta_uniform_end(meta, g + 1, (end + G - 1) / G, value) * G;
            continue;
        }
        for (; b < end && b < (g + 1) * G; b++)
            if (vkmm_mm_meta_get(meta, b) != value)
                return b;
    }
    return end;
}

/* A pair holds both its values (its mask is neither empty nor whole). */
uint64_t vkmm_mm_meta_block_max(const struct vkmm_mm_meta *meta, uint64_t g)
{
    if (vkmm_mm_meta_cell(meta, g) & PAIR) {
        const struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
        return pair->first > pair->second ? pair->first : pair->second;
    }
    const uint64_t *block = block_of(meta, g);
    uint64_t max = block[0];
    for (unsigned k = 1; k < granule_bytes(meta, g); k++)
        max = block[k] > max ? block[k] : max;
    return max;
}

uint64_t vkmm_mm_meta_block_min(const struct vkmm_mm_meta *meta, uint64_t g)
{
    if (vkmm_mm_meta_cell(meta, g) & PAIR) {
        const struct vkmm_mm_meta_pair *pair = pair_of(meta, g);
        return pair->first < pair->second ? pair->first : pair->second;
    }
    const uint64_t *block = block_of(meta, g);
    uint64_t min = block[0];
    for (unsigned k = 1; k < granule_bytes(meta, g); k++)
        min = block[k] < min ? block[k] : min;
    return min;
}

/* Bytes of state the map holds now. */
uint64_t vkmm_mm_meta_bytes(const struct vkmm_mm_meta *meta)
{
    return meta->granules * (meta->narrow ? sizeof(uint32_t) : sizeof(uint64_t)) +
           (uint64_t)meta->block_live * G * sizeof *meta->blocks + (uint64_t)meta->pair_live * sizeof *meta->pairs;
}
