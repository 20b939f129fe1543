#version 450
// vkmm_shader_unread_bindings (tests/unit/test_compiler.c): bindings (0,1)
// and (1,2) are writeonly; (0,3) has one writeonly member and one read.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint y[]; };
layout(set = 1, binding = 2) writeonly buffer Many { uint z[]; } many[2];
layout(set = 0, binding = 3) buffer Mixed { writeonly uint w; uint v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = x[i];
    many[i & 1u].z[i] = x[i] + 1u;
    w = v[i];
}
