#version 450
// Depth comparison (tests/api/image_sampling.c): a 4x4 D32_SFLOAT image
// whose texel (x, y) holds 0.25 x.  Samplers: 0 LESS nearest, 1 LESS
// linear, 2 no comparison.  LESS passes where reference < texel.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow less_nearest;
layout(set = 0, binding = 1) uniform sampler2DShadow less_linear;
layout(set = 0, binding = 2) uniform sampler2D plain;
layout(set = 0, binding = 3) buffer Out { float v[]; } o;

void main()
{
    // Texels 0..3 (0, 0.25, 0.5, 0.75) against 0.3: 0 0 1 1.
    for (int x = 0; x < 4; x++)
        o.v[x] = textureLod(less_nearest, vec3((float(x) + 0.5) / 4.0, 0.5, 0.3), 0.0);
    // u = 2.0: texels 1 and 2 weighted 1/2 each, compared before filtering: 0.5.
    o.v[4] = textureLod(less_linear, vec3(0.5, 0.5, 0.3), 0.0);
    // No comparison: the depth itself, texel 2.
    o.v[5] = textureLod(plain, vec2(0.625, 0.5), 0.0).r;
    // Proj divides the coordinates and the reference by q = 2: texel 2
    // against 0.3 (undivided, 0.6 would fail): 1.
    o.v[6] = textureProjLod(less_nearest, vec4(1.25, 1.0, 0.6, 2.0), 0.0);
    // A D32_SFLOAT reference is not clamped: -1 < 0 passes at texel 0.
    o.v[7] = textureLod(less_nearest, vec3(0.125, 0.5, -1.0), 0.0);
    // Gather at u = 2.0, v = 2.0: texels x = 1, 2 in the order
    // (i0,j1) (i1,j1) (i1,j0) (i0,j0): 0.25 0.5 0.5 0.25 against 0.3: 0 1 1 0.
    vec4 g = textureGather(less_nearest, vec2(0.5, 0.5), 0.3);
    o.v[8] = g.x; o.v[9] = g.y; o.v[10] = g.z; o.v[11] = g.w;
    // 0 < 0 is false: 0.
    o.v[12] = textureLod(less_nearest, vec3(0.125, 0.5, 0.0), 0.0);
}
