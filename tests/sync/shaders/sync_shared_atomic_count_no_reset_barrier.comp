#version 450
/* Bug: invocation 0 clears the shared total with a plain store and the
 * others add to it with no barrier() between the store and the additions. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint total;
void main() {
    if (gl_LocalInvocationID.x == 0u)
        total = 0u;
    atomicAdd(total, data[gl_GlobalInvocationID.x]);
    barrier();
    result[gl_GlobalInvocationID.x] = total;
}
