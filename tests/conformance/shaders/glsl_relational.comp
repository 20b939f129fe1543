#version 450
// Vector relational functions and boolean vectors: lessThan...notEqual,
// any, all, not, bvec mix and select.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { ivec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
uint bits(bvec4 v) { return uint(v.x) | uint(v.y) << 1 | uint(v.z) << 2 | uint(v.w) << 3; }
void main()
{
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i], y = b[i];
    vec4 fx = vec4(x), fy = vec4(y);
    uint r = bits(lessThan(x, y));
    r |= bits(lessThanEqual(uvec4(x), uvec4(y))) << 4;
    r |= bits(greaterThan(fx, fy)) << 8;
    r |= bits(greaterThanEqual(x, y)) << 12;
    r |= bits(equal(x, y)) << 16;
    r |= bits(notEqual(fx, fy)) << 20;
    bvec4 l = lessThan(x, y);
    r |= uint(any(l)) << 24;
    r |= uint(all(l)) << 25;
    r |= bits(not(l)) << 26;
    bvec2 e = equal(x.xy, y.zw);
    r |= uint(e == bvec2(true, false)) << 30;
    r |= uint(any(notEqual(x.zw, ivec2(0)))) << 31;
    o[i * 2u] = r;
    ivec4 m = mix(x, y, l); // select
    o[i * 2u + 1u] = uint(m.x + m.y * 3 + m.z * 5 + m.w * 7);
}
