#version 450
// barrier() and memoryBarrierShared() inside a loop: an iterated 1D stencil
// in shared memory, ping-ponging between two arrays.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { int o[]; };
layout(push_constant) uniform P { uint steps; } pc;
shared int a[128];
shared int b[128];
void main()
{
    uint l = gl_LocalInvocationID.x;
    a[l] = x[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    barrier();
    for (uint k = 0u; k < pc.steps; k++) {
        int left = a[(l + 127u) % 128u], right = a[(l + 1u) % 128u];
        b[l] = (left + 2 * a[l] + right) / 4 + int(k);
        memoryBarrierShared();
        barrier();
        a[l] = b[l] - (l % 2u == 0u ? 1 : 0);
        memoryBarrierShared();
        barrier();
    }
    o[gl_GlobalInvocationID.x] = a[l];
}
