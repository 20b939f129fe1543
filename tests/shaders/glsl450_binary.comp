#version 450
// Two- and three-operand float builtins on vec4 (block k of n4 vec4s per
// operand), and the same on scalars for a few (blocks 12..14).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { vec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer Out { vec4 y[]; };
layout(push_constant) uniform P { uint n4; } p;

#define A(k) a[(k) * p.n4 + i]
#define B(k) b[(k) * p.n4 + i]
#define C(k) c[(k) * p.n4 + i]
#define Y(k) y[(k) * p.n4 + i]

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n4)
        return;
    Y(0) = atan(A(0), B(0));
    Y(1) = pow(A(1), B(1));
    Y(2) = min(A(2), B(2));
    Y(3) = max(A(3), B(3));
    Y(4) = step(A(4), B(4));
    Y(5) = clamp(A(5), B(5), C(5));
    Y(6) = mix(A(6), B(6), C(6));
    Y(7) = smoothstep(A(7), B(7), C(7));
    Y(8) = fma(A(8), B(8), C(8));
    Y(9) = mod(A(9), B(9));
    Y(10) = min(A(10), B(10).x);          // scalar operand, smeared
    Y(11) = clamp(A(11), B(11).x, C(11).x);
    vec4 s;
    s.x = atan(A(12).x, B(12).x);
    s.y = pow(A(12).y, B(12).y);
    s.z = fma(A(12).z, B(12).z, C(12).z);
    s.w = mix(A(12).w, B(12).w, C(12).w);
    Y(12) = s;
}
