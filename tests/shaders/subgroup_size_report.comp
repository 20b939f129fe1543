#version 450
#extension GL_KHR_shader_subgroup_basic : require
/* Each invocation reports its subgroup's size and its place in it. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
void main() {
    result[gl_GlobalInvocationID.x] = gl_SubgroupSize * 1000u + gl_SubgroupInvocationID * 10u + gl_SubgroupID % 10u;
}
