#version 450
/* Bug: every invocation adds to one word of a coherent buffer with
 * atomicAdd (Device scope), and one invocation of each workgroup then
 * copies the word with a plain (coherent) load after barrier().  The load
 * is not ordered after the other workgroups' additions: nothing
 * synchronizes workgroups inside one dispatch (barrier() holds only the
 * workgroup), so it races with them and may see any partial count. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) coherent buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationIndex, base = gl_WorkGroupID.x * 64u;
    atomicAdd(result[0], 1u);
    barrier();
    if (l == 1u)
        result[base + 1u] = result[0];
}
