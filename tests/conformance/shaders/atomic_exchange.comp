#version 450
// atomicExchange on uint and int: the returned values and the final values
// together are a permutation of the initial values and all stored values.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) buffer S { uint slots[16]; int islot; };
layout(std430, set = 0, binding = 1) writeonly buffer Old { uvec2 old[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    old[i] = uvec2(atomicExchange(slots[i % 16u], i + 1000u), uint(atomicExchange(islot, -int(i) - 1)));
}
