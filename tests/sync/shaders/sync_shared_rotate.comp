#version 450
/* Correct: an in-place rotation of shared memory, with barrier() between
 * reading the neighbour and overwriting one's own word. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    uint next = tile[(l + 1u) % 64u];
    barrier();
    tile[l] = next * 2u;
    barrier();
    result[gl_GlobalInvocationID.x] = tile[l];
}
