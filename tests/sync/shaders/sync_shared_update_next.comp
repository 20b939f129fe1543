#version 450
/* Correct: the same update with barrier() between the read and the write. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    uint next = l + 1u < 64u ? tile[l + 1u] * 2u : tile[l];
    barrier();
    tile[l] = next;
    barrier();
    result[gl_GlobalInvocationID.x] = tile[l];
}
