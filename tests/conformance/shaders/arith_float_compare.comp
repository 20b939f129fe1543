#version 450
// Float comparisons, as bits, with many equal pairs.
layout(local_size_x = 16, local_size_y = 4) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * 64u;
    float x = a[i], y = b[i];
    uint r = 0u;
    if (x < y) r |= 1u;
    if (x <= y) r |= 2u;
    if (x > y) r |= 4u;
    if (x >= y) r |= 8u;
    if (x == y) r |= 16u;
    if (x != y) r |= 32u;
    bvec4 l = lessThan(vec4(x, y, x, -x), vec4(y, x, 0.0, 0.0));
    r |= (l.x ? 64u : 0u) | (l.y ? 128u : 0u) | (l.z ? 256u : 0u) | (l.w ? 512u : 0u);
    o[i] = r;
}
