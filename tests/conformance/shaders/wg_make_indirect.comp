#version 450
// Writes dispatch arguments for a later vkCmdDispatchIndirect and fills data.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Args { uint pad[4]; uvec3 count; };
layout(std430, set = 0, binding = 1) writeonly buffer D { uint d[]; };
layout(push_constant) uniform P { uvec3 groups; } pc;
void main()
{
    if (gl_GlobalInvocationID.x == 0u)
        count = pc.groups;
    d[gl_GlobalInvocationID.x] = gl_GlobalInvocationID.x * 3u;
}
