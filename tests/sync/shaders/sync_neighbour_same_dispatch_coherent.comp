#version 450
/* Bug (coherent data, still no order between workgroups): each workgroup reads what the next workgroup writes in the same
 * dispatch: nothing orders workgroups inside a dispatch. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) coherent buffer Mid { uint mid[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mid[i] = data[i] * 2u;
    memoryBarrierBuffer();
    barrier();
    result[i] = mid[(i + 64u) % 256u];
}
