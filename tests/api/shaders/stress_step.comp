#version 450
// One step of tests/api/multithread_stress.c's chain: the running value
// (shared by every thread's step, ordered by a timeline semaphore) takes in
// this step's input, and the step's output slot keeps a copy for the host.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Running { uint running[]; };
layout(set = 0, binding = 1) readonly buffer Input { uint input_words[]; };
layout(set = 0, binding = 2) writeonly buffer Output { uint output_words[]; };
layout(push_constant) uniform Push { uint multiplier; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint value = running[i] * p.multiplier + input_words[i];
    running[i] = value;
    output_words[i] = value;
}
