#version 450
// Booleans in buffer blocks (stored as 32-bit values): bool, bvec3 and bool
// arrays in a struct, read (any nonzero is true) and written (1 or 0).
layout(local_size_x = 32) in;
struct Flags { bool f; bvec3 v; bool arr[4]; };   // f@0 v@16 arr@28 (stride 4), size 48
layout(std430, set = 0, binding = 0) readonly buffer In { Flags fin[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { Flags fout[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Bits { uint bits[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    Flags a = fin[i];
    uint b = uint(a.f) | uint(a.v.x) << 1 | uint(a.v.y) << 2 | uint(a.v.z) << 3;
    for (int k = 0; k < 4; k++)
        b |= uint(a.arr[k]) << (4 + k);
    bits[i] = b;
    Flags n;
    n.f = !a.f;
    n.v = not(a.v.zxy);
    for (int k = 0; k < 4; k++)
        n.arr[k] = a.arr[3 - k] != a.f;
    fout[i] = n;
    fout[i].arr[i % 4u] = true;
}
