#version 450
// robustBufferAccess: loads past the bound range of a storage buffer (and a
// uniform buffer) return zero or values from inside the range.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer S { uint s[]; };
layout(std140, set = 0, binding = 1) uniform U { uvec4 u[64]; };  // bound smaller than declared
layout(std430, set = 0, binding = 2) readonly buffer V { uvec4 s4[]; };
layout(std430, set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;   // up to 4x the bound lengths
    o[i * 6u + 0u] = s[i];
    o[i * 6u + 1u] = u[i % 64u].x;
    o[i * 6u + 2u] = u[i % 64u].w;
    uvec4 v = s4[i / 2u];
    o[i * 6u + 3u] = v.x;
    o[i * 6u + 4u] = v.w;
    o[i * 6u + 5u] = s[i * 1000003u];   // far out of range
}
