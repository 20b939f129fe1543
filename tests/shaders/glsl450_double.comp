#version 450
// Double-precision builtins on dvec2 (block k of n2 per operand).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { dvec2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { dvec2 b[]; };
layout(set = 0, binding = 2) readonly buffer C { dvec2 c[]; };
layout(set = 0, binding = 3) writeonly buffer Y { dvec2 y[]; };
layout(push_constant) uniform P { uint n2; } p;

#define A(k) a[(k) * p.n2 + i]
#define B(k) b[(k) * p.n2 + i]
#define C(k) c[(k) * p.n2 + i]
#define Y(k) y[(k) * p.n2 + i]

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n2)
        return;
    Y(0) = sqrt(A(0));
    Y(1) = inversesqrt(A(1));
    Y(2) = floor(A(2));
    Y(3) = ceil(A(3));
    Y(4) = fract(A(4));
    Y(5) = round(A(5));
    Y(6) = roundEven(A(6));
    Y(7) = trunc(A(7));
    Y(8) = abs(A(8));
    Y(9) = sign(A(9));
    Y(10) = min(A(10), B(10));
    Y(11) = max(A(11), B(11));
    Y(12) = clamp(A(12), B(12), C(12));
    Y(13) = mix(A(13), B(13), C(13));
    Y(14) = step(A(14), B(14));
    Y(15) = smoothstep(A(15), B(15), C(15));
    Y(16) = fma(A(16), B(16), C(16));
    Y(17) = mod(A(17), B(17));
}
