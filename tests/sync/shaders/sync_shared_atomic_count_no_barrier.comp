#version 450
/* Bug: every invocation counts into one shared word with atomicAdd and
 * reads it with no barrier() after the others' additions. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint result[]; };
shared uint total;
void main() {
    if (gl_LocalInvocationID.x == 0u)
        total = 0u;
    barrier();
    atomicAdd(total, data[gl_GlobalInvocationID.x]);
    result[gl_GlobalInvocationID.x] = total;
}
