#version 450
/* Writes data[first + i] = value + i; never touches `unused` (bound, but
 * not accessed): the exact-accesses programs (exact_accesses.c). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint data[]; };
layout(set = 0, binding = 1) buffer Unused { uint unused[]; };
layout(push_constant) uniform P { uint first; uint value; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[p.first + i] = p.value + i;
}
