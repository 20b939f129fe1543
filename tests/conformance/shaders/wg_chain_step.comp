#version 450
// One step of a chain of dependent dispatches: dst[i] = src[i] + src[n-1-i] * k.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer S { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer D { uint dst[]; };
layout(push_constant) uniform P { uint k; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x, n = uint(src.length());
    if (i < n)
        dst[i] = src[i] + src[n - 1u - i] * pc.k;
}
