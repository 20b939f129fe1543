#version 450
// Signed 32-bit add/sub/mul/negate with wrap-around; 1D, 64 invocations.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
layout(push_constant) uniform P { uint n; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n)
        return;
    int x = a[i], y = b[i];
    o[i * 6u + 0u] = x + y;
    o[i * 6u + 1u] = x - y;
    o[i * 6u + 2u] = x * y;
    o[i * 6u + 3u] = -x;
    o[i * 6u + 4u] = int(uint(x) * 3u + uint(y));
    o[i * 6u + 5u] = (x + 7) * (y - 3) - x;
}
