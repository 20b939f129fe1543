#version 450
// Explicit member offsets and align qualifiers in blocks.
layout(local_size_x = 32) in;
layout(std430, set = 0, binding = 0) readonly buffer In {
    layout(offset = 0) uint a;
    layout(offset = 12) uint b;
    layout(offset = 32) vec2 c;
    layout(offset = 48) vec4 d;
    layout(align = 64) uint e;  // 64
    layout(offset = 80) uint arr[4];
} inb;
layout(std430, set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint vals[12] = uint[12](inb.a, inb.b, floatBitsToUint(inb.c.x), floatBitsToUint(inb.c.y),
                             floatBitsToUint(inb.d.x), floatBitsToUint(inb.d.w), inb.e,
                             inb.arr[0], inb.arr[1], inb.arr[2], inb.arr[3], inb.arr[i % 4u]);
    o[i] = vals[i % 12u];
}
