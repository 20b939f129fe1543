// The compressed-image test's reference encoder and decoder (astc_reference.h).
#include "astc_reference.h"

// Debian builds the shared library with C linkage (ASTCENC_DYNAMIC_LIBRARY).
#define ASTCENC_DYNAMIC_LIBRARY 1
#include <astcenc.h>

extern "C" bool astc_reference_encode(const uint8_t *rgba8, uint32_t width, uint32_t height, uint32_t block_width,
                                      uint32_t block_height, bool srgb, uint8_t *blocks, float *decoded)
{
    astcenc_config config;
    astcenc_context *context = nullptr;
    astcenc_profile profile = srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR;
    if (astcenc_config_init(profile, block_width, block_height, 1, ASTCENC_PRE_FAST, 0, &config) != ASTCENC_SUCCESS ||
        astcenc_context_alloc(&config, 1, &context) != ASTCENC_SUCCESS)
        return false;
    const astcenc_swizzle identity = { ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A };
    void *in_planes[1] = { const_cast<uint8_t *>(rgba8) };
    astcenc_image in = { width, height, 1, ASTCENC_TYPE_U8, in_planes };
    size_t bytes = (size_t)((width + block_width - 1) / block_width) * ((height + block_height - 1) / block_height) * 16;
    bool ok = astcenc_compress_image(context, &in, &identity, blocks, bytes, 0) == ASTCENC_SUCCESS;
    void *out_planes[1] = { decoded };
    astcenc_image out = { width, height, 1, ASTCENC_TYPE_F32, out_planes };
    ok = ok && astcenc_decompress_image(context, blocks, bytes, &out, &identity, 0) == ASTCENC_SUCCESS;
    astcenc_context_free(context);
    return ok;
}
