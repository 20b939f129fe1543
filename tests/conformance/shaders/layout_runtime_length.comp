#version 450
// .length() of runtime arrays: after a header, of structs, of vec3 with
// scalar layout, with descriptors of different ranges and offsets.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 1) in;
struct E { vec4 a; uint b; };  // std430 stride 32
layout(std430, set = 0, binding = 0) readonly buffer B0 { uint header[3]; vec4 data[]; };  // data@16
layout(std430, set = 0, binding = 1) readonly buffer B1 { E e[]; };
layout(scalar, set = 0, binding = 2) readonly buffer B2 { float h; vec3 v[]; };        // v@4, stride 12
layout(std430, set = 0, binding = 3) readonly buffer B3 { uint u[]; };
layout(std430, set = 0, binding = 4) writeonly buffer O { int o[]; };
void main()
{
    o[0] = data.length();
    o[1] = e.length();
    o[2] = v.length();
    o[3] = u.length();
    o[4] = int(u[u.length() - 1]);   // the last element in range
}
