#version 450
// uaddCarry, usubBorrow, umulExtended, imulExtended.
layout(local_size_x = 32, local_size_y = 2) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.y * 32u * gl_NumWorkGroups.x + gl_GlobalInvocationID.x;
    uint x = a[i], y = b[i];
    uint carry, borrow, hi, lo;
    int shi, slo;
    o[i * 8u + 0u] = uaddCarry(x, y, carry);
    o[i * 8u + 1u] = carry;
    o[i * 8u + 2u] = usubBorrow(x, y, borrow);
    o[i * 8u + 3u] = borrow;
    umulExtended(x, y, hi, lo);
    o[i * 8u + 4u] = hi;
    o[i * 8u + 5u] = lo;
    imulExtended(int(x), int(y), shi, slo);
    o[i * 8u + 6u] = uint(shi);
    o[i * 8u + 7u] = uint(slo);
}
