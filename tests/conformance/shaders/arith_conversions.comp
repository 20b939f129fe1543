#version 450
// int <-> float <-> uint <-> bool conversions.
layout(local_size_x = 100) in;
layout(set = 0, binding = 0) readonly buffer F { float f[]; };
layout(set = 0, binding = 1) readonly buffer I { int s[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = f[i];
    int y = s[i];
    const uint K = 8u;
    o[i * K + 0u] = uint(int(x));            // truncation toward zero
    o[i * K + 1u] = uint(abs(x));            // float -> uint
    o[i * K + 2u] = floatBitsToUint(float(y));
    o[i * K + 3u] = floatBitsToUint(float(uint(y)));
    o[i * K + 4u] = uint(bool(y)) + 2u * uint(bool(x));
    o[i * K + 5u] = uint(int(bool(y & 1)) * 7);
    o[i * K + 6u] = floatBitsToUint(float(y > 0));
    o[i * K + 7u] = uint(int(-x));
}
