#version 450
// Reads and overwrites a dynamic storage buffer: the dynamic-offset bounds
// test (tests/api/descriptor_dynamic_offset_bounds.c).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Dynamic { uint d[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = d[i];
    d[i] = 0xdeadbeefu;
}
