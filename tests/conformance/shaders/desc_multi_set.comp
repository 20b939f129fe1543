#version 450
// Several descriptor sets with sparse binding numbers and mixed types.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 3) readonly buffer A { uint a[]; };
layout(std140, set = 1, binding = 0) uniform K { uvec4 k; };
layout(std430, set = 1, binding = 7) readonly buffer B { uint b[]; };
layout(std430, set = 2, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    o[i] = a[i] * k.x + b[i] * k.y + k.z;
}
