#version 450
// sinh, cosh, tanh, asinh, acosh, atanh.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    o[i * 6u + 0u] = sinh(x);
    o[i * 6u + 1u] = cosh(x);
    o[i * 6u + 2u] = tanh(x);
    o[i * 6u + 3u] = asinh(x * 10.0);
    o[i * 6u + 4u] = acosh(1.0 + abs(x) * 5.0);
    o[i * 6u + 5u] = atanh(x * 0.3);
}
