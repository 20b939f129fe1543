#version 450
// Conversions between 8/16/32/64-bit signed and unsigned integers and floats:
// truncation, sign and zero extension.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1024) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int64_t o[]; };
const uint K = 12u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    o[i * K + 0u] = int64_t(int8_t(x));
    o[i * K + 1u] = int64_t(uint8_t(x));
    o[i * K + 2u] = int64_t(int16_t(x));
    o[i * K + 3u] = int64_t(uint16_t(x));
    o[i * K + 4u] = int64_t(x);
    o[i * K + 5u] = int64_t(uint(x));
    o[i * K + 6u] = int64_t(uint64_t(int16_t(x)));
    o[i * K + 7u] = int64_t(int(uint8_t(x)) - int(int8_t(x)));
    o[i * K + 8u] = int64_t(int8_t(int16_t(x)));
    o[i * K + 9u] = int64_t(float(int8_t(x)) * 2.0);
    o[i * K + 10u] = int64_t(int16_t(float(x & 0x7fff) - 16384.0));
    o[i * K + 11u] = int64_t(x) * int64_t(x);
}
