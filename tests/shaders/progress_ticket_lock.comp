#version 450
/* A ticket lock: each invocation draws a ticket and waits (an atomic load
 * spin) until the lock serves it; memoryBarrierBuffer() after the wait is
 * the acquire (legacy atomics are relaxed). */
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) coherent buffer State { uint next_ticket; uint serving; uint counter; uint order[]; };
void main() {
    uint ticket = atomicAdd(next_ticket, 1u);
    while (atomicOr(serving, 0u) != ticket) {
    }
    memoryBarrierBuffer();
    order[counter] = ticket;
    counter = counter + 1u;
    memoryBarrierBuffer();
    atomicAdd(serving, 1u);
}
