#version 450
// 16-bit integer arithmetic (wrapping) with 16-bit storage; 2D workgroup.
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { int16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int16_t o[]; };
layout(set = 0, binding = 3) writeonly buffer U { uint16_t u[]; };
const uint K = 9u;
void main()
{
    uint i = gl_LocalInvocationIndex + 64u * (gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y);
    int16_t x = a[i], y = b[i];
    o[i * K + 0u] = x + y;
    o[i * K + 1u] = x - y;
    o[i * K + 2u] = x * y;
    o[i * K + 3u] = x / y;
    o[i * K + 4u] = x % y;
    o[i * K + 5u] = x >> (y & int16_t(15));
    o[i * K + 6u] = x << (y & int16_t(15));
    o[i * K + 7u] = max(x, y) ^ int16_t(0x1234);
    o[i * K + 8u] = abs(x);
    uint16_t ux = uint16_t(x), uy = uint16_t(y);
    u[i * 5u + 0u] = ux + uy;
    u[i * 5u + 1u] = ux * uy;
    u[i * 5u + 2u] = ux / uint16_t(uy | uint16_t(1));
    u[i * 5u + 3u] = ux >> (uy & uint16_t(15));
    u[i * 5u + 4u] = min(ux, uy);
}
