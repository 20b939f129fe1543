#version 450
// Integer builtins on 64-, 16- and 8-bit integers (the buffers hold 64-bit
// values; narrower lanes are converted in the shader).
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { i64vec2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { i64vec2 b[]; };
layout(set = 0, binding = 2) readonly buffer C { i64vec2 c[]; };
layout(set = 0, binding = 3) writeonly buffer Out { i64vec2 y[]; };
layout(push_constant) uniform P { uint n2; } p;

#define Y(k) y[(k) * p.n2 + i]

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n2)
        return;
    i64vec2 x = a[i], u = b[i], v = c[i];
    Y(0) = abs(x);
    Y(1) = sign(x);
    Y(2) = min(x, u);
    Y(3) = max(x, u);
    Y(4) = clamp(x, min(u, v), max(u, v));
    Y(5) = i64vec2(min(u64vec2(x), u64vec2(u)));
    Y(6) = i64vec2(max(u64vec2(x), u64vec2(u)));
    Y(7) = i64vec2(clamp(u64vec2(x), min(u64vec2(u), u64vec2(v)), max(u64vec2(u), u64vec2(v))));
    Y(8) = i64vec2(findLSB(x));
    i16vec2 x16 = i16vec2(x), u16 = i16vec2(u), v16 = i16vec2(v);
    Y(9) = i64vec2(abs(x16));
    Y(10) = i64vec2(sign(x16));
    Y(11) = i64vec2(clamp(x16, min(u16, v16), max(u16, v16)));
    Y(12) = i64vec2(max(u16vec2(x16), u16vec2(u16)));
    i8vec2 x8 = i8vec2(x), u8 = i8vec2(u), v8 = i8vec2(v);
    Y(13) = i64vec2(abs(x8));
    Y(14) = i64vec2(min(x8, u8));
    Y(15) = i64vec2(clamp(u8vec2(x8), min(u8vec2(u8), u8vec2(v8)), max(u8vec2(u8), u8vec2(v8))));
}
