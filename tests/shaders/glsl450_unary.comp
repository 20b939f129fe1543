#version 450
// Unary float builtins on vec4: input block k of n4 vec4s, output block k.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 y[]; };
layout(push_constant) uniform P { uint n4; } p;

#define U(k, f) y[(k) * p.n4 + i] = f(x[(k) * p.n4 + i])

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n4)
        return;
    U(0, round); U(1, roundEven); U(2, trunc); U(3, abs); U(4, sign); U(5, floor); U(6, ceil); U(7, fract);
    U(8, radians); U(9, degrees); U(10, sin); U(11, cos); U(12, tan); U(13, asin); U(14, acos); U(15, atan);
    U(16, sinh); U(17, cosh); U(18, tanh); U(19, asinh); U(20, acosh); U(21, atanh); U(22, exp); U(23, log);
    U(24, exp2); U(25, log2); U(26, sqrt); U(27, inversesqrt);
}
