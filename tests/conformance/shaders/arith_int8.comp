#version 450
// 8-bit integer arithmetic (wrapping) with 8-bit storage.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int8_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int8_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int8_t o[]; };
layout(set = 0, binding = 3) writeonly buffer U { uint8_t u[]; };
const uint K = 10u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int8_t x = a[i], y = b[i];
    o[i * K + 0u] = x + y;
    o[i * K + 1u] = x - y;
    o[i * K + 2u] = x * y;
    o[i * K + 3u] = x / y;
    o[i * K + 4u] = x >> int8_t(y & int8_t(7));
    o[i * K + 5u] = x << int8_t(y & int8_t(7));
    o[i * K + 6u] = (x & y) | int8_t(~x ^ y);
    o[i * K + 7u] = min(x, y);
    o[i * K + 8u] = x < y ? int8_t(1) : int8_t(-1);
    o[i * K + 9u] = -x;
    uint8_t ux = uint8_t(x), uy = uint8_t(y);
    u[i * 6u + 0u] = ux + uy;
    u[i * 6u + 1u] = ux * uy;
    u[i * 6u + 2u] = ux / uint8_t(uy | uint8_t(1));
    u[i * 6u + 3u] = ux % uint8_t(uy | uint8_t(1));
    u[i * 6u + 4u] = ux >> (uy & uint8_t(7));
    u[i * 6u + 5u] = max(ux, uy);
}
