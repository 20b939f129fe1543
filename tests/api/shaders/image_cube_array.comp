#version 450
// Cube arrays (tests/api/image_sampling.c): two 4x4 R32_SFLOAT cubes in 12
// layers, layer l holding 100 (l + 1) + 4 j + i at texel (i, j).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCubeArray cubes;
layout(set = 0, binding = 1) buffer Out { float v[]; } o;

void main()
{
    o.v[0] = textureLod(cubes, vec4(1.0, 0.1, 0.2, 0.0), 0.0).r;    // cube 0, +X: texel (1, 1)
    o.v[1] = textureLod(cubes, vec4(1.0, 0.1, 0.2, 1.0), 0.0).r;    // cube 1, +X (layer 6)
    o.v[2] = textureLod(cubes, vec4(0.6, 0.3, -1.0, 1.2), 0.0).r;   // cube 1 (1.2 rounds to 1), -Z (layer 11): texel (0, 1)
    o.v[3] = textureLod(cubes, vec4(0.6, 0.3, -1.0, 7.0), 0.0).r;   // clamped to the last cube
    o.v[4] = float(textureSize(cubes, 0).z);                         // cubes
}
