#version 450
// Data-dependent buffer indices: scatter through a permutation, gather
// through another, read-modify-write of distinct elements.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) readonly buffer P { uint perm[]; };
layout(std430, set = 0, binding = 2) writeonly buffer S { uint scattered[]; };
layout(std430, set = 0, binding = 3) writeonly buffer G { uint gathered[]; };
layout(std430, set = 0, binding = 4) buffer R { uvec2 rmw[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint n = x.length();
    scattered[perm[i]] = x[i] * 3u + 1u;
    gathered[i] = x[perm[(i * 7u) % n]] ^ perm[i];
    rmw[perm[i]].y += rmw[perm[i]].x * x[i];
}
