#version 450
/* Bug: each workgroup reads a word another workgroup writes in the same
 * dispatch (`distance` words away: in another part of strict mode's run,
 * or in the next workgroup); nothing orders workgroups inside a dispatch. */
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint distance; uint total; };
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Mid { uint mid[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mid[i] = a[i] * 2u;
    memoryBarrierBuffer();
    barrier();
    result[i] = mid[(i + distance) % total];
}
