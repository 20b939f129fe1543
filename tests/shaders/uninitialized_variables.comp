#version 450
// Reads a Workgroup array and a Function array that nothing initialised:
// strict mode must give the seeded pattern, the same on every run
// (tests/api/shader_uninitialized_variables.c).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
shared uint s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint p[4];
    o[2u * gl_GlobalInvocationID.x] = s[l];
    o[2u * gl_GlobalInvocationID.x + 1u] = p[l % 4u];
}
