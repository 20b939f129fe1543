#version 450
// vec2/ivec2/uvec2: constructors, componentwise arithmetic, swizzles.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { ivec2 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec2 o[]; };
layout(set = 0, binding = 3) writeonly buffer P { ivec2 p[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec2 x = a[i];
    ivec2 y = b[i];
    o[i * 4u + 0u] = x + x.yx;
    o[i * 4u + 1u] = x * vec2(y) - 2.0;
    o[i * 4u + 2u] = vec2(x.y, float(y.x)) / vec2(4.0, 2.0);
    o[i * 4u + 3u] = -x.xx + x.yy * 0.5;
    p[i * 3u + 0u] = y * 3 + y.yx;
    p[i * 3u + 1u] = ivec2(uvec2(y) >> 1u);
    p[i * 3u + 2u] = y / ivec2(7, -3) + y % ivec2(5, 9);
}
