#version 450
/* Correct: the same update from one buffer into another. */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1) writeonly buffer Result { uint result[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    result[i] = i + 1u < 256u ? values[i + 1u] + 1u : values[i];
}
