#version 450
// atomicMin/atomicMax on uint and int: final values, and every returned
// value is no better than the final one.
layout(local_size_x = 100) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int x[]; };
layout(std430, set = 0, binding = 1) buffer M { uint umin[8]; uint umax[8]; int imin[8]; int imax[8]; };
layout(std430, set = 0, binding = 2) writeonly buffer Old { uvec4 old[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    int v = x[i];
    uint s = i % 8u;
    old[i] = uvec4(atomicMin(umin[s], uint(v)), atomicMax(umax[s], uint(v)),
                   uint(atomicMin(imin[s], v)), uint(atomicMax(imax[s], v)));
}
