#version 450
// An array of uniform buffer descriptors indexed by a push constant and by
// the workgroup ID.
layout(local_size_x = 16, local_size_y = 2) in;
layout(std140, set = 0, binding = 0) uniform U { vec4 v[8]; float scale; } ubos[3];
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
layout(push_constant) uniform P { int pick; } pc;
void main()
{
    uint g = gl_WorkGroupID.x % 3u;
    uint i = gl_LocalInvocationIndex;
    vec4 a = ubos[g].v[i % 8u];
    vec4 b = ubos[pc.pick].v[(i + 1u) % 8u];
    o[gl_WorkGroupID.x * 32u + i] = dot(a, vec4(1.0, 2.0, 3.0, 4.0)) * ubos[g].scale + b.y;
}
