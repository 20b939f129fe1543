#version 450
/* The consumer of the dispatch chain: out[i] = in[i] * 2. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = data[i] * 2u;
}
