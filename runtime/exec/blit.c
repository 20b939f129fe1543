#include "blit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "command_buffer.h"
#include "execute.h"
#include "image.h"

/* One axis of a region.  The spec ("Image Copies With Scaling"): the
 * destination texel d samples the source at
 *   u = src0 + (d + 0.5 - dst0) * (src1 - src0) / (dst1 - dst0)
 * in unnormalized coordinates with CLAMP_TO_EDGE addressing, so a region
 * whose destination (or source) corners are swapped is mirrored. */
struct axis {
    double src0, dst0, scale;
    int32_t dst_lo, dst_hi; /* destination texels [lo, hi) */
    int32_t src_lo, src_hi; /* source texels sampled, inclusive */
    int32_t size;           /* the source level's extent on this axis */
};

/* The texels one destination texel reads on an axis, and the weight of the
 * second (linear filtering; nearest reads `first` alone). */
struct taps {
    int32_t first, second;
    float weight;
};

static int32_t clamp_index(int32_t i, int32_t size)
{
    return i < 0 ? 0 : i >= size ? size - 1 : i;
}

static struct taps axis_taps(const struct axis *a, int32_t d, bool linear)
{
    double u = a->src0 + ((double)d + 0.5 - a->dst0) * a->scale;
    if (!linear) {
        int32_t i = clamp_index((int32_t)floor(u), a->size);
        return (struct taps){ i, i, 0.0f };
    }
    double t = u - 0.5, below = floor(t);
    return (struct taps){ clamp_index((int32_t)below, a->size), clamp_index((int32_t)below + 1, a->size),
                          (float)(t - below) };
}

static bool axis_init(struct axis *a, int32_t src0, int32_t src1, int32_t dst0, int32_t dst1, uint32_t size,
                      bool linear)
{
    if (dst0 == dst1)
        return false; /* an empty region */
    a->src0 = src0;
    a->dst0 = dst0;
    a->scale = (double)(src1 - src0) / (double)(dst1 - dst0);
    a->dst_lo = dst0 < dst1 ? dst0 : dst1;
    a->dst_hi = dst0 < dst1 ? dst1 : dst0;
    a->size = (int32_t)size;
    /* u is monotonic in d: the extreme destination texels bound the taps. */
    struct taps low = axis_taps(a, a->dst_lo, linear), high = axis_taps(a, a->dst_hi - 1, linear);
    int32_t taps[4] = { low.first, low.second, high.first, high.second };
    a->src_lo = a->src_hi = taps[0];
    for (int i = 1; i < 4; i++) {
        a->src_lo = taps[i] < a->src_lo ? taps[i] : a->src_lo;
        a->src_hi = taps[i] > a->src_hi ? taps[i] : a->src_hi;
    }
    return true;
}

static uint32_t span(const struct axis *a)
{
    return (uint32_t)(a->src_hi - a->src_lo + 1);
}

/* The source texels a region samples in one layer, read once into `box`. */
struct source {
    const struct vkmm_texel_format *format;
    const uint8_t *box;
    const struct axis *axes; /* x, y, z */
};

static void fetch(const struct source *s, int32_t x, int32_t y, int32_t z, uint32_t rgba[4])
{
    const struct axis *a = s->axes;
    size_t index = ((size_t)(z - a[2].src_lo) * span(&a[1]) + (size_t)(y - a[1].src_lo)) * span(&a[0]) +
                   (size_t)(x - a[0].src_lo);
    vkmm_texel_decode(s->format, s->box + index * s->format->size, rgba);
}

/* Linear filtering: the weighted sum of the 8 taps (2 and 4 coincide in
 * lower dimensions, where the axis has one texel). */
static void sample_linear(const struct source *s, const struct taps t[3], uint32_t rgba[4])
{
    float sum[4] = { 0 };
    for (int corner = 0; corner < 8; corner++) {
        float w = 1.0f;
        int32_t at[3];
        for (int axis = 0; axis < 3; axis++) {
            bool second = (corner >> axis) & 1;
            at[axis] = second ? t[axis].second : t[axis].first;
            w *= second ? t[axis].weight : 1.0f - t[axis].weight;
        }
        if (w == 0.0f)
            continue;
        uint32_t texel[4];
        fetch(s, at[0], at[1], at[2], texel);
        for (int k = 0; k < 4; k++)
            sum[k] += w * vkmm_bits_float(texel[k]);
    }
    for (int k = 0; k < 4; k++)
        rgba[k] = vkmm_float_bits(sum[k]);
}

/* Integer blits convert between widths of one signedness: values the
 * destination cannot hold are clamped to its range. */
static void clamp_integers(const struct vkmm_texel_format *dst, uint32_t rgba[4])
{
    if (dst->kind != VKMM_TEXEL_UINT && dst->kind != VKMM_TEXEL_SINT)
        return;
    for (uint32_t k = 0; k < dst->components; k++) {
        uint32_t bits = dst->bits[k], channel = dst->channel[k];
        if (bits >= 32)
            continue;
        if (dst->kind == VKMM_TEXEL_UINT) {
            uint32_t max = (1u << bits) - 1;
            rgba[channel] = rgba[channel] > max ? max : rgba[channel];
        } else {
            int32_t max = (int32_t)((1u << (bits - 1)) - 1), min = -max - 1, v = (int32_t)rgba[channel];
            rgba[channel] = (uint32_t)(v > max ? max : v < min ? min : v);
        }
    }
}

struct region_plan {
    struct vkmm_image *src, *dst;
    const VkImageBlit2 *region;
    struct axis axes[3];
    bool linear;
};

/* Reads the sampled box of one source layer into `box`. */
static void read_box(struct vkmm_execution *x, const struct vkmm_command *c, const struct region_plan *p,
                     uint32_t layer, uint8_t *box)
{
    const struct axis *a = p->axes;
    uint32_t level = p->region->srcSubresource.mipLevel;
    size_t row = (size_t)span(&a[0]) * p->src->texel->size;
    for (int32_t z = a[2].src_lo; z <= a[2].src_hi; z++)
        for (int32_t y = a[1].src_lo; y <= a[1].src_hi; y++) {
            VkDeviceSize at = vkmm_image_texel_offset(p->src, level, layer, (uint32_t)a[0].src_lo, (uint32_t)y,
                                                      (uint32_t)z);
            vkmm_execution_strict_read(x, c, &p->src->bytes, at, row, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                       VK_ACCESS_2_TRANSFER_READ_BIT, box);
            box += row;
        }
}

/* A compressed source: each texel row's blocks are read and the box's
 * texels decoded into `box` as RGBA floats (R32G32B32A32_SFLOAT texels).
 * False when out of host memory. */
static bool read_box_decoded(struct vkmm_execution *x, const struct vkmm_command *c, const struct region_plan *p,
                             uint32_t layer, uint8_t *box)
{
    const struct axis *a = p->axes;
    const struct vkmm_texel_format *f = p->src->texel;
    uint32_t level = p->region->srcSubresource.mipLevel;
    uint32_t bw = vkmm_texel_block_width(f), bh = vkmm_texel_block_height(f);
    uint32_t first = (uint32_t)a[0].src_lo / bw, last = (uint32_t)a[0].src_hi / bw;
    size_t row_bytes = (size_t)(last - first + 1) * f->size;
    uint8_t *blocks = malloc(row_bytes);
    if (!blocks)
        return false;
    for (int32_t z = a[2].src_lo; z <= a[2].src_hi; z++)
        for (int32_t y = a[1].src_lo; y <= a[1].src_hi; y++) {
            VkDeviceSize at = vkmm_image_texel_offset(p->src, level, layer, first * bw, (uint32_t)y, (uint32_t)z);
            vkmm_execution_strict_read(x, c, &p->src->bytes, at, row_bytes, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                       VK_ACCESS_2_TRANSFER_READ_BIT, blocks);
            for (int32_t t = a[0].src_lo; t <= a[0].src_hi; t++) {
                uint32_t rgba[4];
                vkmm_texel_decode_at(f, blocks + ((uint32_t)t / bw - first) * f->size, (uint32_t)t % bw,
                                     (uint32_t)y % bh, rgba);
                memcpy(box, rgba, sizeof(rgba));
                box += sizeof(rgba);
            }
        }
    free(blocks);
    return true;
}

/* Samples and writes the destination rows of one layer. */
static void write_rows(struct vkmm_execution *x, const struct vkmm_command *c, const struct region_plan *p,
                       const struct source *s, uint32_t layer, uint8_t *row)
{
    const struct axis *a = p->axes;
    const struct vkmm_texel_format *format = p->dst->texel;
    uint32_t level = p->region->dstSubresource.mipLevel;
    size_t bytes = (size_t)(a[0].dst_hi - a[0].dst_lo) * format->size;
    for (int32_t z = a[2].dst_lo; z < a[2].dst_hi; z++) {
        struct taps tz = axis_taps(&a[2], z, p->linear);
        for (int32_t y = a[1].dst_lo; y < a[1].dst_hi; y++) {
            struct taps t[3] = { { 0, 0, 0.0f }, axis_taps(&a[1], y, p->linear), tz };
            for (int32_t dx = a[0].dst_lo; dx < a[0].dst_hi; dx++) {
                t[0] = axis_taps(&a[0], dx, p->linear);
                uint32_t rgba[4];
                if (p->linear)
                    sample_linear(s, t, rgba);
                else
                    fetch(s, t[0].first, t[1].first, t[2].first, rgba);
                clamp_integers(format, rgba);
                vkmm_texel_encode(format, rgba, row + (size_t)(dx - a[0].dst_lo) * format->size);
            }
            VkDeviceSize at = vkmm_image_texel_offset(p->dst, level, layer, (uint32_t)a[0].dst_lo, (uint32_t)y,
                                                      (uint32_t)z);
            vkmm_execution_strict_write(x, c, &p->dst->bytes, at, bytes, VK_PIPELINE_STAGE_2_BLIT_BIT,
                                        VK_ACCESS_2_TRANSFER_WRITE_BIT, row);
        }
    }
}

static void blit_region(struct vkmm_execution *x, const struct vkmm_command *c, struct region_plan *p)
{
    const VkImageBlit2 *r = p->region;
    VkExtent3D level = vkmm_image_level_extent(p->src, r->srcSubresource.mipLevel);
    uint32_t sizes[3] = { level.width, level.height, level.depth };
    for (int i = 0; i < 3; i++) {
        int32_t s0 = i == 0 ? r->srcOffsets[0].x : i == 1 ? r->srcOffsets[0].y : r->srcOffsets[0].z;
        int32_t s1 = i == 0 ? r->srcOffsets[1].x : i == 1 ? r->srcOffsets[1].y : r->srcOffsets[1].z;
        int32_t d0 = i == 0 ? r->dstOffsets[0].x : i == 1 ? r->dstOffsets[0].y : r->dstOffsets[0].z;
        int32_t d1 = i == 0 ? r->dstOffsets[1].x : i == 1 ? r->dstOffsets[1].y : r->dstOffsets[1].z;
        if (!axis_init(&p->axes[i], s0, s1, d0, d1, sizes[i], p->linear))
            return;
    }
    const struct axis *a = p->axes;
    size_t box_bytes = (size_t)span(&a[0]) * span(&a[1]) * span(&a[2]) * p->src->texel->size;
    size_t row_bytes = (size_t)(a[0].dst_hi - a[0].dst_lo) * p->dst->texel->size;
    uint8_t *box = malloc(box_bytes), *row = malloc(row_bytes);
    bool compressed = vkmm_texel_format_is_compressed(p->src->texel);
    if (box && row) {
        /* A compressed source is read decoded, as RGBA floats (16 bytes, its block's size). */
        struct source s = { compressed ? vkmm_texel_format(VK_FORMAT_R32G32B32A32_SFLOAT) : p->src->texel, box,
                            p->axes };
        /* A 3D image's slices are an axis of the region; it has one layer. */
        uint32_t layers =
            p->src->type == VK_IMAGE_TYPE_3D ? 1 : vkmm_image_subresource_layers(p->src, &r->srcSubresource);
        for (uint32_t l = 0; l < layers; l++) {
            if (!compressed)
                read_box(x, c, p, r->srcSubresource.baseArrayLayer + l, box);
            else if (!read_box_decoded(x, c, p, r->srcSubresource.baseArrayLayer + l, box))
                break;
            write_rows(x, c, p, &s, r->dstSubresource.baseArrayLayer + l, row);
        }
    }
    free(box);
    free(row);
}

void vkmm_blit_execute(struct vkmm_execution *x, const struct vkmm_command *c)
{
    const __typeof__(c->u.blit_image) *b = &c->u.blit_image;
    for (uint32_t i = 0; i < b->region_count; i++) {
        struct region_plan plan = { .src = b->src, .dst = b->dst, .region = &b->regions[i],
                                    .linear = b->filter == VK_FILTER_LINEAR };
        blit_region(x, c, &plan);
    }
}
