#version 450
// reflect, refract (including total internal reflection), faceforward.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; }; // incident, eta in w
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; }; // normal (unit)
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec3 inc = normalize(a[i].xyz), n = b[i].xyz;
    float eta = a[i].w;
    o[i * 3u + 0u] = vec4(reflect(inc, n), 0.0);
    o[i * 3u + 1u] = vec4(refract(inc, n, eta), 0.0);
    o[i * 3u + 2u] = vec4(faceforward(n, inc, n), reflect(inc.x, n.x));
}
