#version 450
/* The second half, in a later dispatch: the next workgroup's words. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) readonly buffer Mid { uint mid[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = mid[(i + 64u) % 256u];
}
