#version 450
// bitfieldExtract (signed and unsigned) and bitfieldInsert over every
// offset/bits pair, including bits = 0 and offset + bits = 32.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) readonly buffer C { ivec2 ob[]; }; // offset, bits
layout(set = 0, binding = 3) writeonly buffer O { uint o[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], y = b[i];
    int off = ob[i].x, bits = ob[i].y;
    o[i * 3u + 0u] = bitfieldExtract(x, off, bits);
    o[i * 3u + 1u] = uint(bitfieldExtract(int(x), off, bits));
    o[i * 3u + 2u] = bitfieldInsert(x, y, off, bits);
}
