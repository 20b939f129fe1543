#version 450
// Conversions between half, float and double; exact widenings, rounded
// narrowings.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer D { double d[]; };
layout(set = 0, binding = 1) writeonly buffer F { float f[]; };
layout(set = 0, binding = 2) writeonly buffer W { double w[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    double x = d[i];
    float fx = float(x);
    float16_t hx = float16_t(fx);
    f[i * 3u + 0u] = fx;
    f[i * 3u + 1u] = float(hx);
    f[i * 3u + 2u] = float(float16_t(x * 0.001lf));
    w[i * 2u + 0u] = double(fx);
    w[i * 2u + 1u] = double(hx);
}
