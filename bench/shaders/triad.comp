#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 1) readonly buffer C { vec4 c[]; };
layout(set = 0, binding = 2) writeonly buffer A { vec4 a[]; };
layout(push_constant) uniform P { float s; uint n; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        a[i] = b[i] + p.s * c[i];
}
