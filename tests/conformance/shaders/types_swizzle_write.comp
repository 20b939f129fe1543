#version 450
// Writes through swizzles and single components, partial vector stores to
// buffer memory.
layout(local_size_x = 7, local_size_y = 3) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 21u * gl_WorkGroupID.x;
    vec4 x = a[i];
    vec4 v = vec4(0.0);
    v.zyx = x.xyz;
    v.w = x.w * 2.0;
    v.xw += vec2(1.0, -1.0);
    v.yz = v.zy;
    o[i * 2u] = v;
    o[i * 2u + 1u].yw = x.xz;   // x and z keep what the host wrote
    o[i * 2u + 1u].x += 1.0;
}
