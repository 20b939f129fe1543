#version 450
/* Bug: the second half of the workgroups writes the words the first half
 * writes (the index wraps at half the grid): two writes of one word that
 * nothing orders, one of which is lost. */
layout(local_size_x = 64) in;
layout(push_constant) uniform Push { uint distance; uint total; };
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i % (total / 2u)] = a[i];
}
