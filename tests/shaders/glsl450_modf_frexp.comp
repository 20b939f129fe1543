#version 450
// modf (an out-parameter through a pointer), frexp, ldexp in single and
// double precision.  Lanes past n return early, so the stores through the
// out-parameter run under a partial execution mask.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 1) readonly buffer E { ivec4 e[]; };
layout(set = 0, binding = 2) writeonly buffer F { vec4 f[]; };   // 5 blocks of n
layout(set = 0, binding = 3) writeonly buffer I { ivec4 k[]; };  // 1 block
layout(set = 0, binding = 4) readonly buffer DX { dvec2 dx[]; };
layout(set = 0, binding = 5) writeonly buffer DF { dvec2 df[]; }; // 4 blocks of n
layout(set = 0, binding = 6) writeonly buffer DI { ivec2 dk[]; };
layout(push_constant) uniform P { uint n; } p;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    vec4 v = x[i], whole;
    f[0 * p.n + i] = modf(v, whole);
    f[1 * p.n + i] = whole;
    ivec4 exponent;
    f[2 * p.n + i] = frexp(v, exponent);
    k[i] = exponent;
    f[3 * p.n + i] = ldexp(v, e[i]);
    float s;
    float fs = modf(v.y, s);
    f[4 * p.n + i] = vec4(fs, s, ldexp(v.z, e[i].w), frexp(v.w, exponent.x));

    dvec2 d = dx[i], dwhole;
    df[0 * p.n + i] = modf(d, dwhole);
    df[1 * p.n + i] = dwhole;
    ivec2 dexp;
    df[2 * p.n + i] = frexp(d, dexp);
    dk[i] = dexp;
    df[3 * p.n + i] = ldexp(d, e[i].xy);
}
