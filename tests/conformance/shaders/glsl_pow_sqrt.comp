#version 450
// pow, sqrt, inversesqrt.
layout(local_size_x = 10, local_size_y = 10) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + 100u * gl_WorkGroupID.x;
    float x = a[i], y = b[i];
    o[i * 4u + 0u] = pow(x, y);
    o[i * 4u + 1u] = sqrt(x);
    o[i * 4u + 2u] = inversesqrt(x);
    o[i * 4u + 3u] = pow(x, 2.0);
}
