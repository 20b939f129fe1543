#version 450
layout(local_size_x = 4, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { uvec4 ids[]; };
void main() {
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uint flat_index = gl_GlobalInvocationID.x + n.x * (gl_GlobalInvocationID.y + n.y * gl_GlobalInvocationID.z);
    ids[flat_index] = uvec4(gl_WorkGroupID.x * 10000 + gl_WorkGroupID.y * 100 + gl_WorkGroupID.z,
                            gl_LocalInvocationIndex, gl_LocalInvocationID.x + 10 * gl_LocalInvocationID.y + 100 * gl_LocalInvocationID.z,
                            flat_index);
}
