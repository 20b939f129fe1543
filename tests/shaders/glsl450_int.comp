#version 450
// Integer builtins on ivec4 (block k of n4 per operand).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { ivec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { ivec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer Out { ivec4 y[]; };
layout(push_constant) uniform P { uint n4; } p;

#define Y(k) y[(k) * p.n4 + i]

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n4)
        return;
    ivec4 x = a[i], u = b[i], v = c[i];
    Y(0) = abs(x);
    Y(1) = sign(x);
    Y(2) = min(x, u);
    Y(3) = max(x, u);
    Y(4) = clamp(x, min(u, v), max(u, v));
    Y(5) = ivec4(min(uvec4(x), uvec4(u)));
    Y(6) = ivec4(max(uvec4(x), uvec4(u)));
    Y(7) = ivec4(clamp(uvec4(x), min(uvec4(u), uvec4(v)), max(uvec4(u), uvec4(v))));
    Y(8) = findLSB(x);
    Y(9) = findMSB(x);
    Y(10) = findMSB(uvec4(x));
    Y(11) = bitCount(x);
    Y(12) = ivec4(findLSB(uint(x.x)), findMSB(x.y), findMSB(uint(x.z)), abs(x.w)); // scalars
}
