#version 450
// packHalf2x16/unpackHalf2x16, pack/unpack Unorm/Snorm 2x16 and 4x8.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };  // in [-1.2, 1.2]
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
layout(set = 0, binding = 3) writeonly buffer F { vec4 f[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    uint u = b[i];
    o[i * 5u + 0u] = packHalf2x16(v.xy * 100.0);
    o[i * 5u + 1u] = packUnorm4x8(v);
    o[i * 5u + 2u] = packSnorm4x8(v);
    o[i * 5u + 3u] = packUnorm2x16(v.zw);
    o[i * 5u + 4u] = packSnorm2x16(v.xw);
    f[i * 4u + 0u] = vec4(unpackHalf2x16(u), unpackUnorm2x16(u));
    f[i * 4u + 1u] = unpackUnorm4x8(u);
    f[i * 4u + 2u] = unpackSnorm4x8(u);
    f[i * 4u + 3u] = vec4(unpackSnorm2x16(u), 0.0, 1.0);
}
