#version 450
/* The producer of the dispatch chain: data[i] = i + 1000. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i] = i + 1000u;
}
