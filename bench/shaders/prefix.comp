#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint scan[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    scan[i] = subgroupInclusiveAdd(data[i]);
}
