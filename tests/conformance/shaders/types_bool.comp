#version 450
// Booleans: && || ^^ ! on scalars, bvec constructors and conversions,
// bool-valued functions, booleans kept across branches.
layout(local_size_x = 100) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
bool odd(uint x) { return (x & 1u) != 0u; }
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    bool p = odd(x), q = x > 1000u, r = (x % 3u) == 0u;
    uint res = 0u;
    res |= uint(p && q) << 0;
    res |= uint(p || q) << 1;
    res |= uint(p ^^ r) << 2;
    res |= uint(!p) << 3;
    res |= uint(p == r) << 4;
    res |= uint(p != q) << 5;
    bvec3 v = bvec3(p, q, r);
    res |= uint(any(v)) << 6 | uint(all(v)) << 7;
    bvec4 w = bvec4(uvec4(x & 1u, x & 2u, x & 4u, x & 8u));
    res |= uint(w.x) << 8 | uint(w.y) << 9 | uint(w.z) << 10 | uint(w.w) << 11;
    ivec3 iv = ivec3(v);
    res |= uint(iv.x + iv.y * 2 + iv.z * 4) << 12;
    vec2 fv = vec2(bvec2(q, r));
    res |= uint(fv.x + fv.y * 2.0) << 15;
    bool keep = q;
    if (r)
        keep = !keep;
    res |= uint(keep) << 17;
    res |= uint(bool(float(x & 4u))) << 18;
    o[i] = res;
}
