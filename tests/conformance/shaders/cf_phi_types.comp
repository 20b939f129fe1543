#version 450
// Loops and branches carrying aggregate values (vec3, mat2, struct, bool
// vector, array): phis of every type once optimized.
layout(local_size_x = 64) in;
struct S { vec2 p; uint n; bool flag; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint u[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = u[i];
    vec3 v = vec3(1.0, 2.0, 3.0);
    mat2 m = mat2(1.0);
    S s = S(vec2(0.0), 0u, false);
    bvec2 bv = bvec2(false, true);
    float arr[4] = float[4](0.0, 1.0, 2.0, 3.0);
    for (uint k = 0u; k < x % 9u; k++) {
        v = v.yzx + vec3(float(k));
        m = m * mat2(0.0, 1.0, -1.0, 0.5);
        if (((x >> k) & 1u) == 1u) {
            s.p += v.xy;
            s.n++;
        } else {
            s.flag = !s.flag;
        }
        bv = bv.yx;
        arr[k % 4u] += v.z;
    }
    S t = (x & 16u) != 0u ? s : S(vec2(-1.0), 99u, true);
    o[i * 12u + 0u] = v.x + v.y * 10.0 + v.z * 100.0;
    o[i * 12u + 1u] = m[0][0];
    o[i * 12u + 2u] = m[0][1];
    o[i * 12u + 3u] = m[1][0];
    o[i * 12u + 4u] = m[1][1];
    o[i * 12u + 5u] = t.p.x + t.p.y;
    o[i * 12u + 6u] = float(t.n) + (t.flag ? 0.5 : 0.0);
    o[i * 12u + 7u] = float(bv.x) + 2.0 * float(bv.y);
    o[i * 12u + 8u] = arr[0];
    o[i * 12u + 9u] = arr[1];
    o[i * 12u + 10u] = arr[2];
    o[i * 12u + 11u] = arr[3];
}
