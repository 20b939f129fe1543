#version 450
/* Correct: a streaming kernel of many workgroups with a Workgroup-memory
 * exchange inside each (barrier() between the write and the read): strict
 * mode runs it in parts on the device's threads. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
shared uint reversed[64];
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    reversed[63u - l] = a[i];
    barrier();
    result[i] = reversed[l] * 3u + b[i];
}
