#version 450
// Stream compaction with an atomic counter: every selected element lands in
// a unique slot; atomics on struct members with dynamic indices.
layout(local_size_x = 7, local_size_y = 7, local_size_z = 2) in;
struct Counters { uint n; uint sizes[4]; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer C { Counters c; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uvec2 items[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 98u * (gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y);
    uint v = x[i];
    if (v % 3u != 0u) {
        uint slot = atomicAdd(c.n, 1u);
        items[slot] = uvec2(i, v);
        atomicAdd(c.sizes[v % 4u], v & 0xffu);
    }
}
