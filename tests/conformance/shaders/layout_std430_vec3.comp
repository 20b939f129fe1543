#version 450
// std430 structs with vec3 members (16-byte aligned, a following float
// packs into the vec3's last 4 bytes); stores must leave padding alone.
layout(local_size_x = 64) in;
struct S { vec3 a; float b; vec2 c; vec3 d; };  // a@0 b@12 c@16 d@32, size 48
layout(std430, set = 0, binding = 0) readonly buffer In { float head; S s[]; };  // s@16
layout(std430, set = 0, binding = 1) buffer Out { S o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    S x = s[i];
    o[i].a = x.d * 2.0;
    o[i].b = x.b + 1.0;
    o[i].c = x.c.yx;
    o[i].d = x.a + head;
}
