#version 450
// float16_t builtins: inputs are floats exactly representable in half
// precision, converted in the shader; results are widened back.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P { uint n; } p;

#define A(k) float16_t(a[(k) * p.n + i])
#define B(k) float16_t(b[(k) * p.n + i])
#define Y(k) y[(k) * p.n + i]

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    Y(0) = float(sin(A(0)));
    Y(1) = float(cos(A(1)));
    Y(2) = float(exp(A(2)));
    Y(3) = float(exp2(A(3)));
    Y(4) = float(log(A(4)));
    Y(5) = float(log2(A(5)));
    Y(6) = float(sqrt(A(6)));
    Y(7) = float(inversesqrt(A(7)));
    Y(8) = float(atan(A(8)));
    Y(9) = float(asinh(A(9)));
    Y(10) = float(acosh(A(10)));
    Y(11) = float(atanh(A(11)));
    Y(12) = float(tanh(A(12)));
    Y(13) = float(floor(A(13)));
    Y(14) = float(fract(A(14)));
    Y(15) = float(pow(A(15), B(15)));
    Y(16) = float(atan(A(16), B(16)));
    Y(17) = float(min(A(17), B(17)));
    Y(18) = float(ldexp(A(18), int(B(18))));
    int e;
    Y(19) = float(frexp(A(19), e)) + float(e) * 4.0;
    float16_t whole;
    Y(20) = float(modf(A(20), whole)) + float(whole) * 4.0;
    Y(21) = float(length(f16vec2(A(21), B(21))));
    Y(22) = float(sign(A(22)));
    Y(23) = float(sinh(A(23)));
    Y(24) = float(fma(A(24), B(24), A(24)));
    Y(25) = float(tan(A(25)));
    Y(26) = float(asin(A(26)));
    Y(27) = float(acos(A(27)));
    Y(28) = float(cosh(A(28)));
    Y(29) = float(roundEven(A(29)));
    Y(30) = float(ceil(A(30)));
    Y(31) = float(step(A(31), B(31)));
    Y(32) = float(clamp(A(32), -abs(B(32)), abs(B(32))));
    Y(33) = float(radians(A(33)));
    Y(34) = float(normalize(f16vec2(A(34), B(34))).x);
    Y(35) = float(determinant(f16mat2(A(35), B(35), B(35), A(35))));
    Y(36) = float(cross(f16vec3(A(36), B(36), 1.0hf), f16vec3(B(36), 1.0hf, A(36))).y);
}
