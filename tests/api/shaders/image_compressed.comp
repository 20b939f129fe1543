#version 450
// Reads a compressed (ASTC) image back, for tests/api/image_compressed.c:
// every texel with texelFetch, then two samples through samplers: a
// linear one halfway between texels (3, 1) and (4, 1), which lie in
// different blocks of a 4-wide block (expected: their mean), and a
// nearest one at the centre of texel (5, 2) (expected: that texel).
layout(local_size_x = 1) in;
layout(binding = 0) uniform sampler2D nearest_texels;
layout(binding = 1) uniform sampler2D linear_texels;
layout(binding = 2) buffer Out { vec4 values[]; } result;
layout(push_constant) uniform Size { uint width, height; } size;

void main()
{
    uint n = 0;
    for (uint y = 0; y < size.height; y++)
        for (uint x = 0; x < size.width; x++)
            result.values[n++] = texelFetch(nearest_texels, ivec2(x, y), 0);
    vec2 extent = vec2(size.width, size.height);
    result.values[n++] = textureLod(linear_texels, vec2(4.0, 1.5) / extent, 0.0);
    result.values[n++] = textureLod(nearest_texels, vec2(5.5, 2.5) / extent, 0.0);
}
