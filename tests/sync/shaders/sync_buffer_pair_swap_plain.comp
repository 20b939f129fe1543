#version 450
/* Pairs of neighbouring invocations (lanes of one subgroup) swap words
 * through a buffer that is not coherent (legacy GLSL): its accesses are
 * private, and barriers do not order private accesses of two invocations
 * (000 "Private vs. Non-Private").  The mistake: `data` is not `coherent`. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    data[l] = l * 3u + 1u;
    memoryBarrierBuffer();
    barrier();
    result[l] = data[l ^ 1u];
}
