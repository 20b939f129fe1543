#version 450
// GLSL.std.450 on doubles: floor, ceil, fract, trunc, roundEven, abs, sign,
// min, max, clamp, mix, fma, sqrt, inversesqrt, length, dot, cross, normalize.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { double b[]; };
layout(set = 0, binding = 2) writeonly buffer O { double o[]; };
const uint K = 16u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = a[i], y = b[i];
    o[i * K + 0u] = floor(x);
    o[i * K + 1u] = ceil(x);
    o[i * K + 2u] = fract(x);
    o[i * K + 3u] = trunc(x);
    o[i * K + 4u] = roundEven(x);
    o[i * K + 5u] = abs(x) * sign(y);
    o[i * K + 6u] = min(x, y);
    o[i * K + 7u] = max(x, y);
    o[i * K + 8u] = clamp(x, -10.0lf, 10.0lf);
    o[i * K + 9u] = mix(x, y, 0.25lf);
    o[i * K + 10u] = fma(x, y, 1.0lf);
    o[i * K + 11u] = sqrt(abs(y));
    o[i * K + 12u] = inversesqrt(abs(y) + 1.0lf);
    dvec3 p = dvec3(x, y, 1.0lf), q = dvec3(y, 2.0lf, x);
    o[i * K + 13u] = length(p) + dot(p, q);
    o[i * K + 14u] = cross(p, q).y;
    o[i * K + 15u] = normalize(p).x;
}
