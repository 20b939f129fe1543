#version 450
// Float atomics on buffers and shared memory (tests/api/atomic_float.c):
// 8 workgroups of 64 invocations; every sum is exact in float.
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Sums {
    float total;      // 512 x 0.25 = 128
    float swapped;    // some invocation's 1000 + index
    double total64;   // 512 x 2.0 = 1024
    float per_group[8];
} s;
shared float group_sum;
shared double group_sum64;

void main()
{
    if (gl_LocalInvocationIndex == 0) {
        group_sum = 0.0;
        group_sum64 = 0.0;
    }
    barrier();
    atomicAdd(group_sum, 1.0);
    atomicAdd(group_sum64, 0.5);
    atomicAdd(s.total, 0.25);
    atomicAdd(s.total64, 2.0);
    atomicExchange(s.swapped, 1000.0 + float(gl_GlobalInvocationID.x));
    barrier();
    if (gl_LocalInvocationIndex == 0)
        s.per_group[gl_WorkGroupID.x] = atomicAdd(group_sum, 0.0) + float(atomicAdd(group_sum64, 0.0)); // 64 + 32
}
