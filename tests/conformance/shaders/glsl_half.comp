#version 450
// GLSL.std.450 on float16_t (relaxed precision): abs, min, max, clamp,
// floor, fract, sqrt, mix, exp2, sin.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float16_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { float16_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
const uint K = 10u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float16_t x = a[i], y = b[i];
    o[i * K + 0u] = float(abs(x));
    o[i * K + 1u] = float(min(x, y));
    o[i * K + 2u] = float(max(x, y));
    o[i * K + 3u] = float(clamp(x, float16_t(-1.0), float16_t(1.0)));
    o[i * K + 4u] = float(floor(x));
    o[i * K + 5u] = float(fract(x));
    o[i * K + 6u] = float(sqrt(abs(y)));
    o[i * K + 7u] = float(mix(x, y, float16_t(0.25)));
    o[i * K + 8u] = float(exp2(x * float16_t(0.25)));
    o[i * K + 9u] = float(sin(y * float16_t(0.5)));
}
