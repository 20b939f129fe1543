#version 450
// vec3/ivec3: arithmetic, swizzles, scalar-vector ops, in a 3D workgroup.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
layout(set = 0, binding = 2) writeonly buffer P { ivec4 p[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    vec3 x = a[i].xyz;
    vec3 y = a[i].wzy;
    vec3 r = x * 2.0 + y.zxy - 1.5 * x.yyz;
    o[i * 3u + 0u] = vec4(r, 0.0);
    o[i * 3u + 1u] = vec4(x / 4.0 - y, x.z);
    o[i * 3u + 2u] = vec4(vec3(1.0) - x.zzz * y, x.x * y.x);
    ivec3 v = ivec3(x * 10.0);
    p[i] = ivec4(v * v.yzx - 3, v.x + v.y + v.z);
}
