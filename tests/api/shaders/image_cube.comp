#version 450
// Cube sampling (tests/api/image_sampling.c): a 4x4 R32_SFLOAT cube whose
// face f holds 100 (f + 1) + 4 j + i at texel (i, j).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform samplerCube nearest_cube;
layout(set = 0, binding = 1) uniform samplerCube linear_cube;
layout(set = 0, binding = 2) buffer Out { float v[]; } o;

void main()
{
    o.v[0] = textureLod(nearest_cube, vec3(1.0, 0.1, 0.2), 0.0).r;     // +X
    o.v[1] = textureLod(nearest_cube, vec3(-1.0, 0.1, 0.2), 0.0).r;    // -X
    o.v[2] = textureLod(nearest_cube, vec3(0.5, 1.0, -0.5), 0.0).r;    // +Y: s 0.75, t 0.25: texel (3, 1)
    o.v[3] = textureLod(nearest_cube, vec3(0.0, -1.0, 0.0), 0.0).r;    // -Y: centre, texel (2, 2)
    o.v[4] = textureLod(nearest_cube, vec3(0.6, -0.3, 1.0), 0.0).r;    // +Z: s 0.8, t 0.65: texel (3, 2)
    o.v[5] = textureLod(nearest_cube, vec3(0.6, 0.3, -1.0), 0.0).r;    // -Z: s 0.2, t 0.35: texel (0, 1)
    o.v[6] = textureLod(nearest_cube, vec3(-0.2, 0.9, -4.0), 0.0).r;   // -Z: s 0.525, t 0.3875: texel (2, 1)
    // On the edge of +Z and +X (a tie goes to z), between rows 1 and 2:
    // seamless linear filtering takes half from each face.
    o.v[7] = textureLod(linear_cube, vec3(1.0, 0.0, 1.0), 0.0).r;
    o.v[8] = float(textureSize(nearest_cube, 0).x);
    // On the edge of +Z and +Y, between columns 1 and 2: +Z's row 0 and
    // +Y's row 3.
    o.v[9] = textureLod(linear_cube, vec3(0.0, 1.0, 1.0), 0.0).r;
    // No direction, and NaN (nearest: no weights): undefined values, but some texel of the cube
    // (never bytes outside it).
    o.v[10] = textureLod(nearest_cube, vec3(0.0), 0.0).r;
    o.v[11] = textureLod(nearest_cube, vec3(uintBitsToFloat(0x7fc00000u)), 0.0).r;
}
