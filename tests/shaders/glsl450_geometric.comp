#version 450
// Geometric builtins in single and double precision.  a is any vector;
// b.xyz and c.xyz are unit vectors; c.w is refract's eta.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) readonly buffer C { vec4 c[]; };
layout(set = 0, binding = 3) writeonly buffer Y { vec4 y[]; };    // 6 blocks of n
layout(set = 0, binding = 4) writeonly buffer DY { dvec4 dy[]; }; // 5 blocks of n
layout(push_constant) uniform P { uint n; } p;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    vec4 x = a[i], u = b[i], v = c[i];
    y[0 * p.n + i] = vec4(length(x), distance(x, u), length(x.x), normalize(x.y));
    y[1 * p.n + i] = normalize(x);
    y[2 * p.n + i] = vec4(cross(x.xyz, u.xyz), length(x.xy));
    y[3 * p.n + i] = vec4(faceforward(x.xyz, v.xyz, u.xyz), distance(x.z, u.z));
    y[4 * p.n + i] = reflect(x, u);
    y[5 * p.n + i] = vec4(refract(v.xyz, u.xyz, v.w), reflect(x.x, u.x));

    dvec3 dx = dvec3(x.xyz), du = dvec3(u.xyz), dv = dvec3(v.xyz);
    dy[0 * p.n + i] = dvec4(cross(dx, du), length(dx));
    dy[1 * p.n + i] = dvec4(normalize(dx), distance(dx, du));
    dy[2 * p.n + i] = dvec4(reflect(dx, du), 0.0);
    dy[3 * p.n + i] = dvec4(refract(dv, du, double(v.w)), 0.0);
    dy[4 * p.n + i] = dvec4(faceforward(dx, dv, du), 0.0);
}
