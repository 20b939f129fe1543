#version 450
/* Atomics in divergent branches of nested loops whose values (read from a
 * zero-initialised shared array) are used in sibling branches: in strict
 * mode a suspension at one branch's atomic must keep what the other uses. */
#extension GL_EXT_null_initializer : enable
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(set = 0, binding = 0) buffer Out { uint a[]; };
layout(constant_id = 3) const uint n = 2048;
shared uvec4 m[n] = {};
void main() {
    uint idx = gl_LocalInvocationID.x + gl_LocalInvocationID.y * gl_WorkGroupSize.x;
    uint size = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;
    for (uint i = 0u; i < n; ++i) {
        for (uint j = 0u; j < 4u; ++j) {
            uint s = 4u * i + j;
            uint v = m[i][j];
            if (idx == s)
                atomicAdd(a[idx], v == 0u ? 1u : 0u);
            else if (idx == 0u && s >= size)
                atomicAdd(a[s], v == 0u ? 1u : 0u);
        }
    }
}
