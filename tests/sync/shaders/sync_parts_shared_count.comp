#version 450
/* Correct: each workgroup counts its odd inputs with atomics on a
 * Workgroup variable (barrier() around them) and adds the count to its
 * words.  Atomics on Workgroup storage synchronize invocations of one
 * workgroup only: strict mode still runs the dispatch in parts. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
shared uint count;
void main() {
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    if (l == 0u)
        count = 0u;
    barrier();
    atomicAdd(count, a[i] & 1u);
    barrier();
    result[i] = count + b[i];
}
