#version 450
/* A "medium" shader for compile-time measurement: loops, branches,
 * shared memory, several buffers and builtins. */
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint SCALE = 1;
layout(set = 0, binding = 0) readonly buffer In { vec4 data[]; };
layout(set = 0, binding = 1) buffer Out { vec4 result[]; };
layout(set = 0, binding = 2) uniform Params { mat4 transform; vec4 bias; uint iterations; } params;
shared vec4 cache[64];
vec4 shade(vec4 v, uint k) {
    vec4 acc = vec4(0.0);
    for (uint i = 0; i < k; i++) {
        acc += sin(v * float(i)) * cos(v + float(i));
        if (acc.x > 10.0) break;
        acc = mix(acc, params.bias, 0.25);
    }
    return acc;
}
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    vec4 v = params.transform * data[i];
    cache[l] = v;
    barrier();
    vec4 neighbour = cache[(l + 1) % 64];
    vec4 r = shade(v + neighbour, params.iterations);
    switch (i % 3) {
    case 0: r = normalize(r + 1.0); break;
    case 1: r = clamp(r, vec4(-1.0), vec4(1.0)); break;
    default: r = abs(r) * length(v);
    }
    result[i] = (r + exp(-v * v) + pow(abs(v), vec4(0.5))) * float(SCALE);
}
