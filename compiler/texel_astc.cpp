// ASTC LDR block decoding through libastcenc (texel_astc.h).
//
// A codec context belongs to one block size and profile and may decode one
// image at a time (astcenc.h: a single-threaded context needs no reset), so
// decoders take a context from a pool for the call and give it back; the
// pool grows to the number of threads decoding at once and is freed when
// the library is unloaded.
#include "texel_astc.h"

// Debian builds the shared library with C linkage (ASTCENC_DYNAMIC_LIBRARY).
#define ASTCENC_DYNAMIC_LIBRARY 1
#include <astcenc.h>

#include <mutex>

namespace {

struct pooled_context {
    uint32_t block_width, block_height;
    bool srgb;
    astcenc_context *context;
    pooled_context *next;
};

class context_pool {
  public:
    ~context_pool()
    {
        while (free_) {
            pooled_context *next = free_->next;
            astcenc_context_free(free_->context);
            delete free_;
            free_ = next;
        }
    }

    pooled_context *take(uint32_t block_width, uint32_t block_height, bool srgb)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (pooled_context **at = &free_; *at; at = &(*at)->next) {
                pooled_context *p = *at;
                if (p->block_width == block_width && p->block_height == block_height && p->srgb == srgb) {
                    *at = p->next;
                    return p;
                }
            }
        }
        return make(block_width, block_height, srgb);
    }

    void give_back(pooled_context *p)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        p->next = free_;
        free_ = p;
    }

  private:
    static pooled_context *make(uint32_t block_width, uint32_t block_height, bool srgb)
    {
        astcenc_config config;
        astcenc_profile profile = srgb ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_LDR;
        if (astcenc_config_init(profile, block_width, block_height, 1, ASTCENC_PRE_FASTEST,
                                ASTCENC_FLG_DECOMPRESS_ONLY, &config) != ASTCENC_SUCCESS)
            return nullptr;
        pooled_context *p = new (std::nothrow) pooled_context{ block_width, block_height, srgb, nullptr, nullptr };
        if (!p)
            return nullptr;
        if (astcenc_context_alloc(&config, 1, &p->context) != ASTCENC_SUCCESS) {
            delete p;
            return nullptr;
        }
        return p;
    }

    std::mutex mutex_;
    pooled_context *free_ = nullptr;
};

context_pool pool;

} // namespace

extern "C" bool vkmm_astc_decode_block(const uint8_t block[16], uint32_t block_width, uint32_t block_height, bool srgb,
                                       float *rgba)
{
    pooled_context *p = pool.take(block_width, block_height, srgb);
    if (!p)
        return false;
    void *planes[1] = { rgba };
    astcenc_image image = { block_width, block_height, 1, ASTCENC_TYPE_F32, planes };
    const astcenc_swizzle identity = { ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A };
    astcenc_error error = astcenc_decompress_image(p->context, block, 16, &image, &identity, 0);
    pool.give_back(p);
    return error == ASTCENC_SUCCESS;
}
