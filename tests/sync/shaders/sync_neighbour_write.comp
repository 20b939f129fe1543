#version 450
/* The first half of the neighbour exchange: mid[i] = data[i] * 2. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Mid { uint mid[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mid[i] = data[i] * 2u;
}
