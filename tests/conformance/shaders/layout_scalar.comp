#version 450
// GL_EXT_scalar_block_layout: vec3 arrays with stride 12, structs packed to
// scalar alignment, mat3 with 12-byte columns, in storage and uniform blocks;
// neighbouring vec3 stores from other invocations must not clobber.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 100) in;
struct P { float a; vec3 b; vec2 c; };  // a@0 b@4 c@16, size 24
layout(scalar, set = 0, binding = 0) readonly buffer V { vec3 v[]; };
layout(scalar, set = 0, binding = 1) readonly buffer Q { P p[]; };
layout(scalar, set = 0, binding = 2) uniform U { vec3 ua; float ub; vec3 uarr[4]; mat3 um; } u; // 0, 12, 16, 64
layout(scalar, set = 0, binding = 3) writeonly buffer O { vec3 o[]; };
layout(scalar, set = 0, binding = 4) writeonly buffer R { P r[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec3 x = v[i];
    P q = p[i];
    o[i] = x * 2.0 + q.b + u.uarr[i % 4u] + u.um * x;
    r[i].a = q.a + u.ub;
    r[i].b = q.b.zxy + u.ua;
    r[i].c = q.c * q.a;
}
