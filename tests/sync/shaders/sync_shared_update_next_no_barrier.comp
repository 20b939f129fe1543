#version 450
/* Bug: an in-place update of shared memory with no barrier() between
 * reading the right neighbour's word and overwriting one's own (no
 * wrap-around: only a subgroup that ran after its right neighbour's
 * shows it). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    barrier();
    if (l + 1u < 64u)
        tile[l] = tile[l + 1u] * 2u;
    barrier();
    result[gl_GlobalInvocationID.x] = tile[l];
}
