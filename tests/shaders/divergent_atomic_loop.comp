#version 450
/* Atomics in divergent branches of a nested loop: in strict mode every
 * atomic is a suspension point, and each must run exactly once. */
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint a[]; };
void main() {
    uint idx = gl_LocalInvocationIndex;
    for (uint i = 0u; i < 64u; ++i) {
        for (uint j = 0u; j < 4u; ++j) {
            uint s = 4u * i + j;
            if (idx == s)
                atomicAdd(a[idx], 1u);
            else if (idx == 0u && s >= 16u)
                atomicAdd(a[s], 1u);
        }
    }
}
