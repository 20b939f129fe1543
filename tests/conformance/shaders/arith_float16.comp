#version 450
// float16_t arithmetic with 16-bit storage; results rounded to half.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 50) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float16_t o[]; };
layout(set = 0, binding = 3) writeonly buffer C { uint c[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float16_t x = a[i], y = b[i];
    o[i * 6u + 0u] = x + y;
    o[i * 6u + 1u] = x - y;
    o[i * 6u + 2u] = x * y;
    o[i * 6u + 3u] = x / y;
    o[i * 6u + 4u] = -x;
    o[i * 6u + 5u] = float16_t(float(x) * 0.5);
    c[i] = (x < y ? 1u : 0u) | (x == y ? 2u : 0u) | (x >= y ? 4u : 0u);
}
