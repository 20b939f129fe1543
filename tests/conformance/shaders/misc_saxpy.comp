#version 450
// y = a * x + y over a large array (also used with staging copies,
// secondary command buffers and specialization variants).
layout(local_size_x = 256) in;
layout(constant_id = 0) const float BIAS = 0.0;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } pc;
void main()
{
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
    if (i < pc.n)
        y[i] = pc.a * x[i] + y[i] + BIAS;
}
