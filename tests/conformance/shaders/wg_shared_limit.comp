#version 450
// 32 KiB of shared memory (maxComputeSharedMemorySize) in 1024 invocations
// of a 16 x 8 x 8 workgroup: every invocation fills 8 words, then sums
// 8 words written by others.
layout(local_size_x = 16, local_size_y = 8, local_size_z = 8) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
shared uint big[8192];
void main()
{
    uint l = gl_LocalInvocationIndex;
    for (uint k = 0u; k < 8u; k++)
        big[k * 1024u + l] = l * 8u + k + gl_WorkGroupID.x;
    barrier();
    uint sum = 0u;
    for (uint k = 0u; k < 8u; k++)
        sum += big[(l * 8u + k * 977u) % 8192u];
    o[gl_WorkGroupID.x * 1024u + l] = sum;
}
