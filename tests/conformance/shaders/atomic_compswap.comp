#version 450
// atomicCompSwap: one winner per slot among the invocations that race to
// claim it, and a compare-and-swap loop that increments a counter.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer S { uint slots[32]; uint counter; int icounter; };
layout(std430, set = 0, binding = 1) writeonly buffer R { uint won[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint prev = atomicCompSwap(slots[i % 32u], 0u, i + 1u);
    won[i] = prev == 0u ? 1u : 0u;
    // Increment by compare-and-swap until it succeeds.
    uint seen = atomicAdd(counter, 0u);   // a plain read would race with the others' atomics
    for (;;) {
        uint got = atomicCompSwap(counter, seen, seen + 1u);
        if (got == seen)
            break;
        seen = got;
    }
    int iseen = atomicAdd(icounter, 0);
    while (true) {
        int got = atomicCompSwap(icounter, iseen, iseen - 2);
        if (got == iseen)
            break;
        iseen = got;
    }
}
