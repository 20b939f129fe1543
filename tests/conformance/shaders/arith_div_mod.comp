#version 450
// Signed and unsigned division and modulo, negatives included, by variables
// and by constants (which compilers turn into multiplications).
layout(local_size_x = 100) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
layout(push_constant) uniform P { uint n; } pc;
const uint K = 12u;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n)
        return;
    int x = a[i], y = b[i];
    uint ux = uint(x), uy = uint(y);
    o[i * K + 0u] = x / y;
    o[i * K + 1u] = x % y; // OpSMod: the sign of the divisor
    o[i * K + 2u] = int(ux / uy);
    o[i * K + 3u] = int(ux % uy);
    o[i * K + 4u] = x / 7;
    o[i * K + 5u] = x / -3;
    o[i * K + 6u] = int(ux / 10u);
    o[i * K + 7u] = int(ux % 1000u);
    o[i * K + 8u] = x / 16;
    o[i * K + 9u] = int(ux / 16u);
    o[i * K + 10u] = x % 5;
    o[i * K + 11u] = x / 1;
}
