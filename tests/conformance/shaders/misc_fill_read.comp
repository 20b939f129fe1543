#version 450
// Reads what transfer commands (fill, update, copy) wrote.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    o[i] = a[i] * 2u + 1u;
}
