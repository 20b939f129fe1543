#version 450
// An array of storage buffer descriptors indexed with a dynamically uniform
// index (the workgroup's), plus a constant index.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Bufs { uint count; uint data[]; } bufs[5];
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
layout(push_constant) uniform P { uint which; } pc;
void main()
{
    uint g = gl_WorkGroupID.x % 5u;
    uint i = gl_LocalInvocationID.x;
    uint n = bufs[g].count;
    uint v = i < n ? bufs[g].data[i] : 0u;
    o[gl_GlobalInvocationID.x] = v + uint(bufs[g].data.length()) * 1000000u;
    if (gl_WorkGroupID.x == 0u)
        bufs[pc.which].data[64u + i] += 1u;   // elements nobody reads
    if (gl_GlobalInvocationID.x == 0u)
        bufs[3].data[200] = 77u;   // one writer: all of them would race (strict mode reports it)
}
