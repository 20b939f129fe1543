#version 450
// Shared and buffer atomics executed by only some invocations (and a
// different number of times by each) between two barriers: after the
// second barrier every invocation must see all of them.
layout(local_size_x = 96) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer C { uint global_count[]; };
layout(std430, set = 0, binding = 2) writeonly buffer O { uint o[]; };
shared uint count;
shared uint sum;
void main()
{
    uint l = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    if (l == 0u) {
        count = 0u;
        sum = 0u;
    }
    barrier();
    if ((l / 16u) % 2u == 0u)        // whole subgroups (up to 16 lanes) skip the atomics
        atomicAdd(count, 1u);
    for (uint k = 0u; k < x[gl_GlobalInvocationID.x] % 5u; k++)
        atomicAdd(sum, k + 1u);      // 0 to 4 atomics per invocation
    if (l >= 90u)
        atomicAdd(global_count[g], 1u);
    barrier();
    o[gl_GlobalInvocationID.x * 2u] = count;
    o[gl_GlobalInvocationID.x * 2u + 1u] = sum;
}
