#version 450
// Shared memory exchange through barrier(): reverse within the workgroup,
// then rotate by a data-dependent amount (dynamic shared indices).
layout(local_size_x = 100) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[100];
shared uint rot;
void main()
{
    uint l = gl_LocalInvocationID.x;
    uint v = x[gl_GlobalInvocationID.x];
    s[99u - l] = v;
    if (l == 0u)
        rot = v % 100u;
    barrier();
    uint r = s[l];
    barrier();
    s[(l + rot) % 100u] = r * 2u;
    barrier();
    o[gl_GlobalInvocationID.x * 2u] = r;
    o[gl_GlobalInvocationID.x * 2u + 1u] = s[l];
}
