/* The supported texel formats and their conversions (texel_format.h). */
#include "texel_format.h"

#include "texel_astc.h"

#include <math.h>
#include <string.h>
#include <vulkan/vulkan_core.h>

#define R 0
#define G 1
#define B 2
#define A 3

/* Byte-aligned formats: components of bits/8 bytes each, in memory order. */
#define PLAIN(fmt, kind, n, b, c0, c1, c2, c3) \
    { VK_FORMAT_##fmt, (uint8_t)((n) * (b) / 8), n, VKMM_TEXEL_##kind, false, { b, b, b, b }, { c0, c1, c2, c3 }, false, false, 0, 0 }
/* Packed formats: one little-endian word of `size` bytes, components from
 * the least significant bit (the spec lists them from the most). */
#define PACKED(fmt, kind, size, n, b0, b1, b2, b3, c0, c1, c2, c3) \
    { VK_FORMAT_##fmt, size, n, VKMM_TEXEL_##kind, true, { b0, b1, b2, b3 }, { c0, c1, c2, c3 }, false, false, 0, 0 }

/* Depth formats: one component; X8_D24 keeps its depth in the low 24 bits. */
#define DEPTH(fmt, kind, size, b, packed, stencil) \
    { VK_FORMAT_##fmt, size, 1, VKMM_TEXEL_##kind, packed, { b, 0, 0, 0 }, { R, G, B, A }, true, stencil, 0, 0 }

/* ASTC LDR: 16-byte blocks of w x h texels, each size UNORM and sRGB. */
#define ASTC_ONE(w, h, suffix, kind) \
    { VK_FORMAT_ASTC_##w##x##h##_##suffix##_BLOCK, 16, 4, VKMM_TEXEL_##kind, false, { 8, 8, 8, 8 }, { R, G, B, A }, \
      false, false, w, h }
#define ASTC(w, h) ASTC_ONE(w, h, UNORM, UNORM), ASTC_ONE(w, h, SRGB, SRGB)

#define PLAIN_SET(prefix, n, b, c0, c1, c2, c3)                                                   \
    PLAIN(prefix##_UNORM, UNORM, n, b, c0, c1, c2, c3), PLAIN(prefix##_SNORM, SNORM, n, b, c0, c1, c2, c3), \
    PLAIN(prefix##_UINT, UINT, n, b, c0, c1, c2, c3), PLAIN(prefix##_SINT, SINT, n, b, c0, c1, c2, c3)

static const struct vkmm_texel_format formats[] = {
    PLAIN_SET(R8, 1, 8, R, G, B, A),
    PLAIN(R8_SRGB, SRGB, 1, 8, R, G, B, A),
    PLAIN_SET(R8G8, 2, 8, R, G, B, A),
    PLAIN(R8G8_SRGB, SRGB, 2, 8, R, G, B, A),
    PLAIN_SET(R8G8B8A8, 4, 8, R, G, B, A),
    PLAIN(R8G8B8A8_SRGB, SRGB, 4, 8, R, G, B, A),
    PLAIN_SET(B8G8R8A8, 4, 8, B, G, R, A),
    PLAIN(B8G8R8A8_SRGB, SRGB, 4, 8, B, G, R, A),
    PACKED(A8B8G8R8_UNORM_PACK32, UNORM, 4, 4, 8, 8, 8, 8, R, G, B, A),
    PACKED(A8B8G8R8_SNORM_PACK32, SNORM, 4, 4, 8, 8, 8, 8, R, G, B, A),
    PACKED(A8B8G8R8_UINT_PACK32, UINT, 4, 4, 8, 8, 8, 8, R, G, B, A),
    PACKED(A8B8G8R8_SINT_PACK32, SINT, 4, 4, 8, 8, 8, 8, R, G, B, A),
    PACKED(A8B8G8R8_SRGB_PACK32, SRGB, 4, 4, 8, 8, 8, 8, R, G, B, A),
    PACKED(A2B10G10R10_UNORM_PACK32, UNORM, 4, 4, 10, 10, 10, 2, R, G, B, A),
    PACKED(A2B10G10R10_UINT_PACK32, UINT, 4, 4, 10, 10, 10, 2, R, G, B, A),
    PACKED(A2R10G10B10_UNORM_PACK32, UNORM, 4, 4, 10, 10, 10, 2, B, G, R, A),
    PACKED(A2R10G10B10_UINT_PACK32, UINT, 4, 4, 10, 10, 10, 2, B, G, R, A),
    PACKED(R5G6B5_UNORM_PACK16, UNORM, 2, 3, 5, 6, 5, 0, B, G, R, A),
    PACKED(B5G6R5_UNORM_PACK16, UNORM, 2, 3, 5, 6, 5, 0, R, G, B, A),
    PACKED(A1R5G5B5_UNORM_PACK16, UNORM, 2, 4, 5, 5, 5, 1, B, G, R, A),
    PACKED(R4G4B4A4_UNORM_PACK16, UNORM, 2, 4, 4, 4, 4, 4, A, B, G, R),
    PACKED(B4G4R4A4_UNORM_PACK16, UNORM, 2, 4, 4, 4, 4, 4, A, R, G, B),
    PLAIN_SET(R16, 1, 16, R, G, B, A),
    PLAIN(R16_SFLOAT, SFLOAT, 1, 16, R, G, B, A),
    PLAIN_SET(R16G16, 2, 16, R, G, B, A),
    PLAIN(R16G16_SFLOAT, SFLOAT, 2, 16, R, G, B, A),
    PLAIN_SET(R16G16B16A16, 4, 16, R, G, B, A),
    PLAIN(R16G16B16A16_SFLOAT, SFLOAT, 4, 16, R, G, B, A),
    PLAIN(R32_UINT, UINT, 1, 32, R, G, B, A),
    PLAIN(R32_SINT, SINT, 1, 32, R, G, B, A),
    PLAIN(R32_SFLOAT, SFLOAT, 1, 32, R, G, B, A),
    PLAIN(R32G32_UINT, UINT, 2, 32, R, G, B, A),
    PLAIN(R32G32_SINT, SINT, 2, 32, R, G, B, A),
    PLAIN(R32G32_SFLOAT, SFLOAT, 2, 32, R, G, B, A),
    PLAIN(R32G32B32_UINT, UINT, 3, 32, R, G, B, A),
    PLAIN(R32G32B32_SINT, SINT, 3, 32, R, G, B, A),
    PLAIN(R32G32B32_SFLOAT, SFLOAT, 3, 32, R, G, B, A),
    PLAIN(R32G32B32A32_UINT, UINT, 4, 32, R, G, B, A),
    PLAIN(R32G32B32A32_SINT, SINT, 4, 32, R, G, B, A),
    PLAIN(R32G32B32A32_SFLOAT, SFLOAT, 4, 32, R, G, B, A),
    PACKED(B10G11R11_UFLOAT_PACK32, UFLOAT, 4, 3, 11, 11, 10, 0, R, G, B, A),
    PACKED(E5B9G9R9_UFLOAT_PACK32, SHAREDEXP, 4, 3, 9, 9, 9, 5, R, G, B, A),
    DEPTH(D16_UNORM, UNORM, 2, 16, false, false),
    DEPTH(X8_D24_UNORM_PACK32, UNORM, 4, 24, true, false),
    DEPTH(D32_SFLOAT, SFLOAT, 4, 32, false, false),
    DEPTH(D32_SFLOAT_S8_UINT, SFLOAT, 8, 32, false, true),
    ASTC(4, 4), ASTC(5, 4), ASTC(5, 5), ASTC(6, 5), ASTC(6, 6), ASTC(8, 5), ASTC(8, 6), ASTC(8, 8),
    ASTC(10, 5), ASTC(10, 6), ASTC(10, 8), ASTC(10, 10), ASTC(12, 10), ASTC(12, 12),
};

#define FORMAT_COUNT (sizeof(formats) / sizeof(formats[0]))

const struct vkmm_texel_format *vkmm_texel_format(uint32_t format)
{
    for (uint32_t i = 0; i < FORMAT_COUNT; i++)
        if (formats[i].format == format)
            return &formats[i];
    return NULL;
}

const struct vkmm_texel_format *vkmm_texel_format_at(uint32_t index)
{
    return index < FORMAT_COUNT ? &formats[index] : NULL;
}

uint32_t vkmm_texel_format_count(void)
{
    return FORMAT_COUNT;
}

bool vkmm_texel_format_is_float(const struct vkmm_texel_format *f)
{
    return f->kind != VKMM_TEXEL_UINT && f->kind != VKMM_TEXEL_SINT;
}

/* --- Scalar conversions ---------------------------------------------------- */

uint32_t vkmm_float_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, 4);
    return bits;
}

float vkmm_bits_float(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, 4);
    return value;
}

static float half_to_float(uint32_t h)
{
    uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
    float magnitude;
    if (exponent == 0)
        magnitude = ldexpf((float)mantissa, -24);
    else if (exponent == 31)
        magnitude = mantissa ? NAN : INFINITY;
    else
        magnitude = ldexpf((float)(mantissa | 1024), (int)exponent - 25);
    return sign ? -magnitude : magnitude;
}

/* Round to nearest even, as OpFConvert does by default. */
static uint32_t float_to_half(float value)
{
    uint32_t bits = vkmm_float_bits(value);
    uint32_t sign = (bits >> 16) & 0x8000;
    if (isnan(value))
        return sign | 0x7e00;
    float magnitude = fabsf(value);
    if (magnitude >= 65520.0f)
        return sign | 0x7c00;
    if (magnitude < ldexpf(1.0f, -14)) {
        /* Subnormal: the value in units of 2^-24, rounded to even. */
        return sign | (uint32_t)nearbyintf(ldexpf(magnitude, 24));
    }
    int exponent;
    frexpf(magnitude, &exponent); /* magnitude = m * 2^exponent, m in [0.5, 1) */
    uint32_t mantissa = (uint32_t)nearbyintf(ldexpf(magnitude, 11 - exponent)); /* 11 bits with the hidden one */
    if (mantissa == 2048) {
        mantissa = 1024;
        exponent++;
    }
    return sign | (uint32_t)(exponent + 14) << 10 | (mantissa & 1023);
}

/* Unsigned floats with a 5-bit exponent (B10G11R11): `mantissa_bits` 6 or 5. */
static float ufloat_to_float(uint32_t value, unsigned mantissa_bits)
{
    uint32_t exponent = value >> mantissa_bits, mantissa = value & ((1u << mantissa_bits) - 1);
    if (exponent == 0)
        return ldexpf((float)mantissa, -14 - (int)mantissa_bits);
    if (exponent == 31)
        return mantissa ? NAN : INFINITY;
    return ldexpf((float)(mantissa | 1u << mantissa_bits), (int)exponent - 15 - (int)mantissa_bits);
}

static uint32_t float_to_ufloat(float value, unsigned mantissa_bits)
{
    if (isnan(value))
        return 31u << mantissa_bits | 1;
    if (value <= 0.0f)
        return 0;
    float largest = ldexpf((float)((2u << mantissa_bits) - 1), 15 - (int)mantissa_bits);
    if (value > largest)
        return isinf(value) ? 31u << mantissa_bits : 30u << mantissa_bits | ((1u << mantissa_bits) - 1);
    if (value < ldexpf(1.0f, -14))
        return (uint32_t)nearbyintf(ldexpf(value, 14 + (int)mantissa_bits));
    int exponent;
    frexpf(value, &exponent);
    uint32_t mantissa = (uint32_t)nearbyintf(ldexpf(value, (int)mantissa_bits + 1 - exponent));
    if (mantissa == 2u << mantissa_bits) {
        mantissa = 1u << mantissa_bits;
        exponent++;
    }
    return (uint32_t)(exponent + 14) << mantissa_bits | (mantissa & ((1u << mantissa_bits) - 1));
}

static float srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
    if (!(c > 0.0f))
        return 0.0f;
    if (c >= 1.0f)
        return 1.0f;
    return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static uint32_t low_bits(unsigned bits)
{
    return bits >= 32 ? 0xffffffffu : (1u << bits) - 1;
}

static int32_t sign_extend(uint32_t value, unsigned bits)
{
    if (bits >= 32)
        return (int32_t)value;
    uint32_t sign = 1u << (bits - 1);
    return (int32_t)((value ^ sign) - sign);
}

/* --- Components ---------------------------------------------------------------- */

/* The raw bits of component i. */
static uint32_t component_bits(const struct vkmm_texel_format *f, const uint8_t *bytes, unsigned i)
{
    if (f->packed) {
        uint32_t word = 0;
        memcpy(&word, bytes, f->size); /* little-endian host */
        unsigned shift = 0;
        for (unsigned j = 0; j < i; j++)
            shift += f->bits[j];
        return word >> shift & low_bits(f->bits[i]);
    }
    uint32_t value = 0;
    memcpy(&value, bytes + i * (f->bits[i] / 8), f->bits[i] / 8);
    return value;
}

static void set_component_bits(const struct vkmm_texel_format *f, uint8_t *bytes, unsigned i, uint32_t value)
{
    value &= low_bits(f->bits[i]);
    if (f->packed) {
        uint32_t word = 0;
        memcpy(&word, bytes, f->size);
        unsigned shift = 0;
        for (unsigned j = 0; j < i; j++)
            shift += f->bits[j];
        word = (word & ~(low_bits(f->bits[i]) << shift)) | value << shift;
        memcpy(bytes, &word, f->size);
        return;
    }
    memcpy(bytes + i * (f->bits[i] / 8), &value, f->bits[i] / 8);
}

static uint32_t decode_component(const struct vkmm_texel_format *f, uint32_t raw, unsigned bits, unsigned channel)
{
    switch (f->kind) {
    case VKMM_TEXEL_UNORM:
        return vkmm_float_bits((float)raw / (float)low_bits(bits));
    case VKMM_TEXEL_SRGB: {
        float c = (float)raw / (float)low_bits(bits);
        return vkmm_float_bits(channel == A ? c : srgb_to_linear(c));
    }
    case VKMM_TEXEL_SNORM: {
        float c = (float)sign_extend(raw, bits) / (float)low_bits(bits - 1);
        return vkmm_float_bits(c < -1.0f ? -1.0f : c);
    }
    case VKMM_TEXEL_UINT:
        return raw;
    case VKMM_TEXEL_SINT:
        return (uint32_t)sign_extend(raw, bits);
    case VKMM_TEXEL_SFLOAT:
        return bits == 16 ? vkmm_float_bits(half_to_float(raw)) : raw;
    case VKMM_TEXEL_UFLOAT:
        return vkmm_float_bits(ufloat_to_float(raw, bits - 5));
    default:
        return 0;
    }
}

static uint32_t encode_component(const struct vkmm_texel_format *f, uint32_t value, unsigned bits, unsigned channel)
{
    float c = vkmm_bits_float(value);
    switch (f->kind) {
    case VKMM_TEXEL_SRGB:
        if (channel != A)
            c = linear_to_srgb(c);
        /* fall through */
    case VKMM_TEXEL_UNORM:
        c = c > 0.0f ? (c < 1.0f ? c : 1.0f) : 0.0f; /* NaN becomes 0 */
        return (uint32_t)nearbyintf(c * (float)low_bits(bits));
    case VKMM_TEXEL_SNORM:
        c = c > -1.0f ? (c < 1.0f ? c : 1.0f) : (isnan(c) ? 0.0f : -1.0f);
        return (uint32_t)(int32_t)nearbyintf(c * (float)low_bits(bits - 1));
    case VKMM_TEXEL_UINT:
    case VKMM_TEXEL_SINT:
        return value;
    case VKMM_TEXEL_SFLOAT:
        return bits == 16 ? float_to_half(c) : value;
    case VKMM_TEXEL_UFLOAT:
        return float_to_ufloat(c, bits - 5);
    default:
        return 0;
    }
}

/* E5B9G9R9: the spec's "Shared Exponent" conversions. */
static void decode_shared_exponent(const uint8_t *bytes, uint32_t rgba[4])
{
    uint32_t word;
    memcpy(&word, bytes, 4);
    int exponent = (int)(word >> 27) - 15 - 9;
    for (unsigned c = 0; c < 3; c++)
        rgba[c] = vkmm_float_bits(ldexpf((float)(word >> (9 * c) & 511), exponent));
}

static void encode_shared_exponent(const uint32_t rgba[4], uint8_t *bytes)
{
    const float max = ldexpf(511.0f / 512.0f, 16);
    float c[3], largest = 0.0f;
    for (unsigned i = 0; i < 3; i++) {
        float v = vkmm_bits_float(rgba[i]);
        c[i] = v > 0.0f ? (v < max ? v : max) : 0.0f;
        largest = c[i] > largest ? c[i] : largest;
    }
    int exp_p = largest > 0.0f ? (int)floorf(log2f(largest)) : -16;
    exp_p = (exp_p < -16 ? -16 : exp_p) + 16;
    int exp_s = exp_p;
    if ((int)floorf(largest / ldexpf(1.0f, exp_s - 15 - 9) + 0.5f) == 512)
        exp_s++;
    uint32_t word = (uint32_t)exp_s << 27;
    for (unsigned i = 0; i < 3; i++)
        word |= ((uint32_t)floorf(c[i] / ldexpf(1.0f, exp_s - 15 - 9) + 0.5f) & 511) << (9 * i);
    memcpy(bytes, &word, 4);
}

static void decode_astc(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t x, uint32_t y,
                        uint32_t rgba[4]);

void vkmm_texel_decode(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t rgba[4])
{
    if (vkmm_texel_format_is_compressed(f)) {
        decode_astc(f, bytes, 0, 0, rgba);
        return;
    }
    bool is_float = vkmm_texel_format_is_float(f);
    rgba[0] = rgba[1] = rgba[2] = 0;
    rgba[3] = is_float ? vkmm_float_bits(1.0f) : 1;
    if (f->kind == VKMM_TEXEL_SHAREDEXP) {
        decode_shared_exponent(bytes, rgba);
        return;
    }
    for (unsigned i = 0; i < f->components; i++)
        rgba[f->channel[i]] = decode_component(f, component_bits(f, bytes, i), f->bits[i], f->channel[i]);
}

/* The last block this thread decoded: filtering reads neighbouring
 * texels, mostly of one block, and a block decodes whole. */
static _Thread_local struct {
    uint32_t format;
    uint8_t bytes[16];
    float rgba[12 * 12 * 4];
} last_block;

static void decode_astc(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t x, uint32_t y,
                        uint32_t rgba[4])
{
    uint32_t width = f->block_width, height = f->block_height;
    bool srgb = f->kind == VKMM_TEXEL_SRGB;
    if (last_block.format != f->format || memcmp(last_block.bytes, bytes, 16)) {
        last_block.format = 0;
        if (!vkmm_astc_decode_block(bytes, width, height, srgb, last_block.rgba)) {
            /* No memory for the codec: the error colour (1, 0, 1, 1). */
            rgba[0] = rgba[2] = rgba[3] = vkmm_float_bits(1.0f);
            rgba[1] = 0;
            return;
        }
        last_block.format = f->format;
        memcpy(last_block.bytes, bytes, 16);
    }
    const float *texel = &last_block.rgba[(y % height * width + x % width) * 4];
    for (unsigned c = 0; c < 4; c++) /* sRGB: R, G and B; alpha is linear */
        rgba[c] = vkmm_float_bits(srgb && c < 3 ? srgb_to_linear(texel[c]) : texel[c]);
}

void vkmm_texel_decode_at(const struct vkmm_texel_format *f, const uint8_t *bytes, uint32_t x, uint32_t y,
                          uint32_t rgba[4])
{
    if (vkmm_texel_format_is_compressed(f))
        decode_astc(f, bytes, x, y, rgba);
    else
        vkmm_texel_decode(f, bytes, rgba);
}

void vkmm_texel_encode(const struct vkmm_texel_format *f, const uint32_t rgba[4], uint8_t *bytes)
{
    if (vkmm_texel_format_is_compressed(f))
        return;
    if (f->kind == VKMM_TEXEL_SHAREDEXP) {
        encode_shared_exponent(rgba, bytes);
        return;
    }
    if (f->packed)
        memset(bytes, 0, f->size);
    for (unsigned i = 0; i < f->components; i++)
        set_component_bits(f, bytes, i, encode_component(f, rgba[f->channel[i]], f->bits[i], f->channel[i]));
}

/* Component-major, as the generated code spills vectors: word k of lane l
 * at k * width + l. */
void vkmm_texels_decode(uint32_t *values, const uint32_t *raw, const uint32_t *formats_of_lanes, uint32_t width)
{
    for (uint32_t l = 0; l < width; l++) {
        const struct vkmm_texel_format *f = vkmm_texel_format(formats_of_lanes[l]);
        uint32_t bytes[4], rgba[4] = { 0, 0, 0, 0 };
        for (uint32_t k = 0; k < 4; k++)
            bytes[k] = raw[k * width + l];
        uint32_t place = formats_of_lanes[width + l];
        if (f)
            vkmm_texel_decode_at(f, (const uint8_t *)bytes, place & 0xff, place >> 8 & 0xff, rgba);
        for (uint32_t k = 0; k < 4; k++)
            values[k * width + l] = rgba[k];
    }
}

void vkmm_texels_encode(uint32_t *raw, const uint32_t *values, const uint32_t *formats_of_lanes, uint32_t width)
{
    for (uint32_t l = 0; l < width; l++) {
        const struct vkmm_texel_format *f = vkmm_texel_format(formats_of_lanes[l]);
        uint32_t bytes[4] = { 0, 0, 0, 0 }, rgba[4];
        for (uint32_t k = 0; k < 4; k++)
            rgba[k] = values[k * width + l];
        if (f)
            vkmm_texel_encode(f, rgba, (uint8_t *)bytes);
        for (uint32_t k = 0; k < 4; k++)
            raw[k * width + l] = bytes[k];
    }
}
