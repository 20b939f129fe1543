#version 450
// Compute built-ins with a literal workgroup size (6 x 4 x 2), and the
// consistency relations between them.
layout(local_size_x = 6, local_size_y = 4, local_size_z = 2) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main()
{
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint flat_index = g.x + n.x * (g.y + n.y * g.z);
    bool ok = g == gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID;
    ok = ok && gl_LocalInvocationIndex ==
                   gl_LocalInvocationID.z * 24u + gl_LocalInvocationID.y * 6u + gl_LocalInvocationID.x;
    ok = ok && all(lessThan(gl_LocalInvocationID, gl_WorkGroupSize));
    ok = ok && gl_WorkGroupSize == uvec3(6u, 4u, 2u);
    o[flat_index * 2u] = ok ? 1u : 0u;
    o[flat_index * 2u + 1u] = gl_WorkGroupID.x + 100u * gl_WorkGroupID.y + 10000u * gl_WorkGroupID.z;
}
