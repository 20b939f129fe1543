#version 450
// Float add/sub/mul (correctly rounded), div (2.5 ULP), negate.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    o[i * 5u + 0u] = x + y;
    o[i * 5u + 1u] = x - y;
    o[i * 5u + 2u] = x * y;
    o[i * 5u + 3u] = x / y;
    o[i * 5u + 4u] = -y;
}
