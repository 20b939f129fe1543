#version 450
// sin, cos, tan, asin, acos, atan, atan2.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    float c = clamp(y, -1.0, 1.0);
    o[i * 7u + 0u] = sin(x);
    o[i * 7u + 1u] = cos(x);
    o[i * 7u + 2u] = tan(x * 0.4);
    o[i * 7u + 3u] = asin(c);
    o[i * 7u + 4u] = acos(c);
    o[i * 7u + 5u] = atan(x * 3.0);
    o[i * 7u + 6u] = atan(y, x);
}
