#version 450
// Two descriptors on one buffer (different offsets, overlapping blocks of
// declarations): reads through one, writes through the other.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer B { uint dst[]; };
layout(std430, set = 0, binding = 2) readonly buffer C { uvec4 src4[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    dst[i] = src[i] + src4[i / 4u][i % 4u] * 2u;
}
