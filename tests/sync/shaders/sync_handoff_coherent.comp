#version 450
/* Workgroup 0 publishes 64 words and raises a flag with an atomic;
 * workgroup 1 waits for the flag and reads the words.  Correct: the words are coherent
 * and the flag's atomics order them. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1) coherent buffer Flag { uint flag; };
layout(set = 0, binding = 2) writeonly buffer Out { uint result[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    if (gl_WorkGroupID.x == 0u) {
        data[l] = l * 7u + 3u;
        memoryBarrierBuffer();
        barrier();
        if (l == 0u)
            atomicExchange(flag, 1u);
    } else {
        if (l == 0u) {
            while (atomicAdd(flag, 0u) == 0u) {
            }
        }
        memoryBarrierBuffer();
        barrier();
        result[l] = data[l];
    }
}
