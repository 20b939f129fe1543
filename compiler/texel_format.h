/* Texel formats: how the texels of the uncompressed colour formats vkmm
 * supports lie in memory, and their conversion to and from the 32-bit
 * values shaders see (float bits for float and normalized formats, integers
 * for integer ones).  Shared by the runtime (format features, copies,
 * clears) and the generated code (image reads and writes, through the
 * invocation's texel hooks, shader_abi.h).  Formats are VkFormat numbers;
 * nothing here knows a Vulkan object. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

enum vkmm_texel_kind {
    VKMM_TEXEL_UNORM,
    VKMM_TEXEL_SNORM,
    VKMM_TEXEL_UINT,
    VKMM_TEXEL_SINT,
    VKMM_TEXEL_SFLOAT,
    VKMM_TEXEL_SRGB,     /* UNORM with the sRGB transfer function on R, G and B */
    VKMM_TEXEL_UFLOAT,   /* B10G11R11_UFLOAT_PACK32: unsigned 11- and 10-bit floats */
    VKMM_TEXEL_SHAREDEXP /* E5B9G9R9_UFLOAT_PACK32 */
};

struct vkmm_texel_format {
    uint32_t format;       /* VkFormat */
    uint8_t size;          /* bytes per texel */
    uint8_t components;    /* 1..4 */
    uint8_t kind;          /* enum vkmm_texel_kind */
    bool packed;           /* one 32-bit word, components from the least significant bit */
    uint8_t bits[4];       /* width of each component in memory order */
    uint8_t channel[4];    /* the channel (0 R, 1 G, 2 B, 3 A) of each component in memory order */
    /* A depth format (aspect DEPTH): one component, read as (D, 0, 0, 1)
     * as the spec converts depth for sampling, copied with its aspect. */
    bool depth;
    /* With a stencil aspect too (D32_SFLOAT_S8_UINT: the depth float,
     * then the stencil byte, in 8 bytes): a depth/stencil attachment
     * only, which nothing vkmm runs reads or writes. */
    bool stencil;
    /* Block-compressed formats (ASTC LDR, texel_astc.h): texels come in
     * blocks of block_width x block_height, `size` bytes each; 0 for the
     * uncompressed formats (blocks of one texel). */
    uint8_t block_width, block_height;
};

/* The format's description, or NULL when vkmm does not support it. */
const struct vkmm_texel_format *vkmm_texel_format(uint32_t format);
/* Every supported format, for the format-property queries. */
const struct vkmm_texel_format *vkmm_texel_format_at(uint32_t index);
uint32_t vkmm_texel_format_count(void);
/* The texels of a block along x and y (1 for uncompressed formats). */
static inline uint32_t vkmm_texel_block_width(const struct vkmm_texel_format *f)
{
    return f->block_width ? f->block_width : 1;
}
static inline uint32_t vkmm_texel_block_height(const struct vkmm_texel_format *f)
{
    return f->block_height ? f->block_height : 1;
}
static inline bool vkmm_texel_format_is_compressed(const struct vkmm_texel_format *f)
{
    return f->block_width != 0;
}
/* Whether the shader sees floats (normalized and float formats) or integers. */
bool vkmm_texel_format_is_float(const struct vkmm_texel_format *f);

/* A float's bits and back (the RGBA values of float formats are bits). */
uint32_t vkmm_float_bits(float value);
float vkmm_bits_float(uint32_t bits);

/* One texel's bytes to RGBA values (float bits or integers); missing
 * channels are 0 and alpha 1 (1.0f for float formats), as the spec's
 * conversion to RGBA says. */
void vkmm_texel_decode(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t rgba[4]);
/* Texel (x, y) of the block at `bytes` (x and y below the block's
 * dimensions; uncompressed formats: 0, 0, as vkmm_texel_decode). */
void vkmm_texel_decode_at(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t x, uint32_t y,
                          uint32_t rgba[4]);
/* RGBA values to one texel's bytes: normalized formats clamp and round,
 * integer formats keep the low bits, 16-bit floats round to nearest even.
 * Compressed formats are never encoded (no format feature writes them):
 * the bytes are left as they are. */
void vkmm_texel_encode(const struct vkmm_texel_format *f, const uint32_t rgba[4], uint8_t *bytes);

/* The hooks generated code calls (shader_abi.h): W lanes at once,
 * component-major as vectors spill: `raw` holds word k of lane l's texel
 * bytes at k * width + l, `values` channel k at k * width + l, `formats`
 * one VkFormat per lane (0, or a format vkmm lacks, decodes to zeros and
 * encodes nothing).  For decoding, `formats` holds a second row of W
 * words: the texel's place in its block (x | y << 8; 0 for uncompressed
 * formats), and `raw` then holds the whole 16-byte block. */
void vkmm_texels_decode(uint32_t *values, const uint32_t *raw, const uint32_t *formats, uint32_t width);
void vkmm_texels_encode(uint32_t *raw, const uint32_t *values, const uint32_t *formats, uint32_t width);
