#version 450
// Bitwise and/or/xor/not on scalars and vectors.
layout(local_size_x = 7) in;
layout(set = 0, binding = 0) readonly buffer A { uvec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { uvec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uvec4 o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = a[i], y = b[i];
    o[i * 5u + 0u] = x & y;
    o[i * 5u + 1u] = x | y;
    o[i * 5u + 2u] = x ^ y;
    o[i * 5u + 3u] = ~x;
    ivec4 sx = ivec4(x);
    o[i * 5u + 4u] = uvec4((sx & ~ivec4(y)) | (ivec4(y) ^ 0x5a5a5a5a));
}
