#version 450
// Mip levels through a sampled image (tests/api/image_sampling.c): an 8x8
// R32_SFLOAT image with 4 levels, level 0 holding 10 + x, levels 1-3 the
// constants 20, 30, 40.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D nearest_mips;  // NEAREST filters, mipmap NEAREST
layout(set = 0, binding = 1) uniform sampler2D linear_mips;   // NEAREST filters, mipmap LINEAR
layout(set = 0, binding = 2) uniform sampler2D clamped_mips;  // mipmap NEAREST, minLod 1, maxLod 2
layout(set = 0, binding = 3) uniform sampler2D biased_mips;   // mipmap NEAREST, mipLodBias 1
layout(set = 0, binding = 4) buffer Out { float v[]; } o;

void main()
{
    vec2 x2 = vec2(2.5 / 8.0, 0.5 / 8.0); // the centre of texel (2, 0) of level 0
    o.v[0] = texelFetch(nearest_mips, ivec2(0), 0).r;
    o.v[1] = texelFetch(nearest_mips, ivec2(0), 1).r;
    o.v[2] = texelFetch(nearest_mips, ivec2(0), 2).r;
    o.v[3] = texelFetch(nearest_mips, ivec2(0), 3).r;
    o.v[4] = texelFetch(nearest_mips, ivec2(0), 4).r;               // no level 4: 0
    o.v[5] = texelFetch(nearest_mips, ivec2(1, 0), 1).r;
    o.v[6] = texelFetch(nearest_mips, ivec2(3, 3), 1).r;            // the last texel of level 1 (4x4)
    o.v[7] = texelFetch(nearest_mips, ivec2(4, 0), 1).r;            // outside level 1 (4x4): 0
    o.v[8] = texelFetchOffset(nearest_mips, ivec2(0), 0, ivec2(3, 0)).r;
    o.v[9] = float(textureQueryLevels(nearest_mips));
    o.v[10] = float(textureSize(nearest_mips, 2).x);
    o.v[11] = textureLod(nearest_mips, x2, 0.0).r;
    o.v[12] = textureLod(nearest_mips, x2, 1.4).r;
    o.v[13] = textureLod(nearest_mips, x2, 1.6).r;
    o.v[14] = textureLod(nearest_mips, x2, 10.0).r;
    o.v[15] = textureLod(nearest_mips, x2, -1.0).r;
    o.v[16] = textureLod(linear_mips, x2, 0.5).r;
    o.v[17] = textureLod(linear_mips, x2, 2.25).r;
    o.v[18] = textureLod(linear_mips, x2, 3.5).r;
    o.v[19] = textureGrad(linear_mips, x2, vec2(0.25, 0.0), vec2(0.0, 0.0)).r;  // rho 2: lod 1
    o.v[20] = textureGrad(linear_mips, x2, vec2(0.5, 0.0), vec2(0.0, 0.5)).r;   // rho 4: lod 2
    o.v[21] = textureLod(clamped_mips, x2, 0.0).r;
    o.v[22] = textureLod(clamped_mips, x2, 3.0).r;
    o.v[23] = textureLod(biased_mips, x2, 0.0).r;
    o.v[24] = textureLodOffset(nearest_mips, x2, 0.0, ivec2(2, 0)).r;
}
