#version 450
/* Every invocation adds one to its own word. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint a[]; };
void main() {
    atomicAdd(a[gl_GlobalInvocationID.x], 1u);
}
