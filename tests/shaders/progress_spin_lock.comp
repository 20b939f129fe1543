#version 450
/* Every invocation takes a compare-and-swap spin lock around a plain
 * read-modify-write of a counter.  Lanes of one subgroup contend for the
 * same lock: the lane that wins must get to release it while the others
 * spin (forward progress of diverged lanes).  Legacy atomics are relaxed:
 * memoryBarrierBuffer() after taking the lock is its acquire, before
 * releasing it its release (without the first, the critical sections of
 * two workgroups race: 000 "Synchronizes-With"). */
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer State { uint lock; uint counter; uint order[]; };
void main() {
    while (atomicCompSwap(lock, 0u, 1u) != 0u) {
    }
    memoryBarrierBuffer();
    uint ticket = counter;
    order[ticket] = gl_GlobalInvocationID.x;
    counter = ticket + 1u;
    memoryBarrierBuffer();
    atomicExchange(lock, 0u);
}
