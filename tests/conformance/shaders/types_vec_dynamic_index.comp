#version 450
// Vector components selected by dynamic indices (read and write).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer I { uint idx[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
layout(set = 0, binding = 3) buffer P { uvec4 p[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint k = idx[i] & 3u, m = (idx[i] >> 2) & 3u;
    vec4 v = a[i];
    float picked = v[k];
    v[m] = picked * 10.0;
    ivec3 w = ivec3(1, 2, 3);
    w[k % 3u] += int(k);
    o[i] = v + vec4(w, 0.0);
    p[i][m] = p[i][k] + 100u;   // dynamic component of a buffer vector
}
