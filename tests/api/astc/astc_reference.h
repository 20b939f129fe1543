/* The compressed-image test's reference: ARM's astc-encoder compresses a
 * test image and decodes it back on the host, independently of vkmm's
 * texel path (its API is C++, hence this small wrapper). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compresses `rgba8` (width x height texels, 4 bytes each) into blocks of
 * block_width x block_height (ASTC LDR, `srgb`: the sRGB profile), row
 * after row of blocks into `blocks` (16 bytes each), and decodes them back
 * into `decoded` (4 floats per texel: UNORM values, or the 8-bit sRGB
 * encoded values / 255 for `srgb`).  False on a codec error. */
bool astc_reference_encode(const uint8_t *rgba8, uint32_t width, uint32_t height, uint32_t block_width,
                           uint32_t block_height, bool srgb, uint8_t *blocks, float *decoded);

#ifdef __cplusplus
}
#endif
