#version 450
/* Bug: pairs of neighbouring invocations (lanes of one subgroup) swap
 * words through `shared` with no barrier() after the writes. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = data[gl_GlobalInvocationID.x];
    result[gl_GlobalInvocationID.x] = tile[l ^ 1u];
}
