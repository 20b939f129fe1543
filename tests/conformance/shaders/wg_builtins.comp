#version 450
// Compute built-ins, with the workgroup size from specialization constants
// (local_size_x_id...): each invocation writes its record at its flat global
// index.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main()
{
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint flat_index = g.x + n.x * (g.y + n.y * g.z);
    uint b = flat_index * 16u;
    o[b + 0u] = gl_NumWorkGroups.x;
    o[b + 1u] = gl_NumWorkGroups.y;
    o[b + 2u] = gl_NumWorkGroups.z;
    o[b + 3u] = gl_WorkGroupID.x;
    o[b + 4u] = gl_WorkGroupID.y;
    o[b + 5u] = gl_WorkGroupID.z;
    o[b + 6u] = gl_LocalInvocationID.x;
    o[b + 7u] = gl_LocalInvocationID.y;
    o[b + 8u] = gl_LocalInvocationID.z;
    o[b + 9u] = g.x;
    o[b + 10u] = g.y;
    o[b + 11u] = g.z;
    o[b + 12u] = gl_LocalInvocationIndex;
    o[b + 13u] = gl_WorkGroupSize.x;
    o[b + 14u] = gl_WorkGroupSize.y;
    o[b + 15u] = gl_WorkGroupSize.z;
}
