#version 450
/* Pairs of neighbouring invocations (lanes of one subgroup) swap words
 * through a coherent buffer with no barrier() between the write and the
 * read: a race whichever runs first. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    result[l] = data[l ^ 1u];
}
