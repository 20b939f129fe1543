#version 450
// Writes ASTC blocks through an R32G32B32A32_UINT view of a compressed
// image (VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT: one texel per
// block), as GPU texture encoders do; tests/api/image_compressed.c.
layout(local_size_x = 1) in;
layout(binding = 0, rgba32ui) uniform writeonly uimage2D blocks;
layout(binding = 1) buffer In { uvec4 words[]; } source;
layout(push_constant) uniform Size { uint width, height; } size; // in blocks

void main()
{
    for (uint y = 0; y < size.height; y++)
        for (uint x = 0; x < size.width; x++)
            imageStore(blocks, ivec2(x, y), source.words[y * size.width + x]);
}
