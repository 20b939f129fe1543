#version 450
// length, distance, dot, normalize, cross (vec2/vec3/vec4).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
const uint K = 12u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i], y = b[i];
    o[i * K + 0u] = length(x);
    o[i * K + 1u] = length(x.xy);
    o[i * K + 2u] = distance(x.xyz, y.xyz);
    o[i * K + 3u] = dot(x, y);
    o[i * K + 4u] = dot(x.xyz, y.zyx);
    vec3 n = normalize(x.xyz);
    o[i * K + 5u] = n.x;
    o[i * K + 6u] = n.y;
    o[i * K + 7u] = n.z;
    vec3 c = cross(x.xyz, y.xyz);
    o[i * K + 8u] = c.x;
    o[i * K + 9u] = c.y;
    o[i * K + 10u] = c.z;
    o[i * K + 11u] = length(x.x);
}
