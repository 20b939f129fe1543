#version 450
/* Bug: the in-place update with the load before the branch that stores:
 * the store, when it runs, always follows this invocation's load. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint next = values[min(i + 1u, 255u)];
    if (i < 255u)
        values[i] = next + 1u;
}
