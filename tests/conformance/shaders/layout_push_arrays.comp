#version 450
// Push-constant arrays (uint[16], vec4[4], struct) indexed dynamically.
layout(local_size_x = 7, local_size_y = 7) in;
struct R { uint lo; uint hi; };
layout(push_constant) uniform P {
    uint table[16];   // 0
    vec4 coef[4];     // 64
    R ranges[4];      // 128
} pc;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 49u * gl_WorkGroupID.x;
    uint v = x[i];
    uint t = pc.table[v % 16u] + pc.table[(v >> 4) % 16u];
    vec4 c = pc.coef[v % 4u];
    R r = pc.ranges[(v >> 2) % 4u];
    o[i * 3u + 0u] = float(t);
    o[i * 3u + 1u] = c[(v >> 8) % 4u] * float(v % 7u);
    o[i * 3u + 2u] = float(clamp(v % 1000u, r.lo, r.hi));
}
