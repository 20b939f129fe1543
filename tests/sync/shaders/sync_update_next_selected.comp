#version 450
/* Bug: the in-place update with the load in a branch and the store after
 * it: the store always follows the load. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint next;
    if (i < 255u)
        next = values[i + 1u] + 1u;
    else
        next = values[i];
    values[i] = next;
}
