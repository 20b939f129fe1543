#version 450
// atomicAdd on uint and int buffer elements: a histogram (+1, returned
// values per bin form 0..count-1), a signed total with negative addends, and
// atomicAdd with a negative uint (subtraction).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint x[]; };
layout(std430, set = 0, binding = 1) buffer Bins { uint bins[]; };
layout(std430, set = 0, binding = 2) buffer Tot { int total; uint down; };
layout(std430, set = 0, binding = 3) writeonly buffer Old { uint old[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint v = x[i];
    old[i] = atomicAdd(bins[v % 37u], 1u);
    atomicAdd(total, int(v % 201u) - 100);
    atomicAdd(down, 0xffffffffu);   // -1
}
