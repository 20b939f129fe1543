#version 450
// Each invocation's private array takes 64 MiB: a workgroup of 64 would
// need 4 GiB of subgroup state (fuzz_exec found such a module asking for
// 32 GiB at its first dispatch).  vkmm refuses it at pipeline creation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; } data;

uint big[16 * 1024 * 1024];

void main()
{
    uint i = gl_LocalInvocationIndex;
    big[data.values[i] & 0xffffffu] = i;
    data.values[i] = big[(i * 7u) & 0xffffffu];
}
