#version 450
// Multisampled images (tests/api/image_multisample.c): a 2x2 R32_UINT image
// of 4 samples; each invocation fetches every sample of its texel, and one
// sample past the last (outside the image: zero).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform usampler2DMS ms;
layout(set = 0, binding = 1) buffer Out { uint v[]; } o;

void main()
{
    uint i = gl_LocalInvocationIndex;
    ivec2 p = ivec2(i % 2u, i / 2u);
    for (int s = 0; s < 4; s++)
        o.v[i * 4u + uint(s)] = texelFetch(ms, p, s).x;
    if (i == 0u) {
        o.v[16] = uint(textureSamples(ms));
        o.v[17] = texelFetch(ms, p, 4).x;
    }
}
