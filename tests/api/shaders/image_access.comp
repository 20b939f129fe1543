#version 450
// Every image path of the compiler once (tests/api/image_shader.c): storage
// image read/write/size/atomics, texel buffers, texelFetch and textureLod
// with a linear sampler, and out-of-range coordinates.
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D colors;       // 4x4
layout(set = 0, binding = 1, r32ui) uniform uimage2D counters;             // 4x4
layout(set = 0, binding = 2) uniform sampler2D smooth_colors;              // the colors image, linear
layout(set = 0, binding = 3) uniform usamplerBuffer lut;                   // R32_UINT, 16 texels
layout(set = 0, binding = 4, r32f) uniform imageBuffer scratch;            // R32_SFLOAT, 16 texels
layout(set = 0, binding = 5) buffer Out { vec4 v[]; } o;

void main()
{
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    vec4 c = imageLoad(colors, p);
    imageAtomicAdd(counters, ivec2(0, 0), 1u);                 // 16 invocations
    imageStore(counters, p + ivec2(0, 1), uvec4(uint(c.r * 255.0 + 0.5) + 1000u)); // row 3 out of range: dropped
    imageStore(scratch, int(i), vec4(float(i) * 0.5));
    imageStore(scratch, 16 + int(i), vec4(99.0));              // out of range: dropped
    o.v[i * 4 + 0] = c;
    o.v[i * 4 + 1] = vec4(imageSize(colors), imageSize(scratch), 0.0);
    o.v[i * 4 + 2] = vec4(texelFetch(smooth_colors, p, 0).g, float(texelFetch(lut, int(i)).r),
                          imageLoad(colors, p + ivec2(4, 0)).a,  // out of range: 0
                          float(texelFetch(lut, 100).r));          // out of range: 0
    // Halfway between texels (0,0) and (1,0) in x, on texel row 0.
    o.v[i * 4 + 3] = textureLod(smooth_colors, vec2(1.0 / 4.0, 0.5 / 4.0), 0.0);
}
